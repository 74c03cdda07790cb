#!/usr/bin/env bash
# Recording cost: the dotnet driver on AspNetHttpJson + Int with full sample recording (the engine) vs counting only,
# side by side, three rounds; then the engine floor with a null client. Needs a Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
work=$(mktemp -d)
start_host "$work"
bench/EngineBench/bin/Release/net10.0/Dashboard.Bench.Engine recording http://127.0.0.1:5390 ${1:-10}
bench/EngineBench/bin/Release/net10.0/Dashboard.Bench.Engine engine-floor 2
