#!/usr/bin/env bash
# The claims table on a quiet machine, both topologies (issue #34 item 8; docs/claims.md "Verdicts measured here"):
# starts a Release dashboard of its own (own data folder; its local service host on the default ports 5090–5130, so
# nothing else may use them), queues preset parts through POST /api/runs exactly as a user's script would — each part
# with `launches` independent launches (a fresh host process and fresh clients each) of 1 repetition, once
# same-machine and once emulated-lan (100 Mbit/s; the variants that are on-machine only are left out there) — waits
# for each run, then prints every claim's verdict over the same-machine runs, over the emulated-lan runs, and over all
# of them (the cross-machine claims pair levels of the two topologies), and keeps the JSON, the CSVs and the reports.
#   bench/claims.sh [LAUNCHES = 3] [PART ...]
# PART: a file in examples/ (default: the quick parts that decide the byte and cost claims — presets 4 and 6, Metro/Ice and
# WCF bindings — then thesis 9.3/9.1.1's preset 1 parts: aspnet, WCF bindings, Ice).
# CLAIMS_PORT (6380) the dashboard's port; CLAIMS_OUT (bench/out/claims-<UTC time>) where the results go;
# CLAIMS_ANY_LOAD=1 starts above a 1-minute load average of 1.5 (the figures then say little: record the load).
# Needs root (emulated-lan), Release builds (dotnet build Dashboard.sln -c Release), python3, curl.
set -euo pipefail
cd "$(dirname "$0")/.."
launches=${1:-3}
shift || true
parts=("$@")
if [ ${#parts[@]} -eq 0 ]; then
  parts=(preset-4-ice-paper-java-quick.json preset-4-ice-paper-wcf-quick.json preset-6-book-get256bytes-quick.json
         preset-6-book-get256bytes-wcf-quick.json preset-1-ipc-vs-network-aspnet-quick.json preset-1-ipc-vs-network-wcf-quick.json
         preset-1-ipc-vs-network-ice-quick.json)
fi
port=${CLAIMS_PORT:-6380}
out=${CLAIMS_OUT:-bench/out/claims-$(date -u +%Y%m%dT%H%M%SZ)}
web=src/Web/bin/Release/net10.0/Dashboard.Web
load() { cut -d' ' -f1 /proc/loadavg; }
if [ "${CLAIMS_ANY_LOAD:-0}" != 1 ] && awk -v l="$(load)" 'BEGIN { exit !(l >= 1.5) }'; then
  echo "claims: 1-minute load average $(load) is not below 1.5: measure on a quiet machine (or set CLAIMS_ANY_LOAD=1)" >&2
  exit 3
fi
[ -x "$web" ] || { echo "claims: $web is not built (dotnet build Dashboard.sln -c Release)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-claims.XXXXXX")
echo "# $(date -u +%FT%TZ) $(nproc) cores, load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)" | tee "$out/summary.txt"
echo "# bench/claims.sh $launches ${parts[*]}" | tee -a "$out/summary.txt"

settings=(--urls "http://127.0.0.1:$port" --Dashboard:DataFolder="$work/data")
token=$("$web" token create --role Admin --name bench-claims "${settings[@]}")
# The dashboard reads its standard input from a FIFO whose only writer is this script (fd 3): if the script dies, even
# by SIGKILL, the dashboard sees end of input and stops with its host (Dashboard:StopAtStdinEof).
mkfifo "$work/stdin"
"$web" "${settings[@]}" --Dashboard:StopAtStdinEof=true > "$work/dashboard.log" 2>&1 < "$work/stdin" &
dashboard=$!
exec 3> "$work/stdin"
trap 'kill -TERM $dashboard 2>/dev/null; wait $dashboard 2>/dev/null; exec 3>&-; cp "$work/dashboard.log" "$out/" 2>/dev/null; rm -rf "$work"' EXIT
api() { curl -fsS -H "Authorization: Bearer $token" "$@"; }
# The local host is up when GET /api/hosts says health 1 (Up) for it; its JVM may take a minute on a cold machine.
local_up() { api "http://127.0.0.1:$port/api/hosts" 2>/dev/null | python3 2>/dev/null -c 'import json,sys; sys.exit(0 if any(h["isLocal"] and h["health"] == 1 for h in json.load(sys.stdin)) else 1)'; }
for _ in $(seq 1 240); do local_up && break; sleep 1; done
local_up || { echo "claims: the dashboard's local host did not come up (see $out/dashboard.log)" >&2; exit 1; }

# One part in one topology: the scenario with launches × 1 repetition, queued, waited for; prints the run id.
queue() { # FILE TOPOLOGY
  python3 - "examples/$1" "$2" "$launches" src/Service/Contracts/Catalogue/catalogue.json > "$work/s.json" <<'PY'
import json, sys
scenario = json.load(open(sys.argv[1]))
topology, launches = sys.argv[2], int(sys.argv[3])
on_machine_only = {v["name"] for v in json.load(open(sys.argv[4]))["variants"] if v.get("onMachineOnly")}
scenario.update({"launches": launches, "repetitions": 1, "host": "http://localhost:5090"})
prefix = f"[claims.sh {topology}, {launches} launches × 1 rep.] "
scenario["name"] = (prefix + scenario["name"])[:200]
for key in ("precision", "maxRepetitions", "precisionTimeLimit"):
    scenario.pop(key, None)
if topology == "emulated-lan":
    scenario["variants"] = [v for v in scenario["variants"] if v not in on_machine_only]
    scenario.update({"topology": "emulated-lan", "linkRateMbps": 100})
if not scenario["variants"]:
    sys.exit(4)
print(json.dumps(scenario))
PY
  local status=$? id state started code
  [ $status -eq 4 ] && return 4
  started=$(date +%s)
  code=$(curl -sS -o "$work/queued.json" -w '%{http_code}' -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    --data-binary @"$work/s.json" "http://127.0.0.1:$port/api/runs")
  if [ "$code" != 201 ]; then
    echo "claims: $1 ($2) was refused, HTTP $code: $(cat "$work/queued.json")" | tee -a "$out/summary.txt" >&2
    return 1
  fi
  id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$work/queued.json")
  while :; do
    state=$(api "http://127.0.0.1:$port/api/runs/$id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
    case $state in Completed|Failed|Cancelled|Interrupted) break ;; esac
    sleep 5
  done
  echo "run $id: $1, $2: $state in $(( $(date +%s) - started )) s, load average now $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/summary.txt" >&2
  api "http://127.0.0.1:$port/api/runs/$id/levels.csv" > "$out/run-$id-levels.csv"
  api "http://127.0.0.1:$port/api/runs/$id/environment.json" > "$out/run-$id-environment.json" || true
  echo "$id"
}

same=() lan=()
set +e
for part in "${parts[@]}"; do
  id=$(queue "$part" same-machine) && same+=("$id")
  id=$(queue "$part" emulated-lan) && lan+=("$id")
done
set -e

# The verdicts over a set of runs: GET /api/runs/{first}/claims?with=…&all=true, kept as JSON, CSV and Markdown.
verdicts() { # LABEL ID...
  local label=$1 first=$2; shift 2
  local with; with=$(IFS=,; echo "$*")
  api "http://127.0.0.1:$port/api/runs/$first/claims?all=true&with=$with" > "$out/claims-$label.json"
  api "http://127.0.0.1:$port/api/runs/$first/claims.csv?all=true&with=$with" > "$out/claims-$label.csv"
  api "http://127.0.0.1:$port/api/runs/$first/report.md?all=true&with=$with" > "$out/report-$label.md"
}
if [ ${#same[@]} -eq 0 ] && [ ${#lan[@]} -eq 0 ]; then echo "claims: no run was queued (see above)" >&2; exit 1; fi
[ ${#same[@]} -gt 0 ] && verdicts same-machine "${same[@]}"
[ ${#lan[@]} -gt 0 ] && verdicts emulated-lan "${lan[@]}"
[ ${#same[@]} -gt 0 ] && [ ${#lan[@]} -gt 0 ] && verdicts both "${same[@]}" "${lan[@]}"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/summary.txt"

# One line per claim that is measurable here: its verdict in each set, with the effect or the reason.
python3 - "$out" <<'PY' | tee -a "$out/summary.txt"
import json, os, sys
out = sys.argv[1]
sets = [s for s in ("same-machine", "emulated-lan", "both") if os.path.exists(f"{out}/claims-{s}.json")]
verdicts = {s: {c["claim"]["id"]: c for c in json.load(open(f"{out}/claims-{s}.json"))["claims"]} for s in sets}
ids = [i for i in verdicts[sets[0]]] if sets else []
def cell(c):
    # The verdict with its effect (A ÷ B [95 % interval] per contrast), else the reason's first sentence; the whole
    # reason is in claims-*.json and report-*.md.
    detail = c.get("effect") or (c.get("reason") or "").split(". ")[0]
    if c.get("effect") and c.get("figures"):
        detail += f" ({c['figures']})"
    detail = detail if len(detail) <= 240 else detail[:237] + "…"
    return f"**{c['verdict']}**: {detail}" if detail else f"**{c['verdict']}**"
print("| claim | " + " | ".join(sets) + " |")
print("|---|" + "---|" * len(sets))
for i in ids:
    if all(verdicts[s][i]["verdict"] in ("NotMeasurable", "NotMeasuredInTheseRuns") for s in sets if i in verdicts[s]):
        continue
    print(f"| `{i}` | " + " | ".join(cell(verdicts[s][i]) if i in verdicts[s] else "" for s in sets) + " |")
PY
echo "results in $out"
