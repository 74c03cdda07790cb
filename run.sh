#!/usr/bin/env bash
# The main job: installs what is missing, builds, and starts the dashboard (which starts a local service host),
# then prints its address. Ctrl+C stops both.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
dotnet build Dashboard.sln -c Release -v q -nologo
web=src/Web/bin/Release/net10.0/Dashboard.Web
if [ ! -x "$web" ]; then
  echo "run.sh: the dashboard is not built ($web); running the headless sweep instead" >&2
  exec ./bench.sh examples/thesis-quick.json
fi
echo "Dashboard: http://localhost:5080 (Ctrl+C stops it and its service host)"
echo "  (no admin yet? the dashboard prints a one-time setup link below: \"Set up the first admin (one-time link): …\")"
exec "$web" --urls http://localhost:5080 "$@"
