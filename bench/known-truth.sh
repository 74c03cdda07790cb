#!/usr/bin/env bash
# Known truth (issue #32, "Benchmarks"): AspNetHttpsJson ÷ AspNetHttpJson server CPU per request as the product measures
# it (the runner's server_cpu_us_per_request: the host's GET /cpu counters at both ends of each level's window) and as
# wrk + /proc/<pid>/stat of the same host measure it, in one session against one host, interleaved. The two ratios
# should agree within 5 %. Prints each repetition, the medians, both ratios and the 1-minute load average before and after.
#   bench/known-truth.sh [seconds per level = 4] [repetitions = 3]      KNOWN_TRUTH_CLIENT: the product's client (dotnet;
#   lean, the load generator of issue #35, loads the host most like wrk does: pre-encoded requests on kept-alive connections)
# Needs: a Release build (dotnet build -c Release src/Runner && dotnet build -c Release src/Service/Host), wrk (Debian
# package wrk), python3. Measure on a quiet machine: the script refuses to start above a 1-minute load average of 1.5
# unless KNOWN_TRUTH_ANY_LOAD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-4}
repetitions=${2:-3}
clients=10
client=${KNOWN_TRUTH_CLIENT:-dotnet}
load() { cut -d' ' -f1 /proc/loadavg; }
if [ "${KNOWN_TRUTH_ANY_LOAD:-0}" != 1 ] && awk -v l="$(load)" 'BEGIN { exit !(l >= 1.5) }'; then
  echo "known-truth: 1-minute load average $(load) is not below 1.5: measure on a quiet machine (or set KNOWN_TRUTH_ANY_LOAD=1)" >&2
  exit 3
fi
command -v wrk > /dev/null || { echo "known-truth: wrk is missing (apt-get install wrk)" >&2; exit 2; }
load_before=$(load)
work=$(mktemp -d)
start_host "$work"
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"value":2147483647}'
wrk.headers["Content-Type"] = "application/json"
LUA

# User + system CPU ticks (USER_HZ = 100) of the host process: /proc/<pid>/stat fields 14 + 15, after the command name.
host_ticks() { sed 's/.*) //' "/proc/$BENCH_HOST/stat" | awk '{ print $12 + $13 }'; }

# Server CPU µs per request under wrk: the host's ticks around one wrk run of $seconds s, $clients connections.
wrk_us() {
  local variant=$1 scheme=http before after requests
  [ "$variant" = AspNetHttpsJson ] && scheme=https
  before=$(host_ticks)
  requests=$(wrk -t1 -c$clients -d${seconds}s -s "$work/post.lua" "$scheme://127.0.0.1:$(host_port 5390 "$variant")/IntSimple" | awk '/requests in/ { print $1 }')
  after=$(host_ticks)
  awk -v t=$((after - before)) -v n="$requests" 'BEGIN { printf "%.2f", t * 10000 / n }'
}

# Server CPU µs per request from the product: one level of the Release runner, read from its levels CSV by column name.
product_us() {
  run_level "$work" '{"name":"known truth","host":"http://127.0.0.1:5390","variants":["'"$1"'"],"clients":["'"$client"'"],"payloads":["Int"],"levels":['$clients'],"duration":"00:00:'"$(printf %02d "$seconds")"'","warmup":2000}' > /dev/null
  python3 -c 'import csv, sys; rows = list(csv.DictReader(open(sys.argv[1]))); r = rows[-1]; print("%.2f" % float(r["server_cpu_us_per_request"]) + (" disturbed" if r["disturbed"] == "true" else ""))' "$work/l.csv.kept"
}

# A first pass of each warms the host up (JIT, TLS session caches; issue #32: the first repetitions were 19-26 µs).
for variant in AspNetHttpJson AspNetHttpsJson; do wrk_us "$variant" > /dev/null; product_us "$variant" > /dev/null; done
declare -A figures
for r in $(seq 1 "$repetitions"); do
  for variant in AspNetHttpJson AspNetHttpsJson; do
    w=$(wrk_us "$variant"); p=$(product_us "$variant")
    figures[$variant.wrk]+="${w} "; figures[$variant.product]+="${p%% *} "
    echo "repetition $r $variant: wrk + /proc ${w} µs/req, product ${p} µs/req"
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wh=$(echo "${figures[AspNetHttpJson.wrk]}" | median); ws=$(echo "${figures[AspNetHttpsJson.wrk]}" | median)
ph=$(echo "${figures[AspNetHttpJson.product]}" | median); ps=$(echo "${figures[AspNetHttpsJson.product]}" | median)
awk -v wh="$wh" -v ws="$ws" -v ph="$ph" -v ps="$ps" -v lb="$load_before" -v la="$(load)" -v s="$seconds" -v c=$clients -v client="$client" 'BEGIN {
  printf "client %s; medians (µs of server CPU per request, %d connections, %d s): wrk AspNetHttpJson %.2f, AspNetHttpsJson %.2f; product %.2f, %.2f\n", client, c, s, wh, ws, ph, ps
  printf "AspNetHttpsJson ÷ AspNetHttpJson: wrk + /proc %.3f, product %.3f, product ÷ wrk %.3f (goal 1.00 ± 0.05)\n", ws / wh, ps / ph, (ps / ph) / (ws / wh)
  printf "1-minute load average: %s before, %s after\n", lb, la }'
