#!/usr/bin/env bash
# Issue #33 item 3: where the service host's CPU goes on one cell, as a sampled CPU profile (`dotnet-trace collect-linux
# --profile cpu-sampling`: the kernel's CPU samples of the host with their managed and native stacks) and the runtime's
# own counters (dotnet-counters: time in GC, allocation rate, JIT, thread pool) over the same window.
# Starts a Release host (no JVM), runs one level of VARIANT × CLIENT × PAYLOAD at 10 clients for 40 s with the Release
# runner, waits WAIT seconds into it (JIT and connection set-up done), records the host for SECONDS, then prints
# dotnet-trace's top frames by exclusive time (the method on top of the stack) and by inclusive time (on the stack at
# all). The .nettrace file is kept in OUT.
#   bench/wcf-profile.sh [VARIANT=WcfBasicHttp] [CLIENT=wcf] [PAYLOAD=UDTypeArray1000]
#   PROFILE_WAIT (15 s), PROFILE_SECONDS (10 s), PROFILE_TOP (25), PROFILE_OUT (bench/out/profile-<variant>-<payload>.nettrace),
#   BENCH_PORT_BASE (5390: the host's control port, its variants above it), DOTNET_TRACE / DOTNET_COUNTERS (the tools:
#   on PATH, else installed once into ${TMPDIR:-/tmp}/dotnet-tools with `dotnet tool install`). Needs root:
#   `collect-linux` samples with the kernel's perf events (managed and native frames, the kernel's too).
# Shares are what the profile is for; they hold on a busy machine too, but the load average is printed beside them.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-WcfBasicHttp} client=${2:-wcf} payload=${3:-UDTypeArray1000}
wait_s=${PROFILE_WAIT:-15} seconds=${PROFILE_SECONDS:-10} top=${PROFILE_TOP:-25}
out=${PROFILE_OUT:-bench/out/profile-$variant-$payload.nettrace}
# A .NET diagnostics tool: on PATH, else installed once into ${TMPDIR:-/tmp}/dotnet-tools (dotnet tool install).
tool() {
  local tools=${TMPDIR:-/tmp}/dotnet-tools
  if command -v "$1" > /dev/null; then command -v "$1"; return; fi
  [ -x "$tools/$1" ] || dotnet tool install --tool-path "$tools" "$1" > /dev/null
  echo "$tools/$1"
}
trace=${DOTNET_TRACE:-$(tool dotnet-trace)}
counters=${DOTNET_COUNTERS:-$(tool dotnet-counters)}
mkdir -p "$(dirname "$out")"
source bench/lib.sh
work=$(mktemp -d)
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
start_host "$work"
cat > "$work/s.json" <<JSON
{"name":"profile","host":"http://127.0.0.1:${BENCH_PORT_BASE:-5390}","variants":["$variant"],"clients":["$client"],"payloads":["$payload"],"levels":[10],"duration":"00:00:40","warmup":50}
JSON
DOTNET_TC_CallCountingDelayMs=0 src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" --db "$work/r.db" \
  --levels-csv "$work/l.csv" --progress json --security-dir "$BENCH_SECURITY_DIR" > "$work/run.log" 2>&1 &
runner=$!
sleep "$wait_s"
"$counters" collect -p "$BENCH_HOST" --counters System.Runtime --format csv -o "$work/counters.csv" \
  --duration "00:00:$(printf %02d "$seconds")" > "$work/counters.log" 2>&1 &
counting=$!
"$trace" collect-linux -p "$BENCH_HOST" --profile cpu-sampling --duration "00:00:$(printf %02d "$seconds")" -o "$out" > "$work/trace.log" 2>&1 \
  || { echo "bench: dotnet-trace failed:" >&2; tail -5 "$work/trace.log" >&2; kill "$runner"; exit 1; }
wait "$counting" || echo "bench: dotnet-counters failed (no GC figures): $(tail -1 "$work/counters.log")" >&2
wait "$runner" || { echo "bench: the run failed:" >&2; tail -5 "$work/run.log" >&2; exit 1; }
python3 - "$work/l.csv" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[-1]
print(f"level: {float(r['throughput_rps']):.0f} req/s, server CPU {float(r['server_cpu_us_per_request']):.1f} µs/req, errors {r['errors']}")
PY
echo "== the host's runtime counters over the same $seconds s (dotnet-counters, System.Runtime; mean of the readings)"
python3 - "$work/counters.csv" <<'PY'
import csv, collections, statistics as st, sys
try:
    rows = list(csv.reader(open(sys.argv[1])))
except OSError:
    sys.exit(0)
values = collections.defaultdict(list)
for r in rows[1:]:
    if len(r) >= 5:
        try:
            values[(r[2], r[3])].append(float(r[4]))
        except ValueError:
            pass
for (name, kind), v in sorted(values.items()):
    if any(k in name.lower() for k in ("gc", "alloc", "jit", "thread", "lock", "cpu", "working")):
        print(f"  {name} [{kind}]: mean {st.mean(v):.4g} over {len(v)} readings")
PY
echo "== top $top by exclusive time (host, $seconds s, $variant × $client × $payload, 10 clients)"
"$trace" report "$out" topN -n "$top"
echo "== top $top by inclusive time"
"$trace" report "$out" topN -n "$top" --inclusive
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); trace kept in $out"
