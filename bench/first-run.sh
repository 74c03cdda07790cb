#!/usr/bin/env bash
# The first-run effect (issue #24): a cold host (JVM included) and a fresh Release runner run preset 6 quick
# (examples/preset-6-book-get256bytes-quick.json, 3 repetitions) twice, each time on a freshly started host: once with
# steadyState off ("before") and once as the preset ships it ("after": steady-state warm-up). Prints per cell the three
# repetitions' throughput and their spread (CoV, max ÷ min). Run from the repository's root on an otherwise idle machine:
#   bench/first-run.sh          FR_CONTROL_PORT (6490), FR_PORT_BASE (6400), FR_CONFIG (Release)
set -euo pipefail
source bench/lib.sh
control=${FR_CONTROL_PORT:-6490}
base=${FR_PORT_BASE:-6400}
config=${FR_CONFIG:-Release}
preset=examples/preset-6-book-get256bytes-quick.json
mapfile -t ports < <(host_port_args "$base")

for mode in before after; do
  work=$(mktemp -d "${TMPDIR:-/tmp}/first-run-XXXXXX")
  mkdir -p "$work/sockets" "$work/data"
  "src/Service/Host/bin/$config/net10.0/Dashboard.Service.Host" --urls "http://127.0.0.1:$control" "${ports[@]}" \
    --ServiceHost:SocketDirectory="$work/sockets" --ServiceHost:DataDirectory="$work/data" --Jvm:Enabled=true > "$work/host.log" 2>&1 &
  host=$!
  trap 'kill -TERM $host 2>/dev/null; wait $host 2>/dev/null; rm -rf "$work"' EXIT
  for _ in $(seq 1 360); do curl -fs "http://127.0.0.1:$control/healthz" 2>/dev/null | grep -q '"jvm":"up"' && break; sleep 0.5; done
  node -e '
    const [file, host, mode] = process.argv.slice(1);
    const s = JSON.parse(require("fs").readFileSync(file, "utf8"));
    s.host = host;
    if (mode === "before") delete s.steadyState;
    console.log(JSON.stringify(s));' "$preset" "http://127.0.0.1:$control" "$mode" > "$work/s.json"
  start=$(date +%s)
  load_start=$(cut -d' ' -f1 /proc/loadavg)
  "src/Runner/bin/$config/net10.0/Dashboard.Runner" run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" \
    --security-dir "$work/data/security" --progress json > /dev/null
  echo "$mode ($( [ "$mode" = before ] && echo "steadyState off" || echo "steadyState as the preset ships it"); $(( $(date +%s) - start )) s; 1-minute load average $load_start at the start, $(cut -d' ' -f1 /proc/loadavg) at the end):"
  python3 - "$work/l.csv" <<'PY'
import csv, statistics as st, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cells = {}
for r in rows:
    cells.setdefault(r["variant"], []).append((int(r["repetition"]), float(r["throughput_rps"]), r.get("steady_state_reached", "")))
for variant, reps in cells.items():
    reps.sort()
    t = [x[1] for x in reps]
    cov = st.stdev(t) / st.mean(t) * 100 if len(t) > 1 and st.mean(t) > 0 else float("nan")
    print(f"  {variant:18} " + " / ".join(f"{x:,.0f}" for x in t) + f" req/s: CoV {cov:.1f} %, max/min {max(t) / min(t):.2f}; steady state reached: {[x[2] for x in reps]}")
PY
  kill -TERM $host; wait $host 2>/dev/null || true
  rm -rf "$work"
  trap - EXIT
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
