#!/usr/bin/env bash
# A/A benchmark (issue #24): the same cell as two "runs" A and B, interleaved PAIRS times (A B, B A, A B, …), each run a
# fresh Release runner process against one Release host; prints per pair the throughput, p50 and server CPU per request (the host's GET /cpu at the window's ends) and their ratio B/A and, over the
# pairs, the mean ratio with its 95 % interval (log scale, t(0.975, n − 1)) and the CoV of the single runs. Done twice:
# without steady-state warm-up (only the warm-up requests) and with it (steadyState thresholds below), the two modes
# interleaved pair by pair so that both see the same machine.
# The goal is a ratio of 1.00 ± 0.02. Run from the repository's root on an otherwise idle machine:
#   bench/aa.sh                       AA_PAIRS (8), AA_DURATION (00:00:03), AA_CLIENTS (20), AA_VARIANT (AspNetHttpJson)
#   AA_CLIENT (dotnet): the client technology (lean: the load generator of issue #35); AA_MODES ("off steady"): "steady"
#   (or "off") alone runs that mode only, each pair A B or B A by turns.
#   AA_CONTROL_PORT (6490) and AA_PORT_BASE (6400): the host's control API and its variants' ports (host_port_args).
#   AA_LAUNCHES (3; issue #32): each run is that many launches (fresh clients each, docs/statistics.md "Launches"), and a
#   run's throughput and p50 are the mean over its launches; 1 gives the single-launch runs of issue #24.
#   The host runs under `Dashboard.Service.Host supervise` (HostSupervisor), so each launch gets a fresh host process as
#   on the dashboard's machine; AA_SHARED_HOST=1 starts it without (POST /restart answers 409: launches share one host).
set -euo pipefail
source bench/lib.sh
pairs=${AA_PAIRS:-8}
duration=${AA_DURATION:-00:00:03}
clients=${AA_CLIENTS:-20}
variant=${AA_VARIANT:-AspNetHttpJson}
client=${AA_CLIENT:-dotnet}
modes=${AA_MODES:-off steady}
control=${AA_CONTROL_PORT:-6490}
base=${AA_PORT_BASE:-6400}
config=${AA_CONFIG:-Release}
launches=${AA_LAUNCHES:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/aa-XXXXXX")
mkdir -p "$work/sockets" "$work/data"
mapfile -t ports < <(host_port_args "$base")
supervise=supervise
[ "${AA_SHARED_HOST:-0}" = 1 ] && supervise=
# shellcheck disable=SC2086 # $supervise: the mode's word, or nothing
"src/Service/Host/bin/$config/net10.0/Dashboard.Service.Host" $supervise --urls "http://127.0.0.1:$control" "${ports[@]}" \
  --ServiceHost:SocketDirectory="$work/sockets" --ServiceHost:DataDirectory="$work/data" --Jvm:Enabled=false > "$work/host.log" 2>&1 &
host=$!
trap 'kill -TERM $host; wait $host 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$control/healthz" 2>/dev/null | grep -q '"aspnet":"up"' && break; sleep 0.5; done

# One run: throughput (req/s), p50 (ms) and server CPU per request (µs, the host's GET /cpu at the window's ends) of its
# single level, from the runner's levels CSV.
run_once() {
  local steady=$1
  cat > "$work/s.json" <<JSON
{"name": "A/A", "host": "http://127.0.0.1:$control", "variants": ["$variant"], "clients": ["$client"], "payloads": ["Int"],
 "levels": [$clients], "duration": "$duration", "warmup": 50, "launches": $launches$steady}
JSON
  "src/Runner/bin/$config/net10.0/Dashboard.Runner" run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" --progress json > /dev/null
  rm -f "$work/r.db"*
  # How many host processes the run's launches had (levels' host_pid): $launches when each launch got a fresh one.
  python3 -c 'import csv, sys; print(len({x["host_pid"] for x in csv.DictReader(open(sys.argv[1]))}))' "$work/l.csv" >> "$work/hosts.txt"
  # The mean over the run's launches (one row each) of throughput_rps, p50_ms and server_cpu_us_per_request, read by the
  # levels CSV's header names ("nan" when a launch has no server figure: the host did not report its counters).
  python3 -c 'import csv, statistics as st, sys; r = list(csv.DictReader(open(sys.argv[1])))
cpu = [float(x["server_cpu_us_per_request"]) for x in r if x["server_cpu_us_per_request"]]
print("%.3f,%.6f,%.3f" % (st.mean(float(x["throughput_rps"]) for x in r), st.mean(float(x["p50_ms"]) for x in r), st.mean(cpu) if len(cpu) == len(r) else float("nan")))' "$work/l.csv"
}

summarize() {
  python3 - "$1" <<'PY'
import math, statistics as st, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
# t(0.975, ν) from the NIST/SEMATECH e-Handbook §1.3.6.7.2 table, for the pair counts used here.
T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201,
     12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080,
     22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042}
def estimate(values):
    n = len(values); m = st.mean(values); s = st.stdev(values)
    h = T[n - 1] * (s / math.sqrt(n)) / m
    return m, m * math.exp(-h), m * math.exp(h), s / m
for name, i in (("throughput", 0), ("p50", 1), ("server CPU per request", 2)):
    ratios = [b[i] / a[i] for a, b in ((r[0:3], r[3:6]) for r in rows) if not (math.isnan(a[i]) or math.isnan(b[i]))]
    if len(ratios) < 2:
        print(f"  {name}: fewer than 2 pairs with a figure"); continue
    m, lo, hi, cov = estimate(ratios)
    singles = [r[i] for r in rows if not math.isnan(r[i])] + [r[i + 3] for r in rows if not math.isnan(r[i + 3])]
    print(f"  {name} ratio B/A: mean {m:.3f}, 95 % interval [{lo:.3f}, {hi:.3f}] (log scale, n = {len(ratios)}); "
          f"single runs: mean {st.mean(singles):.3f}, CoV {st.stdev(singles) / st.mean(singles) * 100:.1f} %, "
          f"min {min(singles):.3f}, max {max(singles):.3f}")
PY
}

# Both modes side by side: each pair slot runs A and B without steady-state warm-up and A and B with it, in an order
# that alternates (A B | B A within a mode, and which mode goes first), so a load trend on a shared machine hits both
# modes and both runs alike. The 1-minute load average is recorded before every run.
steady_json=', "steadyState": {"windows": 5, "maxCov": 0.02, "window": "00:00:01", "maxWarmup": "00:00:10"}'
: > "$work/off.txt"; : > "$work/steady.txt"; : > "$work/load.txt"
echo "$pairs pairs of $variant × $client × Int × $clients clients × $duration, warm-up 50 requests per client, $launches launches per run; modes interleaved"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
pair_of() { # mode pair -> "thrA p50A cpuA thrB p50B cpuB"
  local steady="" a b
  [ "$1" = steady ] && steady=$steady_json
  if (( $2 % 2 )); then
    cut -d' ' -f1 /proc/loadavg >> "$work/load.txt"; a=$(run_once "$steady")
    cut -d' ' -f1 /proc/loadavg >> "$work/load.txt"; b=$(run_once "$steady")
  else
    cut -d' ' -f1 /proc/loadavg >> "$work/load.txt"; b=$(run_once "$steady")
    cut -d' ' -f1 /proc/loadavg >> "$work/load.txt"; a=$(run_once "$steady")
  fi
  echo "${a//,/ } ${b//,/ }" >> "$work/$1.txt"
  IFS=, read -r ta pa ca <<< "$a"; IFS=, read -r tb pb cb <<< "$b"
  echo "  pair $2, steady state $1: A $ta req/s p50 $pa ms server $ca µs/req, B $tb req/s p50 $pb ms server $cb µs/req (load $(cut -d' ' -f1 /proc/loadavg))"
}
for p in $(seq 1 "$pairs"); do
  if [ "$modes" != "off steady" ]; then pair_of "$modes" "$p"
  elif (( (p + 1) / 2 % 2 )); then pair_of off "$p"; pair_of steady "$p"; else pair_of steady "$p"; pair_of off "$p"; fi
done
for mode in $modes; do
  echo "steady state $mode:"
  summarize "$work/$mode.txt"
done
python3 - "$work/load.txt" <<'PY'
import statistics as st, sys
v = [float(l) for l in open(sys.argv[1]) if l.strip()]
print(f"1-minute load average before each run: mean {st.mean(v):.1f}, min {min(v):.1f}, max {max(v):.1f} (2 cores)")
PY
echo "host processes per run (of $launches launches): $(sort -n "$work/hosts.txt" | uniq -c | awk '{printf "%s%d runs had %d", sep, $1, $2; sep=", "}')"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
