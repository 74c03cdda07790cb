#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh Debian machine, and nothing that is already there:
# the JVM stacks' Debian packages (JAX-WS RI "Metro", WSS4J, ZeroC Ice), Chromium for the UI tests, wrk and h2load (nghttp2-client) for the
# benchmarks, PostgreSQL 15 for the storage tests (tests/Shared/PostgresServer.cs starts its own cluster from
# /usr/lib/postgresql/15/bin in a temporary folder; the package's own cluster 15/main is never used), and the node
# driver's npm packages from its lock file (charts come from the Plotly.Blazor NuGet package).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(default-jdk-headless jaxws libjaxws-java libzeroc-ice3.7-java zeroc-ice-compilers libwss4j-java libxml-security-java
  protobuf-compiler protobuf-compiler-grpc-java-plugin libgrpc-java libprotobuf-java libnetty-java libperfmark-java libgoogle-gson-java libguava-java libcommons-cli-java
  chromium wrk nghttp2-client curl time postgresql)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" > /dev/null
fi

for dir in src/Runner/Drivers/node; do
  if [ -f "$dir/package-lock.json" ] && [ ! -d "$dir/node_modules" ]; then
    echo "setup: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
