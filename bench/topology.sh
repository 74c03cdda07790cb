#!/usr/bin/env bash
# On-machine vs cross-machine (issue 28, docs/topologies.md; thesis ch. 9.1.1, Tables 9.1 and 9.3): the unsecure cells of
# the thesis preset "local IPC vs network" (AspNetUdsBinXml and AspNetH2BinXml × dotnet, IceTcp × java; Int and
# IntArray500) at 20..300 clients, in three topologies side by side:
#   same-machine      a host on loopback started here, generator and host sharing every core;
#   emulated-lan 100  the runner's own host in a network namespace behind a 100 Mbit/s htb link, one core each;
#   emulated-lan 1000 the same at 1 Gbit/s.
# Unix-socket variants run on-machine only. Needs root (network namespaces) and Release builds of the runner and host.
# Prints one line per level: throughput (req/s), mean response time (ms), server CPU (host process + JVM, % of the host's
# cores), machine CPU of the host's cores, generator CPU (% of its own cores), wire Mbit/s of the replies.
#   bench/topology.sh [SECONDS_PER_LEVEL] [LEVELS]      default 5 and "20,50,100,200,300"
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

seconds=${1:-5}
levels=${2:-20,50,100,200,300}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-topology.XXXXXX")
export TMPDIR="$work"
BENCH_HOST_WAIT=${BENCH_HOST_WAIT:-240} BENCH_PORT_BASE=${BENCH_PORT_BASE:-6700} start_host "$work" jvm
base=${BENCH_PORT_BASE:-6700}
runner=src/Runner/bin/Release/net10.0/Dashboard.Runner
duration=$(printf '00:00:%02d' "$seconds")

scenario() { # NAME TOPOLOGY_FIELDS VARIANTS CLIENT
  cat <<EOF
{"name":"$1","host":"http://127.0.0.1:$base"$2,"variants":[$3],"clients":["$4"],"payloads":["Int","IntArray500"],
 "levels":[$levels],"duration":"$duration","warmup":5}
EOF
}

run() { # LABEL TOPOLOGY_FIELDS ASPNET_VARIANTS
  local label=$1
  for part in aspnet ice; do
    if [ $part = aspnet ]; then scenario "$label $part" "$2" "$3" dotnet > "$work/s.json"; else scenario "$label $part" "$2" '"IceTcp"' java > "$work/s.json"; fi
    "$runner" run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" --progress json \
      --security-dir "$BENCH_SECURITY_DIR" --lan-subnet 10.231.40.0/24 > /dev/null 2> "$work/err.txt" \
      || { echo "bench: $label $part failed: $(tail -3 "$work/err.txt")" >&2; continue; }
    # Server CPU per level: the host process and its JVM over the level's resource readings (both % of the host's cores).
    sqlite3 -separator ' ' "$work/r.db" "
      SELECT l.Variant, l.Clients, l.Payload, printf('%.0f', l.ThroughputRps), printf('%.2f', l.MeanMs),
             printf('%.0f', (SELECT avg(r.ProcessCpuPercent + coalesce(r.JvmCpuPercent, 0)) FROM ResourceSamples r WHERE r.RunId = l.RunId
                    AND r.OffsetMs BETWEEN (julianday(l.StartedUtc) - julianday(u.StartedUtc)) * 86400000 AND (julianday(l.EndedUtc) - julianday(u.StartedUtc)) * 86400000)),
             printf('%.0f', (SELECT avg(r.MachineCpuPercent) FROM ResourceSamples r WHERE r.RunId = l.RunId
                    AND r.OffsetMs BETWEEN (julianday(l.StartedUtc) - julianday(u.StartedUtc)) * 86400000 AND (julianday(l.EndedUtc) - julianday(u.StartedUtc)) * 86400000)),
             printf('%.0f', l.GeneratorCpuPercent), printf('%.1f', l.ThroughputRps * coalesce(l.MeanResponseBytes, 0) * 8 / 1e6)
      FROM Levels l JOIN Runs u ON u.Id = l.RunId WHERE u.Id = (SELECT max(Id) FROM Runs) ORDER BY l.Variant, l.Payload, l.Clients;" |
      while read -r variant clients payload rps mean server machine generator mbit; do
        printf '%-18s %-16s %-12s %4s  %7s req/s  %8s ms  server %3s %%  host cores %3s %%  generator %3s %%  replies %6s Mbit/s\n' \
          "$label" "$variant" "$payload" "$clients" "$rps" "$mean" "$server" "$machine" "$generator" "$mbit"
      done
  done
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, $seconds s per level, levels $levels (the machine may be shared: compare side by side)"
run "same-machine" "" '"AspNetUdsBinXml","AspNetH2BinXml"'
run "emulated-lan 100" ',"topology":"emulated-lan","linkRateMbps":100' '"AspNetH2BinXml"'
run "emulated-lan 1000" ',"topology":"emulated-lan","linkRateMbps":1000' '"AspNetH2BinXml"'
