#!/usr/bin/env bash
# Preset 1 quick, before and after issue #32 (docs/statistics.md, "The protocol"): runs examples/FILE (default the aspnet
# part, preset-1-ipc-vs-network-aspnet-quick.json) headless with the Release runner against a Release host of its own,
# and prints
#   - the plan's estimate (the runner's "estimated run time" line, DurationEstimator) against the measured wall time,
#   - the share of the run time that is measured (sum of the levels' windows, window_s, ÷ wall time),
#   - per level (variant × clients): throughput mean, its CoV over the repetitions and the 95 % interval's width,
#     how each warm-up ended (steady state or cap) and the mean warm-up length,
#   - the 1-minute load average at the start and the end.
# "Before" is the same script on a checkout before issue #32 (its levels CSV has no window_s: the share is then not
# printed). Run it from the repository's root, on an otherwise idle machine (1-minute load average below 1.5):
#   bench/preset1-quick.sh [examples/FILE]      P1_PORT_BASE (6280; control API there, variants above it), P1_CONFIG (Release),
#   P1_KEEP=FILE keeps the runner's levels CSV there
set -euo pipefail
source bench/lib.sh
file=${1:-examples/preset-1-ipc-vs-network-aspnet-quick.json}
config=${P1_CONFIG:-Release}
base=${P1_PORT_BASE:-6280}
work=$(mktemp -d "${TMPDIR:-/tmp}/p1q-XXXXXX")
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
# The JVM service only when the file names a variant it serves (Metro, Ice).
jvm=$(python3 -c 'import json, sys; print("jvm" if any(v.startswith(("Metro", "Ice")) for v in json.load(open(sys.argv[1]))["variants"]) else "")' "$file")
BENCH_PORT_BASE=$base start_host "$work" $jvm
# The preset aimed at this host (the file names the default local host).
python3 - "$file" "http://127.0.0.1:$base" > "$work/s.json" <<'PY'
import json, sys
scenario = json.load(open(sys.argv[1]))
scenario["host"] = sys.argv[2]
print(json.dumps(scenario))
PY
start=$(date +%s.%N)
"src/Runner/bin/$config/net10.0/Dashboard.Runner" run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/levels.csv" \
  --security-dir "$BENCH_SECURITY_DIR" > "$work/out.txt"
end=$(date +%s.%N)
[ -n "${P1_KEEP:-}" ] && cp "$work/levels.csv" "$P1_KEEP"
grep -m1 "estimated run time" "$work/out.txt" || echo "(this runner prints no estimate: before issue #32)"
python3 - "$work/levels.csv" "$start" "$end" "$work/out.txt" <<'PY'
import csv, math, re, statistics as st, sys
rows = list(csv.DictReader(open(sys.argv[1])))
wall = float(sys.argv[3]) - float(sys.argv[2])
out = open(sys.argv[4]).read()
m = re.search(r"estimated run time: (\d+) s \((\d+)–(\d+) s\)", out)
if m:
    est, low, high = map(float, m.groups())
    print(f"run time: {wall:.0f} s measured; estimated {est:.0f} s ({low:.0f}–{high:.0f}): actual ÷ estimate = {wall / est:.2f}")
else:
    print(f"run time: {wall:.0f} s measured")
if rows and "window_s" in rows[0]:
    measured = sum(float(r["window_s"]) for r in rows if r["window_s"])
    print(f"measured share: {measured:.1f} s of windows in {wall:.0f} s = {100 * measured / wall:.1f} %")
T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201,
     12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086}
levels = {}
for r in rows:
    if r.get("complete", "true") == "true":
        levels.setdefault((r["variant"], r["client"], r["payload"], int(r["level"])), []).append(r)
print(f"{'variant':24} {'client':7} {'payload':10} {'clients':>7} {'reps':>4} {'req/s':>10} {'CoV %':>6} {'CI width %':>10} {'warm-up end':>12} {'warm-up s':>9}  per repetition (req/s, in run order)")
for (variant, client, payload, clients), reps in sorted(levels.items()):
    thr = [float(r["throughput_rps"]) for r in reps]
    mean = st.mean(thr)
    cov = st.stdev(thr) / mean * 100 if len(thr) > 1 and mean > 0 else float("nan")
    width = float("nan")
    if len(thr) >= 3 and mean > 0:
        h = T.get(len(thr) - 1, 2.0) * (st.stdev(thr) / math.sqrt(len(thr))) / mean
        width = (math.exp(h) - math.exp(-h)) * 100
    ends = [r.get("steady_state_reached", "") for r in reps]
    end = "steady" if all(e == "true" for e in ends) else "cap" if all(e == "false" for e in ends) else \
        f"{ends.count('true')} st, {ends.count('false')} cap" if any(ends) else "off"
    warm = [float(r["steady_state_warmup_s"]) for r in reps if r.get("steady_state_warmup_s")]
    print(f"{variant:24} {client:7} {payload:10} {clients:7d} {len(reps):4d} {mean:10.1f} {cov:6.1f} {width:10.1f} {end:>12} {st.mean(warm) if warm else float('nan'):9.2f}  {' '.join(f'{t:.0f}' for t in thr)}")
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
