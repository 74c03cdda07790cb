#!/usr/bin/env bash
# How steady is this machine's own speed? (issue #32: "throughput CoV under 10 %" needs a machine whose speed varies less
# than that.) Runs COPIES processes (default: one per core, as a benchmark level loads the machine) that each repeat a fixed
# piece of pure CPU work (a Python loop: no I/O, no memory traffic beyond the cache, no network) and count how many pieces
# each WINDOW seconds took, for SECONDS seconds, then print per copy the windows' mean rate, their CoV and min/max ÷ mean,
# and the 1-minute load average at both ends. Nothing here depends on the harness: a CoV of several % is the machine's
# (a virtual machine's vCPUs share physical cores with other tenants; steal time does not always show it).
#   bench/machine-speed.sh [SECONDS = 60] [WINDOW = 3] [COPIES = nproc]
set -euo pipefail
seconds=${1:-60}
window=${2:-3}
copies=${3:-$(nproc)}
echo "# $(date -u +%FT%TZ) $(nproc) cores, load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $copies copies × ${seconds} s, ${window} s windows"
probe() {
  python3 - "$seconds" "$window" <<'PY'
import statistics, sys, time
seconds, window = float(sys.argv[1]), float(sys.argv[2])
rates, end = [], time.monotonic() + seconds
while time.monotonic() < end:
    start, pieces = time.perf_counter(), 0
    while time.perf_counter() - start < window:
        for _ in range(10000):
            pass
        pieces += 1
    rates.append(pieces / (time.perf_counter() - start))
mean = statistics.mean(rates)
print(f"windows {len(rates)}  mean {mean:.0f} pieces/s  CoV {100 * statistics.stdev(rates) / mean:.1f} %  "
      f"min/max ÷ mean {min(rates) / mean:.3f}/{max(rates) / mean:.3f}  in order: {' '.join(f'{r:.0f}' for r in rates)}")
PY
}
for _ in $(seq "$copies"); do probe & done
wait
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
