#!/usr/bin/env bash
# Page weight and time to charts, before and after the dashboard's pages moved to MudBlazor and Plotly.Blazor, side by
# side in one run (bench/README.md, "Page weight and time to charts"). Seeds one completed run with 2,000,000 samples
# (bench/RunPageBench, as the runner stores levels), starts the Release dashboard of BEFORE_DIR (a worktree of the commit
# before the merges of ui-pages/ui-results, built with `dotnet build src/Web -c Release`) and of this worktree, each on
# its own copy of that database and without a local service host, and runs bench/page-load.js on Home and the run page.
#   BEFORE_DIR=/path/to/before-worktree bench/page-load.sh [--loads N] [--samples N]
# Ports: PAGE_LOAD_PORT (default 24080) for before, +1 for after. TMPDIR holds the data folders (deleted on exit).
set -euo pipefail
cd "$(dirname "$0")/.."
before_dir=${BEFORE_DIR:?set BEFORE_DIR to a worktree of the before commit, built in Release}
loads=5 samples=2000000
while [ $# -gt 0 ]; do
  case $1 in
    --loads) loads=$2; shift 2 ;;
    --samples) samples=$2; shift 2 ;;
    *) echo "page-load.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
port=${PAGE_LOAD_PORT:-24080}
work=$(mktemp -d "${TMPDIR:-/tmp}/page-load.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

bench=bench/RunPageBench/bin/Release/net10.0/Dashboard.Bench.RunPage
[ -x "$bench" ] || { echo "page-load.sh: build bench/RunPageBench first (dotnet build -c Release bench/RunPageBench)" >&2; exit 2; }
mkdir -p "$work/before" "$work/after"
echo "seeding $samples samples ..."
"$bench" --samples "$samples" --levels 64 --iterations 2 --db "$work/seed.db" | grep -E '^seeded|sent to'
cp "$work/seed.db" "$work/before/results.db"
cp "$work/seed.db" "$work/after/results.db"

start() { # start NAME DIR PORT
  local web=$2/src/Web/bin/Release/net10.0/Dashboard.Web
  [ -x "$web" ] || { echo "page-load.sh: $web is not built (dotnet build src/Web -c Release in $2)" >&2; exit 2; }
  (cd "$2" && exec "$web" --urls "http://127.0.0.1:$3" --Dashboard:DataFolder="$work/$1" --Dashboard:StartLocalHost=false \
    --Logging:LogLevel:Default=Warning > "$work/$1.log" 2>&1) &
  pids+=($!)
  for _ in $(seq 1 240); do curl -fs -o /dev/null "http://127.0.0.1:$3/" && return 0; sleep 0.5; done
  echo "page-load.sh: $1 did not answer on port $3 (see $work/$1.log)" >&2; cat "$work/$1.log" >&2; exit 1
}
start before "$before_dir" "$port"
start after "$PWD" $((port + 1))
# A Viewer token per dashboard (each has its own accounts database); a dashboard from before accounts needs none.
token() { (cd "$2" && src/Web/bin/Release/net10.0/Dashboard.Web token create --role Viewer --name page-load --Dashboard:DataFolder="$work/$1" 2>/dev/null | tail -1) || true; }
before_token=$(token before "$before_dir") after_token=$(token after "$PWD")
run_id=$(curl -fs -H "Authorization: Bearer $after_token" "http://127.0.0.1:$((port + 1))/api/runs" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);const runs=Array.isArray(j)?j:(j.runs??j.items);console.log(runs[0].id)})')
echo "run $run_id; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
node bench/page-load.js --site "before=http://127.0.0.1:$port" --site "after=http://127.0.0.1:$((port + 1))" \
  ${before_token:+--token "before=$before_token"} ${after_token:+--token "after=$after_token"} \
  --page home=/ --page "run=/runs/$run_id" --charts run --loads "$loads"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
