# Shared by the bench scripts: start a Release service host on the 539x ports (JVM service included) and stop it on exit.
#   source bench/lib.sh; start_host "$work" [jvm]
start_host() {
  local work=$1 wait_jvm=${2:-} jvm=false
  [ -n "$wait_jvm" ] && jvm=true
  src/Service/Host/bin/Release/net10.0/Dashboard.Service.Host --urls http://127.0.0.1:5390 \
    --ServiceHost:Ports:AspNetHttpXml=5391 --ServiceHost:Ports:AspNetHttpJson=5392 --ServiceHost:Ports:AspNetH2BinXml=5393 \
    --ServiceHost:Ports:MetroSoap11=5394 --ServiceHost:Ports:MetroSoap11FastInfoset=5395 --ServiceHost:Ports:MetroSoap12Wsa=5396 \
    --ServiceHost:Ports:IceTcp=5397 --Jvm:Enabled=$jvm > "$work/host.log" 2>&1 &
  BENCH_HOST=$!
  trap 'kill -TERM $BENCH_HOST; wait $BENCH_HOST 2>/dev/null; rm -rf "'"$work"'"' EXIT
  local healthy='"aspnet":"up"'
  [ -n "$wait_jvm" ] && healthy='"jvm":"up"'
  for _ in $(seq 1 120); do curl -fs http://127.0.0.1:5390/healthz 2>/dev/null | grep -q "$healthy" && return 0; sleep 0.5; done
  echo "bench: the host did not come up (see $work/host.log)" >&2
  return 1
}

# The throughput (req/s) of the single level of a scenario, run by the Release runner: run_level WORK SCENARIO_JSON
run_level() {
  local work=$1
  echo "$2" > "$work/s.json"
  src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" --progress json > /dev/null
  rm -f "$work/r.db"*
  cp "$work/l.csv" "$work/l.csv.kept"
  tail -1 "$work/l.csv" | cut -d, -f7
}
