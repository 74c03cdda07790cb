#!/usr/bin/env bash
# One client on one core (docs/statistics.md, "Placement: one client on one core"; issue #32): how steady is a 1-client
# closed loop on this machine, by where the scheduler may put client and server? Starts a Release host of its own
# (BENCH_PORT_BASE, default 6280), then for ROUNDS rounds (default 2) and each placement
#   free   host and client may use every core (the scheduler's choice),
#   same   host (every thread) and client pinned to core 0,
#   split  client on core 0, host on core 1,
# runs wrk -t1 -c1 for 6 windows of 3 s and the product's dotnet client for one 1-client level of 6 repetitions of 3 s
# (steady-state warm-up as preset 1 quick, placement free: the pinning here is the script's), both against
# AspNetHttpJson × Int, and prints each one's mean req/s, CoV over the windows and the windows in order.
# Needs a Release build (src/Runner, src/Service/Host), wrk, taskset; 2 cores or more. Measure on a quiet machine
# (1-minute load average below 1.2 at the start; the benchmark's own spinning threads raise it during the run).
#   bench/one-client.sh [ROUNDS]
set -euo pipefail
source bench/lib.sh
rounds=${1:-2}
base=${BENCH_PORT_BASE:-6280}
work=$(mktemp -d "${TMPDIR:-/tmp}/one-client-XXXXXX")
echo "# $(date -u +%FT%TZ) load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
BENCH_PORT_BASE=$base start_host "$work"
port=$(host_port "$base" AspNetHttpJson)
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"value":2147483647}'
wrk.headers["Content-Type"] = "application/json"
LUA
cat > "$work/s.json" <<JSON
{"name": "one client", "host": "http://127.0.0.1:$base", "variants": ["AspNetHttpJson"], "clients": ["dotnet"], "payloads": ["Int"],
 "levels": [1], "duration": "00:00:03", "warmup": 5, "repetitions": 6,
 "steadyState": {"windows": 3, "maxCov": 0.05, "window": "00:00:00.5", "maxWarmup": "00:00:05"}}
JSON
all=$(taskset -cp $$ | sed 's/.*: //')
for round in $(seq 1 "$rounds"); do
  for place in free same split; do
    case $place in free) host_cores=$all; client_cores=$all;; same) host_cores=0; client_cores=0;; split) host_cores=1; client_cores=0;; esac
    taskset -a -cp "$host_cores" "$BENCH_HOST" > /dev/null
    windows=""
    for _ in 1 2 3 4 5 6; do
      windows+="$(taskset -c "$client_cores" wrk -t1 -c1 -d3s -s "$work/post.lua" "http://127.0.0.1:$port/IntSimple" | awk '/Requests\/sec/ { printf "%.0f", $2 }') "
    done
    DOTNET_TC_CallCountingDelayMs=0 taskset -c "$client_cores" src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" \
      --db "$work/r.db" --levels-csv "$work/l.csv" --security-dir "$BENCH_SECURITY_DIR" > /dev/null 2>&1
    rm -f "$work/r.db"*
    product=$(python3 -c 'import csv, sys; print(" ".join(str(round(float(r["throughput_rps"]))) for r in csv.DictReader(open(sys.argv[1]))))' "$work/l.csv")
    python3 - "$round" "$place" "$windows" "$product" <<'PY'
import statistics as st, sys
round_, place, wrk, product = sys.argv[1:]
for name, text in (("wrk", wrk), ("dotnet", product)):
    rates = [float(x) for x in text.split()]
    mean = st.mean(rates)
    print(f"round {round_} {place:5} {name:6} mean {mean:8.0f} req/s  CoV {100 * st.stdev(rates) / mean:5.1f} %  in order: {' '.join(f'{r:.0f}' for r in rates)}", flush=True)
PY
  done
done
taskset -a -cp "$all" "$BENCH_HOST" > /dev/null
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
