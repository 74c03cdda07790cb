#!/usr/bin/env bash
# The java client's two HTTP transports for SOAP side by side (docs/driver-protocol.md, "The java client's HTTP
# transport"): `counting` (our per-client connection, bytes counted at the socket) and `jdk` (the JAX-WS RI's default,
# the JDK's HttpURLConnection with its keep-alive cache). Same cells, one host with its JVM service, transports
# interleaved (counting, jdk, counting, jdk), each cell one level of SECONDS (default 4) at 10 clients; the best of the
# two repetitions per transport is printed: req/s, client (generator) CPU µs per request, bytes per request
# (request + response; "unknown" on jdk, which cannot count them), beside the 1-minute load average.
#   bench/java-transport.sh [SECONDS] [--force]     needs: a Release build (dotnet build -c Release), the JVM stacks
# Refuses to run when the 1-minute load average is above 1.5 (the figures would measure the other work); --force runs anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=4 force=
for a in "$@"; do
  case "$a" in
    --force) force=1 ;;
    *[!0-9]* | '') echo "usage: bench/java-transport.sh [SECONDS] [--force]" >&2; exit 2 ;;
    *) seconds=$a ;;
  esac
done
load() { cut -d' ' -f1 /proc/loadavg; }
if [ -z "$force" ] && awk -v l="$(load)" 'BEGIN { exit !(l > 1.5) }'; then
  echo "bench: load average $(load) is above 1.5: the machine is busy, figures would not mean much (--force to run anyway)" >&2
  exit 1
fi
source bench/lib.sh
work=$(mktemp -d)
start_host "$work" jvm

# One level of a cell with the transport given: prints "req/s cpu_us_per_request bytes_per_request" from the levels CSV.
run_cell() {
  local transport=$1 payload=$2
  cat > "$work/s.json" <<JSON
{"name":"java transport $transport","host":"http://127.0.0.1:${BENCH_PORT_BASE:-5390}","variants":["MetroSoap11"],"clients":["java"],"payloads":["$payload"],"levels":[10],"duration":"00:00:0$seconds","warmup":200}
JSON
  DASHBOARD_JAVA_TRANSPORT=$transport src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" \
    --db "$work/r.db" --levels-csv "$work/l.csv" --progress json --security-dir "$BENCH_SECURITY_DIR" > /dev/null
  rm -f "$work/r.db"*
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           END { req = $col["mean_request_bytes"]; res = $col["mean_response_bytes"];
                 bytes = (req == "" || res == "" || req < 0 || res < 0) ? "unknown" : sprintf("%.0f", req + res);
                 printf "%s %s %s\n", $col["throughput_rps"], $col["generator_cpu_us_per_request"], bytes }' "$work/l.csv"
}

echo "java client transports, MetroSoap11, 10 clients, ${seconds} s levels, best of 2 (interleaved); load average $(load) at start"
for payload in Int Bytes256K; do
  declare -A best=()
  for rep in 1 2; do
    for transport in counting jdk; do
      read -r rps cpu bytes < <(run_cell "$transport" "$payload")
      echo "  $payload $transport repetition $rep: $rps req/s, $cpu µs CPU/request, bytes/request $bytes (load $(load))" >&2
      if [ -z "${best[$transport]:-}" ] || awk -v a="$rps" -v b="${best[$transport]%% *}" 'BEGIN { exit !(a > b) }'; then
        best[$transport]="$rps $cpu $bytes"
      fi
    done
  done
  for transport in counting jdk; do
    read -r rps cpu bytes <<< "${best[$transport]}"
    printf "MetroSoap11 + %-9s %-8s %10.0f req/s  %6.1f µs client CPU/request  bytes/request %s  (load %s)\n" \
      "$payload" "$transport" "$rps" "$cpu" "$bytes" "$(load)"
  done
  unset best
done
