#!/usr/bin/env bash
# Headless sweep: builds (Release), starts a local service host if none answers at the scenario's host, runs the
# scenario with the runner, prints the per-level table, writes levels.csv, stops the host it started.
#   ./bench.sh [scenario.json] [results.db]      default: examples/thesis-quick.json, results.db
set -euo pipefail
cd "$(dirname "$0")"
scenario=${1:-examples/thesis-quick.json}
db=${2:-results.db}
scripts/setup.sh
dotnet build Dashboard.sln -c Release -v q -nologo
host=$(sed -n 's/.*"host"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$scenario" | head -1)
host=${host%/}
started=""
if ! curl -fsS -o /dev/null "$host/healthz" 2>/dev/null; then
  port=$(echo "$host" | sed -n 's#.*:\([0-9]*\)$#\1#p')
  echo "bench: no host answers at $host; starting a local one"
  src/Service/Host/bin/Release/net10.0/Dashboard.Service.Host --urls "http://localhost:${port:-5090}" > service-host.log 2>&1 &
  started=$!
  trap 'kill -TERM $started 2>/dev/null; wait $started 2>/dev/null || true' EXIT
  for _ in $(seq 1 120); do
    curl -fsS -o /dev/null "$host/healthz" 2>/dev/null && break
    sleep 0.5
  done
  # The JVM stacks take a few seconds more to list their endpoints.
  for _ in $(seq 1 60); do
    curl -fsS "$host/healthz" 2>/dev/null | grep -q '"jvm":"starting"' || break
    sleep 0.5
  done
fi
status=0
src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$scenario" --db "$db" --levels-csv levels.csv || status=$?
echo "bench: per-level CSV in levels.csv, samples in $db (exit $status)"
exit $status
