# The service host (src/Service/Host, net10.0): the aspnet variants in process, and the JVM service (Metro + Ice)
# it supervises, built with javac/wsgen/slice2java against Debian's jars (DESIGN.md §3, docs/jvm-service.md).
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
RUN apt-get update && apt-get install -y --no-install-recommends default-jdk-headless jaxws libjaxws-java libwss4j-java \
      libxml-security-java libzeroc-ice3.7-java zeroc-ice-compilers && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN dotnet publish src/Service/Host -c Release -o /out/host \
 && bash src/Service/Jvm/build.sh /out/host/jvm

FROM mcr.microsoft.com/dotnet/aspnet:10.0
RUN apt-get update && apt-get install -y --no-install-recommends default-jre-headless libjaxws-java libwss4j-java \
      libxml-security-java libzeroc-ice3.7-java && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /out/host /app/host
EXPOSE 5090 5091 5092 5093 5100 5101 5102 5110
ENTRYPOINT ["/app/host/Dashboard.Service.Host"]
