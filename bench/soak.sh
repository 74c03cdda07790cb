#!/usr/bin/env bash
# Soak (issue 14, part 4): queues examples/soak.json (one cycle over the aspnet and metro stacks, about 6 minutes) SOAK_CYCLES
# times (default 5: about 30 minutes of mixed moderate load) through the dashboard's API, and samples the resident memory
# (VmRSS from /proc) of the service host, its JVM service, the dashboard and the runner every SOAK_INTERVAL seconds
# (default 30) into soak.csv until the last run ends. Then it prints the memory at start, middle and end, and at the end
# of each cycle: the first cycle is the warm-up (JIT, pools, the JVM heap growing towards -Xmx), so growth is measured
# from the end of cycle 1 to the end of the last cycle; the JVM's live heap (after a full collection) at each cycle's end
# goes to jvm-heap.csv. Cycles rather than one long run: a run goes cell by cell, so
# one long run would load the JVM only in its last third and its growth would be its first use.
#   bench/soak.sh [scenario.json]
# Everything on its own ports (SOAK_PORT_BASE, default 5590: host control API on the base, every variant at base + (its
# default port − 5090) as bench/lib.sh's host_port_args gives them, i.e. 5591–5611; the dashboard on the next port above
# them, 5612, or SOAK_WEB_PORT) and in its own work folder (SOAK_WORK, default a new temp folder; TMPDIR for the runner's
# lock; the host's data folder, whose security material the dashboard's runner is given, in WORK/data-host).
# Release builds of the host, runner and dashboard are used (dotnet build Dashboard.sln -c Release).
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:-examples/soak.json}
source bench/lib.sh
base=${SOAK_PORT_BASE:-5590}
ports=$(host_port_args "$base")
web_port=${SOAK_WEB_PORT:-$(( $(host_port_max "$base") + 1 ))}
interval=${SOAK_INTERVAL:-30}
cycles=${SOAK_CYCLES:-5}
work=${SOAK_WORK:-$(mktemp -d -t soak-XXXXXX)}
mkdir -p "$work/tmp" "$work/sockets" "$work/data" "$work/data-host"
web=src/Web/bin/Release/net9.0/linux-x64/Dashboard.Web
[ -x "$web" ] && [ -x src/Runner/bin/Release/net10.0/Dashboard.Runner ] || dotnet build Dashboard.sln -c Release -v q -nologo

# shellcheck disable=SC2086 # one argument per line, none with spaces
src/Service/Host/bin/Release/net10.0/Dashboard.Service.Host --urls "http://127.0.0.1:$base" $ports \
  --ServiceHost:SocketDirectory="$work/sockets" --ServiceHost:DataDirectory="$work/data-host" > "$work/host.log" 2>&1 &
host_pid=$!
TMPDIR="$work/tmp" "$web" --urls "http://127.0.0.1:$web_port" --Dashboard:DataFolder="$work/data" --Dashboard:StartLocalHost=false \
  --Dashboard:Runner:ExecutablePath="$PWD/src/Runner/bin/Release/net10.0/Dashboard.Runner" \
  --Dashboard:Runner:SecurityDirectory="$work/data-host/security" \
  --Dashboard:LocalHost:Address="http://127.0.0.1:$base" > "$work/web.log" 2>&1 &
web_pid=$!
trap 'kill -TERM $web_pid $host_pid 2>/dev/null; wait $web_pid $host_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 180); do curl -fs "http://127.0.0.1:$base/healthz" 2>/dev/null | grep -q '"jvm":"up"' && break; sleep 0.5; done
for _ in $(seq 1 120); do curl -fs -o /dev/null "http://127.0.0.1:$web_port/api/runs" 2>/dev/null && break; sleep 0.5; done

body=$(sed "s#\"host\"[[:space:]]*:[[:space:]]*\"[^\"]*\"#\"host\": \"http://127.0.0.1:$base\"#" "$scenario")
ids=()
for _ in $(seq 1 "$cycles"); do
  ids+=("$(curl -fsS -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$web_port/api/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')")
done
echo "soak: runs ${ids[*]} queued on http://127.0.0.1:$web_port/queue; sampling every $interval s into $work/soak.csv"

# The JVM's live heap at the end of each cycle: a full collection (jcmd GC.run, about 0.1 s while the next cycle starts)
# and the heap used after it. RSS alone cannot tell a leak from G1 touching more of its -Xmx as it goes.
echo "run,jvm_live_heap_kb" > "$work/jvm-heap.csv"
live_heap() {
  [ -n "$1" ] && command -v jcmd > /dev/null || return 0
  jcmd "$1" GC.run > /dev/null 2>&1 || return 0
  echo "$2,$(jcmd "$1" GC.heap_info 2>/dev/null | grep -o 'used [0-9]*K' | head -1 | tr -dc 0-9)" >> "$work/jvm-heap.csv"
}
rss_kb() { [ -n "$1" ] && awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo ""; }
echo "elapsed_s,run,status,completed_levels,host_rss_kb,jvm_rss_kb,dashboard_rss_kb,runner_rss_kb" > "$work/soak.csv"
started=$(date +%s)
status=""
for id in "${ids[@]}"; do
  while true; do
    run=$(curl -fsS "http://127.0.0.1:$web_port/api/runs/$id")
    status=$(echo "$run" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
    levels=$(echo "$run" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("completedLevels", ""))')
    jvm=$(pgrep -P "$host_pid" java | head -1 || true)
    runner=$(pgrep -P "$web_pid" -f Dashboard.Runner | head -1 || true)
    echo "$(( $(date +%s) - started )),$id,$status,$levels,$(rss_kb $host_pid),$(rss_kb "$jvm"),$(rss_kb $web_pid),$(rss_kb "$runner")" >> "$work/soak.csv"
    case "$status" in Completed|Failed|Cancelled|Interrupted) live_heap "$jvm" "$id"; break ;; esac
    sleep "$interval"
  done
  echo "soak: run $id ended $status after $(( $(date +%s) - started )) s"
  echo "$run" | python3 -c 'import json,sys; r=json.load(sys.stdin); print("soak: error:", r["error"]) if r.get("error") else None'
done

python3 - "$work/soak.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
mb = lambda v: float(v) / 1024 if v else float('nan')
runs = list(dict.fromkeys(r['run'] for r in rows))
# The last sample of each run is taken when it ended: the end of a cycle.
cycle_ends = [[r for r in rows if r['run'] == run][-1] for run in runs]
print(f"soak: resident memory (MB), {len(rows)} samples over {len(runs)} cycles; growth = end of the last cycle − end of cycle 1 (the warm-up)")
print(f"{'process':<11}{'start':>9}{'middle':>9}{'end':>9}{'max':>9}" + ''.join(f"{'cycle ' + str(i + 1):>10}" for i in range(len(runs))) + f"{'growth':>9}")
for key, name in [('host_rss_kb', 'host'), ('jvm_rss_kb', 'jvm'), ('dashboard_rss_kb', 'dashboard'), ('runner_rss_kb', 'runner')]:
    values = [mb(r[key]) for r in rows if r[key]]
    if not values:
        continue
    ends = [mb(r[key]) for r in cycle_ends]
    growth = ends[-1] - ends[0] if len(ends) > 1 else float('nan')
    print(f"{name:<11}{values[0]:>9.1f}{values[len(values) // 2]:>9.1f}{values[-1]:>9.1f}{max(values):>9.1f}" + ''.join(f"{e:>10.1f}" for e in ends) + f"{growth:>+9.1f}")
print("(runner: the runner of the run in progress, a new process per run; empty at a cycle's end)")
PY
python3 - "$work/jvm-heap.csv" <<'PY'
import csv, sys
heap = [r for r in csv.DictReader(open(sys.argv[1])) if r['jvm_live_heap_kb']]
if heap:
    print("soak: JVM live heap after a full collection at each cycle's end (MB): "
          + ' '.join(f"{float(r['jvm_live_heap_kb']) / 1024:.1f}" for r in heap))
PY
echo "soak: samples in $work/soak.csv, logs and database in $work"
