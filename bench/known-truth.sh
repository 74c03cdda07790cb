#!/usr/bin/env bash
# Known truth (issue #32, "Benchmarks"): AspNetHttpsJson ÷ AspNetHttpJson server CPU per request as the product measures
# it (the runner's server_cpu_us_per_request: the host's GET /cpu counters at both ends of each level's window) and as
# wrk + /proc/<pid>/stat of the same host measure it, in one session against one host, interleaved. The two ratios
# should agree within 5 %. Prints each repetition, the medians, both ratios and the 1-minute load average before and after.
#   bench/known-truth.sh [seconds per level = 4] [repetitions = 3]      KNOWN_TRUTH_CLIENT: the product's client (dotnet;
#   lean, the load generator of issue #35, loads the host most like wrk does: pre-encoded requests on kept-alive connections)
#   KNOWN_TRUTH_RATE=R: both methods at one request rate, R req/s (the server's batching then the same under both): the
#   product runs an open level at R (`"workload": "open"`, in the runner's process), and instead of wrk (which cannot hold
#   a rate) h2load (Debian nghttp2-client, HTTP/1.1) sends R req/s over as many connections as the product's level used
#   (its `connections` column), each at R ÷ connections req/s; both figures are printed with the throughput reached.
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
rate=${KNOWN_TRUTH_RATE:-}
if [ -n "$rate" ]; then
  command -v h2load > /dev/null || { echo "known-truth: h2load is missing (apt-get install nghttp2-client)" >&2; exit 2; }
else
  command -v wrk > /dev/null || { echo "known-truth: wrk is missing (apt-get install wrk)" >&2; exit 2; }
fi
load_before=$(load)
work=$(mktemp -d)
start_host "$work"
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"value":2147483647}'
wrk.headers["Content-Type"] = "application/json"
LUA
printf '%s' '{"value":2147483647}' > "$work/body.json"

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

# Server CPU µs per request under h2load at $rate req/s over $connections connections (the product's level's count, set
# by product_us before, in $work/connections): the host's ticks around one h2load run of $seconds s. Prints "µs req/s".
h2load_us() {
  local variant=$1 scheme=http before after out connections
  connections=$(cat "$work/connections" 2>/dev/null || echo 1)
  [ "$variant" = AspNetHttpsJson ] && scheme=https
  before=$(host_ticks)
  out=$(h2load --h1 -t1 -c"$connections" --rps=$(( (rate + connections - 1) / connections )) -D "$seconds" \
    -H 'Content-Type: application/json' -d "$work/body.json" "$scheme://127.0.0.1:$(host_port 5390 "$variant")/IntSimple")
  after=$(host_ticks)
  awk -v t=$((after - before)) -v s="$seconds" '/^requests:/ { n = $8 } END { printf "%.2f %.0f", t * 10000 / n, n / s }' <<< "$out"
}

# Server CPU µs per request from the product: one level of the Release runner, read from its levels CSV by column name.
# With a rate: an open level at $rate req/s (up to 64 connections); prints "µs req/s" and keeps its connections' count.
product_us() {
  local workload='"levels":['$clients']'
  [ -n "$rate" ] && workload='"workload":"open","rates":['$rate'],"maxConnections":64'
  run_level "$work" '{"name":"known truth","host":"http://127.0.0.1:5390","variants":["'"$1"'"],"clients":["'"$client"'"],"payloads":["Int"],'"$workload"',"duration":"00:00:'"$(printf %02d "$seconds")"'","warmup":2000}' > /dev/null
  if [ -n "$rate" ]; then
    python3 -c 'import csv, sys; print(int(float(list(csv.DictReader(open(sys.argv[1])))[-1]["connections"] or 1)))' "$work/l.csv.kept" > "$work/connections"
  fi
  python3 -c 'import csv, sys; rows = list(csv.DictReader(open(sys.argv[1]))); r = rows[-1]; print("%.2f" % float(r["server_cpu_us_per_request"]) + (" %.0f" % float(r["throughput_rps"]) if sys.argv[2] else "") + (" disturbed" if r["disturbed"] == "true" else ""))' "$work/l.csv.kept" "$rate"
}
tool=wrk
[ -n "$rate" ] && tool=h2load && wrk_us() { h2load_us "$@"; }

# A first pass of each warms the host up (JIT, TLS session caches; issue #32: the first repetitions were 19-26 µs).
# With a rate the product goes first: h2load then uses as many connections as the product's level opened.
for variant in AspNetHttpJson AspNetHttpsJson; do product_us "$variant" > /dev/null; wrk_us "$variant" > /dev/null; done
declare -A figures
for r in $(seq 1 "$repetitions"); do
  for variant in AspNetHttpJson AspNetHttpsJson; do
    p=$(product_us "$variant"); w=$(wrk_us "$variant")
    figures[$variant.wrk]+="${w%% *} "; figures[$variant.product]+="${p%% *} "
    read -r w_us w_rps _ <<< "$w"; read -r p_us p_rps p_flag <<< "$p"
    if [ -n "$rate" ]; then
      echo "repetition $r $variant: $tool + /proc $w_us µs/req at $w_rps req/s over $(cat "$work/connections") connections, product $p_us µs/req at $p_rps req/s ${p_flag}"
    else
      echo "repetition $r $variant: $tool + /proc $w_us µs/req, product $p_us µs/req ${p_rps}"
    fi
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wh=$(echo "${figures[AspNetHttpJson.wrk]}" | median); ws=$(echo "${figures[AspNetHttpsJson.wrk]}" | median)
ph=$(echo "${figures[AspNetHttpJson.product]}" | median); ps=$(echo "${figures[AspNetHttpsJson.product]}" | median)
load_shape="$clients connections"; [ -n "$rate" ] && load_shape="$rate req/s"
awk -v wh="$wh" -v ws="$ws" -v ph="$ph" -v ps="$ps" -v lb="$load_before" -v la="$(load)" -v s="$seconds" -v shape="$load_shape" -v client="$client" -v tool=$tool 'BEGIN {
  printf "client %s; medians (µs of server CPU per request, %s, %d s): %s AspNetHttpJson %.2f, AspNetHttpsJson %.2f; product %.2f, %.2f\n", client, shape, s, tool, wh, ws, ph, ps
  printf "AspNetHttpsJson ÷ AspNetHttpJson: %s + /proc %.3f, product %.3f, product ÷ %s %.3f (goal 1.00 ± 0.05)\n", tool, ws / wh, ps / ph, tool, (ps / ph) / (ws / wh)
  printf "1-minute load average: %s before, %s after\n", lb, la }'
