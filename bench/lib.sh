# Shared by the bench scripts (source bench/lib.sh from the repository's root).

# The service hosts these scripts start ask for a control token (docs/security.md): one per script run (or the caller's
# DASHBOARD_HOST_TOKEN), given to every host (ServiceHost__ControlToken), runner (DASHBOARD_HOST_TOKEN) and dashboard
# (Dashboard__LocalHost__ControlToken) they start, through the environment.
DASHBOARD_HOST_TOKEN=${DASHBOARD_HOST_TOKEN:-$(head -c 32 /dev/urandom | base64 | tr -d '=\n' | tr '+/' '-_')}
export DASHBOARD_HOST_TOKEN
export ServiceHost__ControlToken="$DASHBOARD_HOST_TOKEN" Dashboard__LocalHost__ControlToken="$DASHBOARD_HOST_TOKEN"

# The --ServiceHost:Ports:NAME=PORT arguments that move every TCP variant the host serves off its default port, one per
# line: host_port_args BASE. The names and default ports come from the catalogue (src/Service/Contracts/Catalogue/
# catalogue.json, the variants with a "port"), the control port from src/Service/Host/appsettings.json ("Urls", 5090),
# so a variant added to the catalogue is moved too; each keeps its offset from the control port: with BASE 5490,
# AspNetHttpXml (5091) goes to 5491 and IceSsl (5111) to 5511. The control API itself goes on BASE (--urls).
#   mapfile -t ports < <(host_port_args 5490)    then   Dashboard.Service.Host --urls http://127.0.0.1:5490 "${ports[@]}"
host_port_args() {
  node -e '
    const fs = require("fs");
    const [settingsFile, catalogueFile, base] = [process.argv[1], process.argv[2], Number(process.argv[3])];
    const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8"));
    const control = Number(new URL(settings.Urls.split(";")[0]).port);
    const ports = JSON.parse(fs.readFileSync(catalogueFile, "utf8")).variants.filter(v => Number.isInteger(v.port));
    if (!Number.isInteger(base) || !Number.isInteger(control) || ports.length === 0) process.exit(1);
    for (const { name, port } of ports) {
      if (port - control <= 0) { console.error(`bench: ${name} (${port}) is not above the control port ${control}`); process.exit(1); }
      console.log(`--ServiceHost:Ports:${name}=${base + port - control}`);
    }' "${BENCH_HOST_SETTINGS:-src/Service/Host/appsettings.json}" "${BENCH_CATALOGUE:-src/Service/Contracts/Catalogue/catalogue.json}" "$1"
}

# The port host_port_args BASE gives one variant: host_port BASE VARIANT (e.g. host_port 5390 MetroSoap11 → 5400).
host_port() {
  host_port_args "$1" | sed -n "s/^--ServiceHost:Ports:$2=//p"
}

# The highest port host_port_args BASE gives a variant: keep other listeners (a dashboard) above it.
host_port_max() {
  host_port_args "$1" | sed 's/.*=//' | sort -n | tail -1
}

# Starts a Release service host on its own ports and data folder (control API on BASE, default 5390, variants from
# host_port_args, Unix sockets in WORK/sockets, security material in WORK/data/security: the runner is given it with
# --security-dir, see run_level), waits until it is healthy and stops it on exit.
#   source bench/lib.sh; start_host "$work" [jvm]       BENCH_PORT_BASE overrides 5390
start_host() {
  local work=$1 wait_jvm=${2:-} jvm=false base=${BENCH_PORT_BASE:-5390} ports
  [ -n "$wait_jvm" ] && jvm=true
  ports=$(host_port_args "$base") || { echo "bench: cannot read the variants' ports from the catalogue" >&2; return 1; }
  mkdir -p "$work/sockets" "$work/data"
  # shellcheck disable=SC2086 # one argument per line, none with spaces
  # Standard input from a FIFO only this script writes (fd 9): the host stops with its JVM when the script dies, even by
  # SIGKILL (ServiceHost:StopAtStdinEof).
  mkfifo "$work/host-stdin"
  src/Service/Host/bin/Release/net10.0/Dashboard.Service.Host --urls "http://127.0.0.1:$base" $ports \
    --ServiceHost:SocketDirectory="$work/sockets" --ServiceHost:DataDirectory="$work/data" \
    --Jvm:Enabled=$jvm --ServiceHost:StopAtStdinEof=true > "$work/host.log" 2>&1 < "$work/host-stdin" &
  BENCH_HOST=$!
  exec 9> "$work/host-stdin"
  BENCH_SECURITY_DIR="$work/data/security"
  trap 'kill -TERM $BENCH_HOST; wait $BENCH_HOST 2>/dev/null; rm -rf "'"$work"'"' EXIT
  local healthy='"aspnet":"up"'
  [ -n "$wait_jvm" ] && healthy='"jvm":"up"'
  # BENCH_HOST_WAIT: seconds to wait (default 60; a busy shared machine may need more for the JVM).
  for _ in $(seq 1 $(( ${BENCH_HOST_WAIT:-60} * 2 ))); do curl -fs "http://127.0.0.1:$base/healthz" 2>/dev/null | grep -q "$healthy" && return 0; sleep 0.5; done
  echo "bench: the host did not come up (see $work/host.log)" >&2
  return 1
}

# The throughput (req/s) of the single level of a scenario, run by the Release runner: run_level WORK SCENARIO_JSON
run_level() {
  local work=$1
  echo "$2" > "$work/s.json"
  # The dashboard's runner environment (RunnerRuntime.Variables): tier-1 call counting from the first call.
  DOTNET_TC_CallCountingDelayMs=0 src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" --progress json \
    ${BENCH_SECURITY_DIR:+--security-dir "$BENCH_SECURITY_DIR"} > /dev/null
  rm -f "$work/r.db"*
  cp "$work/l.csv" "$work/l.csv.kept"
  tail -1 "$work/l.csv" | cut -d, -f7
}
