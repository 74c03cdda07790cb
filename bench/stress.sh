#!/usr/bin/env bash
# Stress (issue 14, part 4): 300 clients × UDTypeArray1000 and Bytes256K on every variant the host serves, secure ones
# included, with each client technology that can call it. A scenario has one client set and no client calls every
# variant (the validator refuses pairs that cannot work), so there is one scenario per client technology:
# examples/stress-dotnet.json (13 variants), stress-java.json (10), stress-node.json (9); 64 cells in all.
#
#   bench/stress.sh [scenario.json ...]     default: the three stress-*.json
# Starts a Release service host (JVM included) on its own ports (STRESS_PORT_BASE, default 5490: control API on the base,
# every TCP variant of the catalogue (src/Service/Contracts/Catalogue/catalogue.json) at base + (its default port − 5090), i.e. 5491–5511; Unix sockets in
# the work folder) with its own data folder (its CA, certificates and credential profiles, made at start, in
# WORK/data/security, which the runner is given with --security-dir), runs each scenario with the Release runner into
# one database, and prints per variant × client × payload: requests, errors by kind, sample rows stored, lost samples
# (requests + warm-up that the plan sent minus rows stored) and the generator CPU. Work folder: STRESS_WORK (default a
# new temp folder); it keeps the database, the per-level CSVs, the runner's output and the host's log.
# Each client sends 1 warm-up and 1 measured request (600 calls per cell): on a busy 2-core machine the slowest cells
# (npm soap, Metro with 1000-element arrays, WS-Security X.509) manage 1.5-3 calls/s, so a closed loop of 300 clients
# sees response times of up to minutes; the per-request timeout is STRESS_REQUEST_TIMEOUT seconds (default 600) instead
# of the runner's 30. The host's slow-client timeout (ServiceHost:SlowClientTimeoutSeconds, default 30) is raised to the
# same (STRESS_SLOW_CLIENT_TIMEOUT): the JDK HTTP server's maxReqTime counts from the moment its dispatcher sees the
# request until Metro has read the whole body, and Metro reads it while it parses, so with 300 clients' 0.75 MB envelopes
# parsed at once on 2 cores a request from a prompt client outlives 30 s and its connection is closed (measured: 138 of
# 900 warm-up requests of the java × Metro × UDTypeArray1000 cells, connection errors after 9-50 s).
set -euo pipefail
cd "$(dirname "$0")/.."
base=${STRESS_PORT_BASE:-5490}
work=${STRESS_WORK:-$(mktemp -d -t stress-XXXXXX)}
mkdir -p "$work/tmp" "$work/sockets" "$work/data"
scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(examples/stress-dotnet.json examples/stress-java.json examples/stress-node.json)
[ -x src/Runner/bin/Release/net10.0/Dashboard.Runner ] || dotnet build Dashboard.sln -c Release -v q -nologo
# 300 clients, each with its own connection, on both ends of loopback: well under the usual 1024, but say so if lower.
[ "$(ulimit -n)" -ge 4096 ] || ulimit -n 4096 || echo "stress: ulimit -n is $(ulimit -n); 300 clients need about 700 descriptors per process" >&2

source bench/lib.sh
ports=$(host_port_args "$base")
# shellcheck disable=SC2086 # one argument per line, none with spaces
src/Service/Host/bin/Release/net10.0/Dashboard.Service.Host --urls "http://127.0.0.1:$base" $ports \
  --ServiceHost:SocketDirectory="$work/sockets" --ServiceHost:DataDirectory="$work/data" \
  --ServiceHost:SlowClientTimeoutSeconds="${STRESS_SLOW_CLIENT_TIMEOUT:-${STRESS_REQUEST_TIMEOUT:-600}}" > "$work/host.log" 2>&1 &
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
    --levels-csv "$work/$name.levels.csv" --request-timeout "${STRESS_REQUEST_TIMEOUT:-600}" \
    --security-dir "$work/data/security" || status=$?
  echo "stress: $name took $(( $(date +%s) - start )) s"
done

echo
echo "stress: per cell (lost = requests + clients × warm-up − sample rows stored; errors: of the measured requests, by kind;"
echo "        wu err: errors of the warm-up requests; generator CPU % of all cores, runner + driver)"
python3 - "$work/stress.db" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
kinds = [('TimeoutErrors', 'timeout'), ('FaultErrors', 'fault'), ('ConnectionErrors', 'connection'),
         ('AuthenticationErrors', 'auth'), ('OtherErrors', 'other'), ('WrongReplyErrors', 'wrong reply')]
totals = {'cells': 0, 'requests': 0, 'errors': 0, 'warm-up errors': 0, 'rows': 0, 'lost': 0}
by_kind = {name: 0 for _, name in kinds}
max_cpu = None
print(f"{'run':>3} {'variant':<28}{'client':<8}{'payload':<16}{'clients':>7}{'requests':>9}{'errors':>7}{'wu err':>7}{'rows':>7}"
      f"{'lost':>6}{'rps':>8}{'p99 ms':>10}{'gen CPU %':>10}  error kinds")
for run_id, scenario in db.execute('SELECT Id, ScenarioJson FROM Runs ORDER BY Id'):
    warmup = json.loads(scenario).get('warmup', 5)
    for row in db.execute(
            'SELECT Id, Variant, Client, Payload, Clients, Requests, Errors, ThroughputRps, P99Ms, GeneratorCpuPercent, '
            + ', '.join(k for k, _ in kinds) + ' FROM Levels WHERE RunId = ? ORDER BY Id', (run_id,)):
        level_id, variant, client, payload, clients, requests, errors, rps, p99, cpu = row[:10]
        rows, warmup_errors = db.execute(
            'SELECT count(*), coalesce(sum(IsWarmup = 1 AND Outcome <> 0), 0) FROM Samples WHERE LevelId = ?', (level_id,)).fetchone()
        lost = requests + clients * warmup - rows
        counts = dict(zip((name for _, name in kinds), row[10:]))
        for name, n in counts.items():
            by_kind[name] += n
        for key, value in [('cells', 1), ('requests', requests), ('errors', errors), ('warm-up errors', warmup_errors), ('rows', rows), ('lost', lost)]:
            totals[key] += value
        if cpu is not None:
            max_cpu = cpu if max_cpu is None else max(max_cpu, cpu)
        detail = ', '.join(f"{name} {n}" for name, n in counts.items() if n)
        print(f"{run_id:>3} {variant:<28}{client:<8}{payload:<16}{clients:>7}{requests:>9}{errors:>7}{warmup_errors:>7}{rows:>7}{lost:>6}"
              f"{rps:>8.1f}{p99:>10.1f}{(cpu if cpu is not None else float('nan')):>10.1f}  {detail}")
for run_id, status, error in db.execute('SELECT Id, Status, Error FROM Runs ORDER BY Id'):
    print(f"run {run_id}: {status}" + (f": {error}" if error else ""))
print("stress: totals: " + ', '.join(f"{k} {v}" for k, v in totals.items())
      + "; errors by kind: " + ', '.join(f"{k} {v}" for k, v in by_kind.items())
      + f"; max generator CPU {max_cpu if max_cpu is not None else float('nan'):.1f} %")
PY
echo "stress: database and per-level CSVs in $work (exit $status)"
exit $status
