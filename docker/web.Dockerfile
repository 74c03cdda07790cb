# The dashboard (src/Web, self-contained net9.0) with the runner it starts for each queued run (src/Runner, net10.0).
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
RUN apt-get update && apt-get install -y --no-install-recommends nodejs npm && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# src/Web's build runs `npm ci` for plotly.js and publish copies the top-level wwwroot next to the executable.
RUN dotnet publish src/Web -c Release -o /out/web \
 && dotnet publish src/Runner -c Release -o /out/runner

FROM mcr.microsoft.com/dotnet/runtime:10.0
WORKDIR /app
COPY --from=build /out/web /app/web
COPY --from=build /out/runner /app/runner
COPY examples /app/examples
VOLUME /data
EXPOSE 5080
ENTRYPOINT ["/app/web/Dashboard.Web"]
