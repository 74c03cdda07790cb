# The dashboard (src/Web, net10.0, framework-dependent) with the runner it starts for each queued run (src/Runner, net10.0)
# and the runner's out-of-process drivers: java (JAX-WS + Ice proxies) and node (npm soap, undici).
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
RUN apt-get update && apt-get install -y --no-install-recommends nodejs npm default-jdk-headless jaxws libjaxws-java \
      libwss4j-java libxml-security-java libzeroc-ice3.7-java zeroc-ice-compilers && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# src/Web's build runs `npm ci` for plotly.js and publish copies the top-level wwwroot next to the executable.
RUN dotnet publish src/Web -c Release -o /out/web \
 && dotnet publish src/Runner -c Release -o /out/runner \
 && bash src/Runner/Drivers/java/build.sh /out/runner/drivers/java \
 && cd src/Runner/Drivers/node && npm ci --omit=dev && mkdir -p /out/node && cp -r driver.js lib package.json node_modules /out/node/ \
 && cp /src/src/Service/Contracts/Catalogue/catalogue.json /out/node/

FROM mcr.microsoft.com/dotnet/aspnet:10.0
RUN apt-get update && apt-get install -y --no-install-recommends nodejs default-jre-headless libjaxws-java \
      libwss4j-java libxml-security-java libzeroc-ice3.7-java && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /out/web /app/web
COPY --from=build /out/runner /app/runner
COPY --from=build /out/node /app/node-driver
COPY examples /app/examples
ENV DASHBOARD_NODE_DRIVER=/app/node-driver
VOLUME /data
EXPOSE 5080
ENTRYPOINT ["/app/web/Dashboard.Web"]
