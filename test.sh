#!/usr/bin/env bash
# The tests: installs what is missing (scripts/setup.sh), builds everything, runs every test project.
# Arguments go to each `dotnet test` (e.g. ./test.sh --filter "FullyQualifiedName~Agents").
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
# setup.sh has just restored the solution's packages (and stops here when it cannot): the build need not restore again
# (a no-op restore took 17.8 s wall, 4.6 s CPU, at load average 21).
dotnet build Dashboard.sln -v q -nologo --no-restore

# One test project at a time, quick ones first. The suites start real hosts, JVMs, drivers, agents and Chromium and are
# CPU-bound on a 2-core machine: there `.ci/run` took 1,904 s with two suites side by side (dotnet test's default) and
# 1,740 s one after the other, and timing-sensitive tests fail less often alone.
status=0
first=(tests/Data.Tests tests/Web.Components.Tests tests/Service.Tests tests/Runner.Tests tests/Web.Tests)
projects=("${first[@]}")
for csproj in tests/*/*.Tests.csproj; do   # a project added later runs too, after these
  [[ " ${first[*]} " == *" $(dirname "$csproj") "* ]] || projects+=("$(dirname "$csproj")")
done
# Each project's results go to a .trx in $results (TEST_RESULTS, default a fresh temp folder); the slowest classes and
# tests are printed at the end, so that where CI time goes is seen on every run (scripts/slowest-tests.py).
results=${TEST_RESULTS:-$(mktemp -d "${TMPDIR:-/tmp}/test-results-XXXXXX")}
for project in "${projects[@]}"; do
  dotnet test "$project" --no-build --logger "trx;LogFileName=$(basename "$project").trx" --results-directory "$results" "$@" || status=$?
done
scripts/slowest-tests.py "$results" 15 || true

# The node driver's own protocol tests (node's test runner, against an in-test echo server).
(cd src/Runner/Drivers/node && node --test test/) || status=$?
exit "$status"
