#!/usr/bin/env bash
# Stress (issue 14, part 4): 300 clients × UDTypeArray1000 and Bytes256K on every unsecure variant the host serves, with
# each client technology that can call it. A scenario refuses client × variant pairs that cannot work, so there is one
# scenario per client technology: examples/stress-dotnet.json, stress-java.json, stress-node.json.
# The secure variants (issue 12) join them when they are built: AspNetUdsBinXmlPeer, AspNetH2TlsBinXmlCert,
# AspNetHttpsJson, AspNetHttpsJsonBasic (dotnet, node for the JSON ones); MetroSoap11Basic, MetroSoap11Https,
# MetroSoap11HttpsBasic (dotnet, java, node); MetroSoap12WsaUserNameHttps (java, node); MetroSoap12WsaX509, IceSsl (java).
#
#   bench/stress.sh [scenario.json ...]     default: the three stress-*.json
# Starts a Release service host (JVM included) on its own ports (STRESS_PORT_BASE, default 5490: control API on the base,
# variants on base+1..base+7, Unix socket in the work folder), runs each scenario with the Release runner into one
# database, and prints per variant × client × payload: requests, errors, sample rows stored, lost samples (requests +
# warm-up that the plan sent minus rows stored) and the generator CPU. Work folder: STRESS_WORK (default a new temp folder).
# Each client sends 1 warm-up and 1 measured request (600 calls per cell): on a busy 2-core machine the slowest cells
# (npm soap, Metro with 1000-element arrays) manage 1.5-3 calls/s, so a closed loop of 300 clients sees response times of
# up to minutes; the per-request timeout is STRESS_REQUEST_TIMEOUT seconds (default 600) instead of the runner's 30.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${STRESS_PORT_BASE:-5490}
work=${STRESS_WORK:-$(mktemp -d -t stress-XXXXXX)}
mkdir -p "$work/tmp" "$work/sockets"
scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(examples/stress-dotnet.json examples/stress-java.json examples/stress-node.json)
[ -x src/Runner/bin/Release/net10.0/Dashboard.Runner ] || dotnet build Dashboard.sln -c Release -v q -nologo
# 300 clients, each with its own connection, on both ends of loopback: well under the usual 1024, but say so if lower.
[ "$(ulimit -n)" -ge 4096 ] || ulimit -n 4096 || echo "stress: ulimit -n is $(ulimit -n); 300 clients need about 700 descriptors per process" >&2

src/Service/Host/bin/Release/net10.0/Dashboard.Service.Host --urls "http://127.0.0.1:$base" \
  --ServiceHost:SocketDirectory="$work/sockets" \
  --ServiceHost:Ports:AspNetHttpXml=$((base + 1)) --ServiceHost:Ports:AspNetHttpJson=$((base + 2)) --ServiceHost:Ports:AspNetH2BinXml=$((base + 3)) \
  --ServiceHost:Ports:MetroSoap11=$((base + 4)) --ServiceHost:Ports:MetroSoap11FastInfoset=$((base + 5)) --ServiceHost:Ports:MetroSoap12Wsa=$((base + 6)) \
  --ServiceHost:Ports:IceTcp=$((base + 7)) > "$work/host.log" 2>&1 &
host_pid=$!
trap 'kill -TERM $host_pid 2>/dev/null; wait $host_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 180); do curl -fs "http://127.0.0.1:$base/healthz" 2>/dev/null | grep -q '"jvm":"up"' && break; sleep 0.5; done
curl -fs "http://127.0.0.1:$base/healthz" | grep -q '"jvm":"up"' || { echo "stress: the host did not come up (see $work/host.log)" >&2; exit 1; }

status=0
for scenario in "${scenarios[@]}"; do
  name=$(basename "$scenario" .json)
  sed "s#\"host\"[[:space:]]*:[[:space:]]*\"[^\"]*\"#\"host\": \"http://127.0.0.1:$base\"#" "$scenario" > "$work/$name.json"
  echo "stress: $name ($(date -u +%H:%M:%S))"
  start=$(date +%s)
  TMPDIR="$work/tmp" src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/$name.json" --db "$work/stress.db" \
    --levels-csv "$work/$name.levels.csv" --request-timeout "${STRESS_REQUEST_TIMEOUT:-600}" || status=$?
  echo "stress: $name took $(( $(date +%s) - start )) s"
done

echo
echo "stress: per cell (lost = requests + clients × warm-up − sample rows stored; generator CPU % of all cores, runner + driver)"
python3 - "$work/stress.db" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(f"{'run':>3} {'variant':<24}{'client':<8}{'payload':<16}{'clients':>7}{'requests':>9}{'errors':>7}{'rows':>8}{'lost':>6}{'rps':>9}{'p99 ms':>9}{'gen CPU %':>10}")
for run_id, scenario in db.execute('SELECT Id, ScenarioJson FROM Runs ORDER BY Id'):
    warmup = json.loads(scenario).get('warmup', 5)
    for (variant, client, payload, clients, requests, errors, rps, p99, cpu, level_id) in db.execute(
            'SELECT Variant, Client, Payload, Clients, Requests, Errors, ThroughputRps, P99Ms, GeneratorCpuPercent, Id FROM Levels WHERE RunId = ? ORDER BY Id', (run_id,)):
        rows = db.execute('SELECT count(*) FROM Samples WHERE LevelId = ?', (level_id,)).fetchone()[0]
        lost = requests + clients * warmup - rows
        print(f"{run_id:>3} {variant:<24}{client:<8}{payload:<16}{clients:>7}{requests:>9}{errors:>7}{rows:>8}{lost:>6}{rps:>9.1f}{p99:>9.1f}{(cpu if cpu is not None else float('nan')):>10.1f}")
for run_id, status, error in db.execute('SELECT Id, Status, Error FROM Runs ORDER BY Id'):
    print(f"run {run_id}: {status}" + (f": {error}" if error else ""))
PY
echo "stress: database and per-level CSVs in $work (exit $status)"
exit $status
