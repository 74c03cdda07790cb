#!/usr/bin/env bash
# Issue #33 item 3: is the wcfbindings stack (WCF's message encoders served by .NET, our dispatcher) a bottleneck of our
# making? Server CPU µs per request (the runner's server_cpu_us_per_request: the host's CPU counters at both ends of
# each level's window, docs/statistics.md) of WcfNetTcp and WcfBasicHttp beside AspNetH2BinXml (the same kind of work:
# binary XML on Kestrel) and MetroSoap11 (Metro's SOAP 1.1 on the JVM), on payloads Int and UDTypeArray1000, one host,
# cells interleaved, REPETITIONS rounds (default 3) of one level of SECONDS (default 4) at 10 clients after the
# steady-state warm-up (5 windows of 1 s within 2 %, at most 10 s, as bench/aa.sh). Each cell is called by the client the thesis would use for it: `wcf` (NetTcpBinding,
# BasicHttpBinding) for the WCF and Metro variants, `dotnet` for AspNetH2BinXml (the wcf client cannot call it).
# Prints each round, the median per cell, each cell ÷ AspNetH2BinXml, and the 1-minute load average before and after.
#   bench/wcf-cpu.sh [SECONDS] [REPETITIONS] [--force]      needs: a Release build, the JVM stacks (for MetroSoap11)
# Refuses to run above a 1-minute load average of 1.5 (the figures would measure the other work); --force runs anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=4 repetitions=3 force= positional=()
for a in "$@"; do
  case "$a" in
    --force) force=1 ;;
    *[!0-9]* | '') echo "usage: bench/wcf-cpu.sh [SECONDS] [REPETITIONS] [--force]" >&2; exit 2 ;;
    *) positional+=("$a") ;;
  esac
done
[ ${#positional[@]} -ge 1 ] && seconds=${positional[0]}
[ ${#positional[@]} -ge 2 ] && repetitions=${positional[1]}
load() { cut -d' ' -f1 /proc/loadavg; }
if [ -z "$force" ] && awk -v l="$(load)" 'BEGIN { exit !(l > 1.5) }'; then
  echo "bench: load average $(load) is above 1.5: the machine is busy, figures would not mean much (--force to run anyway)" >&2
  exit 1
fi
load_before=$(load)
source bench/lib.sh
work=$(mktemp -d)
start_host "$work" jvm
cells=("WcfNetTcp wcf" "WcfBasicHttp wcf" "AspNetH2BinXml dotnet" "MetroSoap11 wcf")
payloads=(Int UDTypeArray1000)

# One level of VARIANT × CLIENT × PAYLOAD: prints "server_cpu_us_per_request throughput_rps errors [disturbed]".
run_cell() {
  cat > "$work/s.json" <<JSON
{"name":"wcf cpu","host":"http://127.0.0.1:${BENCH_PORT_BASE:-5390}","variants":["$1"],"clients":["$2"],"payloads":["$3"],"levels":[10],"duration":"00:00:0$seconds","warmup":200,"steadyState":{"windows":5,"maxCov":0.02,"window":"00:00:01","maxWarmup":"00:00:10"}}
JSON
  src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" \
    --progress json --security-dir "$BENCH_SECURITY_DIR" > "$work/run.log" 2>&1 || { echo "bench: $1 × $2 × $3 failed:" >&2; tail -5 "$work/run.log" >&2; exit 1; }
  rm -f "$work/r.db"*
  python3 - "$work/l.csv" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[-1]
print("%.1f %.0f %s%s" % (float(r["server_cpu_us_per_request"]), float(r["throughput_rps"]), r.get("errors", "?"),
                          " disturbed" if r.get("disturbed") == "true" else ""))
PY
}

declare -A figures
for r in $(seq 1 "$repetitions"); do
  for payload in "${payloads[@]}"; do
    for cell in "${cells[@]}"; do
      read -r variant client <<< "$cell"
      out=$(run_cell "$variant" "$client" "$payload")
      figures["$variant $payload"]+="${out%% *} "
      echo "round $r $variant × $client × $payload: server CPU ${out%% *} µs/req, ${out#* } (req/s, errors)"
    done
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for payload in "${payloads[@]}"; do
  base=$(echo "${figures[AspNetH2BinXml $payload]}" | median)
  for cell in "${cells[@]}"; do
    read -r variant _ <<< "$cell"
    m=$(echo "${figures[$variant $payload]}" | median)
    awk -v v="$variant" -v p="$payload" -v m="$m" -v b="$base" 'BEGIN { printf "median %-15s %-16s %8.1f µs/req   ÷ AspNetH2BinXml %.2f\n", v, p, m, m / b }'
  done
done
echo "1-minute load average: $load_before before, $(load) after ($seconds s per level, 10 clients, $repetitions rounds)"
