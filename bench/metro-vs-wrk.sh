#!/usr/bin/env bash
# The java driver vs wrk on MetroSoap11 + Int (the SOAP 1.1 envelope the JAX-WS proxy sends), 10 and 50 connections,
# side by side in one run against one host with its JVM service. Then the same cell (MetroSoap11 × String500 × 20
# clients, two repetitions: the first is the JVM's warm-up) driven by dotnet, java and node.
#   bench/metro-vs-wrk.sh [seconds]        needs: a Release build, wrk (Debian)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
source bench/lib.sh
work=$(mktemp -d)
start_host "$work" jvm
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '<?xml version="1.0" ?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><IntSimple xmlns="urn:dashboard:benchmark:2026"><value>2147483647</value></IntSimple></S:Body></S:Envelope>'
wrk.headers["Content-Type"] = "text/xml; charset=utf-8"
wrk.headers["SOAPAction"] = '""'
LUA
# Warm the JVM first (JIT), for wrk and the driver alike.
wrk -t1 -c10 -d5s -s "$work/post.lua" "http://127.0.0.1:$(host_port 5390 MetroSoap11)/benchmark" > /dev/null
for c in 10 50; do
  wrk_rps=$(wrk -t1 -c$c -d${seconds}s -s "$work/post.lua" "http://127.0.0.1:$(host_port 5390 MetroSoap11)/benchmark" | awk '/Requests\/sec/ {print $2}')
  ours=$(run_level "$work" '{"name":"java vs wrk","host":"http://127.0.0.1:5390","variants":["MetroSoap11"],"clients":["java"],"payloads":["Int"],"levels":['$c'],"duration":"00:00:0'$seconds'","warmup":200}')
  awk -v c=$c -v w="$wrk_rps" -v o="$ours" 'BEGIN { printf "MetroSoap11 Int connections=%d: wrk %.0f req/s, java driver %.0f req/s, ratio %.3f\n", c, w, o, o / w }'
done
cat > "$work/cell.json" <<JSON
{"name":"one cell, three clients","host":"http://127.0.0.1:5390","variants":["MetroSoap11"],"clients":["dotnet","java","node"],"payloads":["String500"],"levels":[20],"requestsPerClient":200,"warmup":20,"repetitions":2}
JSON
src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/cell.json" --db "$work/c.db" --levels-csv "$work/c.csv" --progress json > /dev/null
echo "MetroSoap11 × String500 × 20 clients (repetition 1 includes the JVM's and the driver's warm-up):"
awk -F, 'NR > 1 { printf "  %-6s repetition %s: %8.1f req/s, mean %7.3f ms, generator CPU %5.1f %%\n", $2, $14, $7, $8, $15 }' "$work/c.csv"
