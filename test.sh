#!/usr/bin/env bash
# The tests: installs what is missing (scripts/setup.sh), builds everything, runs every test project.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
dotnet build Dashboard.sln -v q -nologo
dotnet test Dashboard.sln --no-build "$@"
# The node driver's own protocol tests (node's test runner, against an in-test echo server).
(cd src/Runner/Drivers/node && node --test test/)
