#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh Debian machine, and nothing that is already there:
# the JVM stacks' Debian packages (JAX-WS RI "Metro", WSS4J, ZeroC Ice), Chromium for the UI tests, wrk and h2load (nghttp2-client) for the
# benchmarks, PostgreSQL 15 for the storage tests (tests/Shared/PostgresServer.cs starts its own cluster from
# /usr/lib/postgresql/15/bin in a temporary folder; the package's own cluster 15/main is never used), the node
# driver's npm packages from its lock file (charts come from the Plotly.Blazor NuGet package), and the NuGet packages.
# Three steps, each from its own registry; name some to run only those (default: all three):
#   scripts/setup.sh [debian] [npm] [nuget]
#     debian  the Debian packages (apt-get, from the Debian archive)
#     npm     the node client driver's packages (npm ci, from the npm registry)
#     nuget   the NuGet packages (dotnet restore, from the NuGet registry)
# When a registry cannot be reached it says which step needed which registry, and what still works without it
# (tests/Web.Tests/Scripts/SetupScriptTests.cs).
set -euo pipefail
cd "$(dirname "$0")/.."

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(debian npm nuget)
for step in "${steps[@]}"; do
  case $step in
    debian | npm | nuget) ;;
    *) echo "setup: unknown step '$step' (the steps are debian, npm and nuget)" >&2; exit 2 ;;
  esac
done
wants() { [[ " ${steps[*]} " == *" $1 "* ]]; }

if wants debian; then
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
    # Only for the message below; no sources.list (Debian 12 keeps deb822 files) must not stop the script (set -e).
    apt_sources=$(grep -rhoE '^(deb|URIs:)[^#]*https?://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null | grep -oE 'https?://[^ ]+' | sort -u | tr '\n' ' ' || true)
    if ! $sudo_cmd apt-get update -qq || ! DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" > /dev/null; then
      echo "setup: the debian step (apt-get install: the JVM stacks, Chromium, wrk, PostgreSQL) needs the Debian archive (${apt_sources:-the sources in /etc/apt}), which could not be reached or refused: check the network or proxy, then run this again (scripts/setup.sh debian), or install them yourself: apt-get install ${missing[*]}" >&2
      exit 1
    fi
  fi
fi

if wants npm; then
  for dir in src/Runner/Drivers/node; do
    if [ -f "$dir/package-lock.json" ] && [ ! -d "$dir/node_modules" ]; then
      registry=$(npm config get registry 2>/dev/null || echo "https://registry.npmjs.org/")
      # npm ci retries for about two minutes when the registry is unreachable: ask it once first (one retry after 2 s).
      if ! timeout 20 npm ping --fetch-retries=1 --fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=2000 --loglevel=silent > /dev/null 2>&1; then
        echo "setup: the npm step (npm ci in $dir: the node client driver's packages) needs the npm registry ($registry), which could not be reached: those packages are not installed, so the 'node' client technology will be unavailable (the dashboard says so); everything else works. Run this again once the registry is reachable (scripts/setup.sh npm)." >&2
        continue
      fi
      echo "setup: npm ci in $dir"
      (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    fi
  done
fi

# The NuGet packages (dotnet build would restore them too, but its error does not say what to do).
if wants nuget && ! log=$(dotnet restore Dashboard.sln -v q -nologo 2>&1); then
  echo "$log" | tail -20 >&2
  if echo "$log" | grep -qE 'NU1301|Unable to load the service index'; then
    sources=$(dotnet nuget list source --format short 2>/dev/null | awk '{print $2}' | tr '\n' ' ' | sed 's/ $//')
    echo "setup: the nuget step (dotnet restore Dashboard.sln: the NuGet packages of every project) needs the NuGet registry (${sources:-see nuget.config}), which could not be reached: nothing builds without its packages, once (later builds use the local cache in ~/.nuget/packages). Check the network or proxy and run this again (scripts/setup.sh nuget)." >&2
  else
    echo "setup: the nuget step (dotnet restore Dashboard.sln) failed (above): a package or version the NuGet registry does not serve is named in Directory.Packages.props (docs/dependencies.md)." >&2
  fi
  exit 1
fi
