#!/usr/bin/env bash
# What the dashboard's own process costs while a run it started goes (issues #32/#34: the dashboard is "others" to the
# disturbed check, docs/statistics.md "Disturbed"; bench/README.md "The dashboard's own CPU while a run goes").
# Starts a dashboard of its own (own data folder; its supervised local service host on its own ports, JVM off), makes an
# Admin token with `Dashboard.Web token create`, lets it sit idle for IDLE seconds, then queues RUNS closed runs of
# AspNetHttpJson × dotnet × Int, 1 client, one level of SECONDS s (steady state off, so every run has the same length)
# through POST /api/runs, one after the other. It reads the dashboard's user + system time (/proc/PID/stat, all threads,
# exited ones included) when the runner process appears and when it ends, and prints per run: CPU seconds, wall time,
# CPU ÷ wall in cores, the 1-minute load average at both ends, the level's own others' CPU (levels.csv), and the
# dashboard's threads that used the most CPU (/proc/PID/task: Hangfire names its threads). Nothing polls the dashboard
# while a run goes (the runner's process is found in /proc), so the figure is the dashboard's own.
#   bench/dashboard-cpu.sh [RUNS = 2] [SECONDS = 60] [IDLE = 30]
# DASHCPU_BASE (6490): the host's control port; its variants at BASE + (default port − 5090), bench/lib.sh's
# host_port_args; the dashboard on the port above the highest of them. DASHCPU_CONFIGURATION (Release) picks the builds
# (dotnet build tests/Web.Tests [-c Release] builds dashboard, runner and host). DASHCPU_ARGS: more dashboard arguments
# (e.g. "--Dashboard:Queue:PollInterval=00:00:01" to compare settings). Work files in TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-2}
seconds=${2:-60}
idle=${3:-30}
source bench/lib.sh
base=${DASHCPU_BASE:-6490}
configuration=${DASHCPU_CONFIGURATION:-Release}
web=src/Web/bin/$configuration/net10.0/Dashboard.Web
for built in "$web" "src/Runner/bin/$configuration/net10.0/Dashboard.Runner" "src/Service/Host/bin/$configuration/net10.0/Dashboard.Service.Host"; do
  [ -x "$built" ] || { echo "dashboard-cpu: $built is not built (dotnet build tests/Web.Tests -c $configuration)" >&2; exit 2; }
done
web_port=$(( $(host_port_max "$base") + 1 ))
work=$(mktemp -d "${TMPDIR:-/tmp}/dashboard-cpu.XXXXXX")
mkdir -p "$work/sockets"
ticks=$(getconf CLK_TCK)

# The local host the dashboard starts inherits its environment: every variant on its own port (ServiceHost__Ports__NAME),
# its sockets in the work folder, no JVM (the scenario calls aspnet only).
while IFS='=' read -r key port; do
  export "ServiceHost__Ports__${key#--ServiceHost:Ports:}=$port"
done < <(host_port_args "$base")
export ServiceHost__SocketDirectory="$work/sockets" Jvm__Enabled=false

# shellcheck disable=SC2206 # DASHCPU_ARGS is split on spaces on purpose
settings=(--urls "http://127.0.0.1:$web_port" --Dashboard:DataFolder="$work/data"
  --Dashboard:LocalHost:Address="http://127.0.0.1:$base" --Dashboard:LocalHost:DataDirectory="$work/host-data" ${DASHCPU_ARGS:-})
token=$("$web" token create --role Admin --name bench-dashboard-cpu "${settings[@]}")
# Standard input from a FIFO only this script writes (fd 3): the dashboard, its host and runner stop when the script
# ends, even by SIGKILL (Dashboard:StopAtStdinEof).
mkfifo "$work/stdin"
"$web" "${settings[@]}" --Dashboard:StopAtStdinEof=true > "$work/dashboard.log" 2>&1 < "$work/stdin" &
dashboard=$!
exec 3> "$work/stdin"
trap 'kill -TERM $dashboard 2>/dev/null; wait $dashboard 2>/dev/null; exec 3>&-; echo "log: $work/dashboard.log"' EXIT
for _ in $(seq 1 240); do curl -fs "http://127.0.0.1:$base/healthz" 2>/dev/null | grep -q '"aspnet":"up"' && break; sleep 0.5; done
curl -fs "http://127.0.0.1:$base/healthz" > /dev/null || { echo "dashboard-cpu: the local host did not come up ($work/dashboard.log)" >&2; exit 1; }

# User + system time (fields 14 and 15 of proc(5)'s stat, counted after the command name, which may hold spaces), in ticks:
# of the whole process (exited threads included), and of each live thread with its name.
cpu() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
threads() { for t in /proc/"$1"/task/*; do sed 's/.*) //' "$t/stat" 2>/dev/null | awk -v t="$(cat "$t/comm" 2>/dev/null)" '{ print t "\t" $12 + $13 }'; done; }
load() { cut -d' ' -f1 /proc/loadavg; }
cores() { awk -v a="$1" -v b="$2" -v t="$ticks" -v w="$3" 'BEGIN { printf "%.3f", (b - a) / t / w }'; }
now() { date +%s.%N; }
# Threads by name: the CPU each name's threads used between two `threads` listings (threads that ended between are lost).
by_name() { awk -F'\t' -v t="$ticks" 'NR == FNR { before[$1] += $2; next } { after[$1] += $2 }
  END { for (n in after) { d = (after[n] - before[n]) / t; if (d >= 0.01) printf "%s\t%.2f s\n", n, d } }' "$1" "$2" | sort -t"$(printf '\t')" -k2 -gr | head -8 | sed 's/^/    /'; }

echo "# $(date -u +%FT%TZ) $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD); $configuration; dashboard $dashboard on :$web_port, host on :$base"
echo "# bench/dashboard-cpu.sh $runs $seconds $idle ${DASHCPU_ARGS:-}"
sleep 5 # the start's own work (migrations, first requests) out of the idle window
c0=$(cpu $dashboard); t0=$(now); l0=$(load); threads $dashboard > "$work/threads-0"
sleep "$idle"
c1=$(cpu $dashboard); t1=$(now); threads $dashboard > "$work/threads-1"
echo "idle $idle s: $(awk -v a="$c0" -v b="$c1" -v t="$ticks" 'BEGIN { printf "%.2f", (b - a) / t }') CPU s, $(cores "$c0" "$c1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')") cores, load $l0 → $(load)"
by_name "$work/threads-0" "$work/threads-1"

scenario=$(cat <<JSON
{"name": "dashboard CPU while a run goes", "host": "http://127.0.0.1:$base", "variants": ["AspNetHttpJson"],
 "clients": ["dotnet"], "payloads": ["Int"], "levels": [1], "duration": "$(printf '%02d:%02d:%02d' $((seconds / 3600)) $((seconds / 60 % 60)) $((seconds % 60)))", "warmup": 100,
 "steadyState": "off", "repetitions": 1}
JSON
)
for run in $(seq 1 "$runs"); do
  id=$(curl -fsS -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "$scenario" \
    "http://127.0.0.1:$web_port/api/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  runner=""
  for _ in $(seq 1 600); do runner=$(pgrep -P $dashboard -f Dashboard.Runner | head -1 || true); [ -n "$runner" ] && break; sleep 0.05; done
  [ -n "$runner" ] || { echo "dashboard-cpu: run $id: no runner appeared" >&2; exit 1; }
  c0=$(cpu $dashboard); t0=$(now); l0=$(load); threads $dashboard > "$work/threads-0"
  # Every 0.5 s while the runner lives: the dashboard's CPU so far, for its peaks (a level is disturbed by others' CPU
  # over its window, so a burst matters as much as the mean).
  : > "$work/timeline"
  while kill -0 "$runner" 2>/dev/null; do echo "$(now) $(cpu $dashboard 2>/dev/null || echo 0)" >> "$work/timeline"; sleep 0.5; done
  c1=$(cpu $dashboard); t1=$(now); l1=$(load); threads $dashboard > "$work/threads-1"
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  sleep 1
  status=$(curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$web_port/api/runs/$id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
  others=$(curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$web_port/api/runs/$id/levels.csv" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
print(", ".join("%s (disturbed %s)" % (r.get("others_cpu_cores", "?"), r.get("disturbed", "?")) for r in rows) or "no level")')
  echo "run $id ($status): dashboard $(awk -v a="$c0" -v b="$c1" -v t="$ticks" 'BEGIN { printf "%.2f", (b - a) / t }') CPU s over $(printf %.1f "$wall") s = $(cores "$c0" "$c1" "$wall") cores; load $l0 → $l1; the level's others' CPU (cores): $others"
  by_name "$work/threads-0" "$work/threads-1"
  # The busiest 5 s of the run (over the 0.5 s readings) and how many 1 s steps were above 0.10 of a core.
  awk -v t="$ticks" '{ at[NR] = $1; c[NR] = $2 } END {
      for (i = 1; i <= NR; i++) { for (j = i; j <= NR && at[j] - at[i] < 5; j++); if (j <= NR) { r = (c[j] - c[i]) / t / (at[j] - at[i]); if (r > peak) peak = r } }
      for (i = 1; i + 2 <= NR; i += 2) { if ((c[i + 2] - c[i]) / t / (at[i + 2] - at[i]) > 0.10) above++ }
      printf "    busiest 5 s: %.3f cores; 1 s steps above 0.10 of a core: %d of %d\n", peak, above, int((NR - 1) / 2) }' "$work/timeline"
done
