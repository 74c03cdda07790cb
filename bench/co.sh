#!/usr/bin/env bash
# Coordinated omission (issue #35, "Benchmarks"; docs/statistics.md, "Open workloads"): the service host stopped with
# SIGSTOP for PAUSE s in the middle of a measured level, once in an open level (RATE req/s, response time from each
# request's intended start: the correction of wrk2 / HdrHistogram) and once in a closed level (CLIENTS clients, as the
# thesis measured), against one Release host of its own, AspNetHttpJson × CLIENT × Int, SECONDS s windows.
# Prints each level's p50, p99, p99.9 and max (ms) and, for the open level, what the pause implies: the requests whose
# intended start fell in the pause wait on average for its rest, so their response times spread evenly over (0, PAUSE];
# they are PAUSE ÷ SECONDS of all requests, and the q-th percentile of the level is about PAUSE − (1 − q) × SECONDS
# (PAUSE 1 s, SECONDS 10: p99 ≈ 900 ms, p99.9 ≈ 990 ms), while a closed level stalls only its CLIENTS requests in
# flight, a sliver of all, and its percentiles hardly move. The level's max says whether the pause fell in the window.
#   bench/co.sh [RATE = 1000] [SECONDS = 10] [PAUSE = 1] [CLIENTS = 10]      CO_CLIENT (dotnet), CO_PORT_BASE (6480)
# Needs Release builds of the runner and the host, python3. Measure on a quiet machine (load average below 1.5).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
rate=${1:-1000} seconds=${2:-10} pause=${3:-1} clients=${4:-10}
client=${CO_CLIENT:-dotnet}
base=${CO_PORT_BASE:-6480}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-co.XXXXXX")
echo "# $(date -u +%FT%TZ) load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); rate $rate req/s, $seconds s windows, SIGSTOP $pause s, $clients clients closed, client $client"
BENCH_PORT_BASE=$base start_host "$work"
duration=$(printf '00:00:%02d' "$seconds")
common='"host":"http://127.0.0.1:'$base'","variants":["AspNetHttpJson"],"clients":["'$client'"],"payloads":["Int"],"duration":"'$duration'","repetitions":1'

# One level with the host stopped for $pause s once the measured window is under way: the runner's --progress json
# reports the level's measured requests at least once a second ("level-progress", "requests" > 0 once the window has
# begun); the pause begins a third of the window after that.
level() { # LABEL SCENARIO
  echo "$2" > "$work/s.json"
  rm -f "$work/r.db"* "$work/l.csv"
  src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" \
    --progress json --security-dir "$BENCH_SECURITY_DIR" > "$work/progress.txt" 2> "$work/err.txt" &
  local runner=$! waited=0
  until grep '"level-progress"' "$work/progress.txt" 2>/dev/null | grep -q '"requests":[1-9]'  || [ $waited -ge 600 ]; do sleep 0.1; waited=$((waited + 1)); done
  sleep "$(awk -v s="$seconds" 'BEGIN { print s / 3 }')"
  kill -STOP "$BENCH_HOST"; sleep "$pause"; kill -CONT "$BENCH_HOST"
  wait $runner || { echo "co: the $1 level failed: $(tail -3 "$work/err.txt")" >&2; return 1; }
  python3 - "$work/l.csv" "$1" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[-1]
print(f"{sys.argv[2]:8} {float(r['throughput_rps']):9.0f} req/s  p50 {float(r['p50_ms']):8.2f}  p99 {float(r['p99_ms']):8.2f}  p99.9 {float(r['p999_ms']):8.2f}  max {float(r['max_ms']):8.1f} ms  ({r['requests']} requests)")
PY
}

# A level without the pause first: JIT and connections warm, and the host's own p99 at this rate for reference.
echo "$(echo "{\"name\":\"co warm\",$common,\"workload\":\"open\",\"rates\":[$rate],\"maxConnections\":64,\"warmup\":500}")" > "$work/s.json"
src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" --db "$work/w.db" --levels-csv "$work/w.csv" \
  --security-dir "$BENCH_SECURITY_DIR" > /dev/null 2>&1
python3 - "$work/w.csv" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[-1]
print(f"no pause  {float(r['throughput_rps']):9.0f} req/s  p50 {float(r['p50_ms']):8.2f}  p99 {float(r['p99_ms']):8.2f}  p99.9 {float(r['p999_ms']):8.2f}  max {float(r['max_ms']):8.1f} ms  (open, {r['requests']} requests)")
PY
level open "{\"name\":\"co open\",$common,\"workload\":\"open\",\"rates\":[$rate],\"maxConnections\":64,\"warmup\":500}"
level closed "{\"name\":\"co closed\",$common,\"levels\":[$clients],\"warmup\":500}"
awk -v p="$pause" -v s="$seconds" 'BEGIN {
  printf "expected for the open level from the pause: p99 ≈ %.0f ms, p99.9 ≈ %.0f ms (PAUSE − (1 − q) × SECONDS)\n", (p - 0.01 * s) * 1000, (p - 0.001 * s) * 1000 }'
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
