#!/usr/bin/env bash
# The lean generator (client technology `lean`, issue #35) against the reference generators, side by side in one run
# against one host, interleaved, best of ROUNDS, with each generator's CPU µs per request and the `dotnet` client on the
# same cell:
#   - AspNetHttpJson + Int at 20 connections: lean, wrk (the same JSON body) and dotnet;
#   - AspNetGrpc and AspNetH2BinXml + Int at 10 connections × 1 stream: h2load (the same request body: the gRPC frame of
#     IntValue{value: 2147483647}; the binary XML body the lean generator writes, captured off AspNetUdsBinXml's socket)
#     and dotnet; lean on the same cells (10 connections, one stream each; h2c, as h2load).
# CPU µs per request: wrk's and h2load's user + system time (/usr/bin/time) ÷ requests; the runner's
# generator_cpu_us_per_request (its process over the level's window). Prints the 1-minute load average beside every line.
#   bench/lean-vs-wrk.sh [seconds = 8] [rounds = 2]      LEAN_CELLS: a subset of "json grpc h2"; BENCH_PORT_BASE (5390)
# Needs: a Release build (dotnet build -c Release src/Runner && dotnet build -c Release src/Service/Host), wrk and
# h2load (Debian wrk, nghttp2-client), python3. Measure on a quiet machine; the figures in bench/README.md say how loaded.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-8}
rounds=${2:-2}
for tool in wrk h2load python3; do command -v $tool > /dev/null || { echo "lean-vs-wrk: $tool is missing (apt-get install wrk nghttp2-client python3)" >&2; exit 2; }; done
load() { cut -d' ' -f1 /proc/loadavg; }
work=$(mktemp -d)
start_host "$work"
base=${BENCH_PORT_BASE:-5390}
json_port=$(host_port "$base" AspNetHttpJson)
grpc_port=$(host_port "$base" AspNetGrpc)
h2_port=$(host_port "$base" AspNetH2BinXml)

cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"value":2147483647}'
wrk.headers["Content-Type"] = "application/json"
LUA
# gRPC frame: not compressed, length 6, then IntValue field 1 varint 2147483647.
printf '\x00\x00\x00\x00\x06\x08\xff\xff\xff\xff\x07' > "$work/grpc.bin"

# The binary XML body of IntSimple(2147483647) as the lean generator writes it: its first request on AspNetUdsBinXml,
# read off a stand-in socket (the real one moved aside meanwhile).
sock="$work/sockets/aspnet-binxml.sock"
mv "$sock" "$sock.real"
python3 - "$sock" "$work/binxml.bin" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1); c, _ = s.accept(); data = b""
while b"\r\n\r\n" not in data: data += c.recv(65536)
head, body = data.split(b"\r\n\r\n", 1)
length = int([l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0])
while len(body) < length: body += c.recv(65536)
open(sys.argv[2], "wb").write(body[:length]); c.close()
PY
capture=$!
for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.2; done
scenario() { echo '{"name":"lean vs wrk","host":"http://127.0.0.1:'"$base"'","variants":["'"$1"'"],"clients":["'"$2"'"],"payloads":["Int"],"levels":['"$3"'],"duration":"00:00:'"$(printf %02d "$seconds")"'","warmup":'"${4:-2000}"'}'; }
echo "$(scenario AspNetUdsBinXml lean 1 0)" > "$work/capture.json"
timeout 120 src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/capture.json" --db "$work/c.db" > "$work/capture.err" 2>&1 || true
kill $capture 2> /dev/null || true
wait $capture 2> /dev/null || true
rm -f "$sock" "$work/c.db"*
mv "$sock.real" "$sock"
[ -s "$work/binxml.bin" ] || { echo "lean-vs-wrk: could not capture the binary XML body:" >&2; tail -5 "$work/capture.err" >&2; exit 1; }

# Runner level: "req/s µs/req" from its levels CSV, or "refused" when the client cannot call the variant.
# LEAN_RUNNER_ENV: environment for the runner alone (e.g. DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1), not the host.
ours() {
  scenario "$1" "$2" "$3" > "$work/s.json"
  rm -f "$work/l.csv"
  if env ${LEAN_RUNNER_ENV:-} src/Runner/bin/Release/net10.0/Dashboard.Runner run --scenario "$work/s.json" --db "$work/r.db" --levels-csv "$work/l.csv" \
      --progress json --security-dir "$BENCH_SECURITY_DIR" > /dev/null 2> "$work/err" && [ -s "$work/l.csv" ]; then
    python3 -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1])))[-1]; print("%.0f %.1f" % (float(r["throughput_rps"]), float(r["generator_cpu_us_per_request"] or "nan")))' "$work/l.csv"
  else
    echo "refused -"
  fi
  rm -f "$work/r.db"*
}
# wrk or h2load: "req/s µs/req" from its output and /usr/bin/time's user + system seconds.
timed() { /usr/bin/time -f "cpu %U %S" "$@" 2>&1; }
wrk_run() {
  timed wrk -t1 -c20 -d${seconds}s -s "$work/post.lua" "http://127.0.0.1:$json_port/IntSimple" | awk '
    /requests in/ { n = $1 } /Requests\/sec/ { r = $2 } /^cpu/ { c = $2 + $3 } END { printf "%.0f %.1f\n", r, c * 1e6 / n }'
}
h2load_run() {
  timed h2load -c10 -m1 -t1 -D "$seconds" "${@:2}" -d "$1" | awk '
    /^finished in/ { r = $4 } /^requests:/ { n = $8 } /^cpu/ { c = $2 + $3 } END { printf "%.0f %.1f\n", r, c * 1e6 / n }'
}
h2load_grpc() { h2load_run "$work/grpc.bin" -H 'content-type: application/grpc' -H 'te: trailers' "http://127.0.0.1:$grpc_port/dashboard.benchmark.Benchmark/IntSimple"; }
h2load_binxml() { h2load_run "$work/binxml.bin" -H 'content-type: application/msbin1' "http://127.0.0.1:$h2_port/IntSimple"; }

best() { sort -k1,1 -g -r | head -1; }
declare -A figures
for r in $(seq 1 "$rounds"); do
  for cell in ${LEAN_CELLS:-json grpc h2}; do
    case $cell in
      json) variant=AspNetHttpJson; conns=20; reference=wrk; ref_cmd=wrk_run ;;
      grpc) variant=AspNetGrpc; conns=10; reference=h2load; ref_cmd=h2load_grpc ;;
      h2) variant=AspNetH2BinXml; conns=10; reference=h2load; ref_cmd=h2load_binxml ;;
    esac
    l=$(load); x=$($ref_cmd); figures[$cell.ref]+="$x $l"$'\n'; echo "round $r $variant $reference: $x (req/s µs/req), load $l"
    l=$(load); x=$(ours $variant lean $conns); figures[$cell.lean]+="$x $l"$'\n'; echo "round $r $variant lean: $x, load $l"
    l=$(load); x=$(ours $variant dotnet $conns); figures[$cell.dotnet]+="$x $l"$'\n'; echo "round $r $variant dotnet: $x, load $l"
  done
done
for cell in ${LEAN_CELLS:-json grpc h2}; do
  ref=$(printf '%s' "${figures[$cell.ref]}" | best); lean=$(printf '%s' "${figures[$cell.lean]}" | best); dotnet=$(printf '%s' "${figures[$cell.dotnet]}" | best)
  awk -v c=$cell -v ref="$ref" -v lean="$lean" -v dn="$dotnet" 'BEGIN {
    split(ref, a, " "); split(lean, b, " "); split(dn, d, " ")
    name = c == "json" ? "AspNetHttpJson + Int, 20 connections, lean ÷ wrk" : (c == "grpc" ? "AspNetGrpc + Int, 10 × 1, lean ÷ h2load" : "AspNetH2BinXml + Int, 10 × 1, lean ÷ h2load")
    ratio = b[1] == "refused" ? "n/a (lean refuses the variant)" : sprintf("%.3f", b[1] / a[1])
    printf "%s: %s (goal ≥ 0.9); reference %s req/s at %s µs/req (load %s), lean %s req/s at %s µs/req (load %s), dotnet %s req/s at %s µs/req (load %s, ÷ reference %.3f)\n",
      name, ratio, a[1], a[2], a[3], b[1], b[2], b[3], d[1], d[2], d[3], d[1] / a[1] }'
done
