#!/usr/bin/env bash
# The dotnet driver vs wrk on AspNetHttpJson + Int (IntSimple, the same JSON body), same connection counts,
# side by side in one run against one host. Both generators share the 2 cores with the host.
#   bench/driver-vs-wrk.sh [seconds]        needs: a Release build, wrk (Debian)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
host_exe=src/Service/Host/bin/Release/net10.0/Dashboard.Service.Host
runner=src/Runner/bin/Release/net10.0/Dashboard.Runner
work=$(mktemp -d)
$host_exe --urls http://127.0.0.1:5390 --ServiceHost:Ports:AspNetHttpJson=5392 --ServiceHost:Ports:AspNetHttpXml=5391 --ServiceHost:Ports:AspNetH2BinXml=5393 --Jvm:Enabled=false > "$work/host.log" 2>&1 &
host=$!
trap 'kill -TERM $host; rm -rf "$work"' EXIT
for _ in $(seq 1 60); do curl -fs -o /dev/null http://127.0.0.1:5390/healthz && break; sleep 0.5; done
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"value":2147483647}'
wrk.headers["Content-Type"] = "application/json"
LUA
for c in 1 10 50; do
  wrk_rps=$(wrk -t1 -c$c -d${seconds}s -s "$work/post.lua" http://127.0.0.1:5392/IntSimple | awk '/Requests\/sec/ {print $2}')
  cat > "$work/s.json" <<JSON
{"name":"driver vs wrk","host":"http://127.0.0.1:5390","variants":["AspNetHttpJson"],"clients":["dotnet"],"payloads":["Int"],"levels":[$c],"duration":"00:00:0$seconds","warmup":100}
JSON
  $runner run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" --progress json > /dev/null
  ours=$(tail -1 "$work/l.csv" | cut -d, -f7)
  rm -f "$work/r.db"*
  awk -v c=$c -v w="$wrk_rps" -v o="$ours" 'BEGIN { printf "connections=%d wrk %.0f req/s, dotnet driver %.0f req/s, ratio %.3f\n", c, w, o, o / w }'
done
