#!/usr/bin/env bash
# The dotnet driver vs wrk on AspNetHttpJson + Int (IntSimple, the same JSON body), same connection counts,
# side by side in one run against one host. Both generators share the 2 cores with the host.
#   bench/driver-vs-wrk.sh [seconds]        needs: a Release build, wrk (Debian)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-5}
work=$(mktemp -d)
start_host "$work"
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"value":2147483647}'
wrk.headers["Content-Type"] = "application/json"
LUA
for c in 1 10 50; do
  wrk_out=$( { /usr/bin/time -f "cpu %P" wrk -t1 -c$c -d${seconds}s -s "$work/post.lua" "http://127.0.0.1:$(host_port 5390 AspNetHttpJson)/IntSimple"; } 2>&1 )
  wrk_rps=$(echo "$wrk_out" | awk '/Requests\/sec/ {print $2}')
  # %P is of one core; the runner's generator CPU is of all cores.
  wrk_cpu=$(echo "$wrk_out" | awk '/^cpu/ {gsub("%","",$2); print $2 / '"$(nproc)"'}')
  ours=$(run_level "$work" '{"name":"driver vs wrk","host":"http://127.0.0.1:5390","variants":["AspNetHttpJson"],"clients":["dotnet"],"payloads":["Int"],"levels":['$c'],"duration":"00:00:0'$seconds'","warmup":3000}')
  ours_cpu=$(tail -1 "$work/l.csv.kept" | cut -d, -f15)
  awk -v c=$c -v w="$wrk_rps" -v o="$ours" -v wc="$wrk_cpu" -v oc="$ours_cpu" 'BEGIN { printf "connections=%d wrk %.0f req/s (%.0f %% of all cores), dotnet driver %.0f req/s (%.0f %%), ratio %.3f\n", c, w, wc, o, oc, o / w }'
done
