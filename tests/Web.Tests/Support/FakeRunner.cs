namespace Dashboard.Web.Tests.Support;

/// <summary>
/// A stand-in for the built runner: a shell script named <c>Dashboard.Runner</c> that answers
/// <c>run --scenario FILE --db FILE --progress json</c> with JSON progress events, one per line, and behaves by the
/// scenario's name: <c>complete</c> (two levels, exit 0), <c>slow</c> (waits for SIGINT or SIGTERM, writes which into <c>sigint.log</c>, exits 130; with
/// <c>--stop-at-stdin-eof</c> also ends at the end of its standard input, as the real runner does), <c>busy</c> (exit 4),
/// <c>refused</c> (exit 2). It writes what happened into files next to itself, for the tests to check. The run id it
/// reports is its <c>--run-id</c> (the dashboard's row), else <c>FAKE_RUNNER_RUN_ID</c> (default 9000).
/// </summary>
public static class FakeRunner
{
    private const string Script = """
        #!/usr/bin/env bash
        # Fake Dashboard.Runner for the web tests.
        dir="$(cd "$(dirname "$0")" && pwd)"
        scenario=""; db=""; runid=""; eofwatch=0; watcher=""
        while [ $# -gt 0 ]; do
          case "$1" in
            --scenario) scenario="$2"; shift 2 ;;
            --db) db="$2"; shift 2 ;;
            --run-id) runid="$2"; shift 2 ;;
            --stop-at-stdin-eof) eofwatch=1; shift ;;
            *) shift ;;
          esac
        done
        id="${runid:-${FAKE_RUNNER_RUN_ID:-9000}}"
        echo "$$ $scenario $db $runid $eofwatch" >> "$dir/started.log"
        name=$(grep -o '"name": *"[^"]*"' "$scenario" | head -1)
        case "$name" in
          *refused*)
            echo "error: invalid scenario x.json: variants[0]: the host does not serve it" >&2
            exit 2 ;;
          *busy*)
            echo "error: another benchmark holds this machine" >&2
            exit 4 ;;
          *slow*)
            if [ "$eofwatch" = 1 ]; then
              exec 3<&0
              ( cat <&3 > /dev/null; echo eof >> "$dir/stdin-eof.log"; kill -USR1 $$ ) > /dev/null 2>&1 &
              watcher=$!
            fi
            trap 'echo "stdin ended" >> "$dir/stopped.log"; exit 130' USR1
            stop() {
              echo "$1" >> "$dir/sigint.log"; [ -n "$watcher" ] && pkill -P "$watcher"
              echo "{\"event\":\"run-ended\",\"runId\":$id,\"completedLevels\":1,\"totalLevels\":5,\"status\":\"Cancelled\",\"error\":\"cancelled after 1 of 5 levels\"}"; exit 130
            }
            trap 'stop INT' INT
            trap 'stop TERM' TERM
            echo "{\"event\":\"run-started\",\"runId\":$id,\"completedLevels\":0,\"totalLevels\":5}"
            echo "{\"event\":\"level-completed\",\"runId\":$id,\"completedLevels\":1,\"totalLevels\":5,\"variant\":\"AspNetHttpJson\",\"client\":\"dotnet\",\"payload\":\"Int\",\"repetition\":1,\"clients\":1,\"requests\":5,\"errors\":0,\"throughputRps\":100.5,\"meanMs\":0.9}"
            for i in $(seq 1 1200); do
              sleep 0.1
              # A level in progress, as the runner reports it about once a second (here twice).
              if [ $((i % 5)) -eq 0 ]; then
                echo "{\"event\":\"level-progress\",\"runId\":$id,\"completedLevels\":1,\"totalLevels\":5,\"variant\":\"AspNetHttpJson\",\"client\":\"dotnet\",\"payload\":\"Int\",\"clients\":2,\"requests\":$((i * 40)),\"throughputRps\":$((380 + i % 40))}"
              fi
            done
            exit 1 ;;
          *)
            echo "{\"event\":\"run-started\",\"runId\":$id,\"completedLevels\":0,\"totalLevels\":2}"
            echo "not json: the runner may print other lines"
            echo "{\"event\":\"level-completed\",\"runId\":$id,\"completedLevels\":1,\"totalLevels\":2,\"variant\":\"AspNetHttpJson\",\"client\":\"dotnet\",\"payload\":\"Int\",\"repetition\":1,\"clients\":1,\"requests\":5,\"errors\":0,\"throughputRps\":100.5,\"meanMs\":0.9}"
            echo "{\"event\":\"level-completed\",\"runId\":$id,\"completedLevels\":2,\"totalLevels\":2,\"variant\":\"AspNetHttpJson\",\"client\":\"dotnet\",\"payload\":\"Int\",\"repetition\":1,\"clients\":2,\"requests\":10,\"errors\":0,\"throughputRps\":180.0,\"meanMs\":1.1}"
            echo "{\"event\":\"run-ended\",\"runId\":$id,\"completedLevels\":2,\"totalLevels\":2,\"status\":\"Completed\"}"
            exit 0 ;;
        esac
        """;

    /// <summary>Writes the script into <paramref name="directory"/> and returns its path.</summary>
    public static string Create(string directory)
    {
        Directory.CreateDirectory(directory);
        var path = Path.Combine(directory, "Dashboard.Runner");
        File.WriteAllText(path, Script.Replace("\r\n", "\n", StringComparison.Ordinal) + "\n");
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute | UnixFileMode.GroupRead | UnixFileMode.GroupExecute);
        return path;
    }

    /// <summary>Lines of <c>started.log</c>: one per runner start (pid, scenario file, database).</summary>
    public static string[] Starts(string directory)
    {
        var log = Path.Combine(directory, "started.log");
        return File.Exists(log) ? File.ReadAllLines(log) : [];
    }

    /// <summary>True once the script (a slow run started with <c>--stop-at-stdin-eof</c>) read the end of its standard input and stopped.</summary>
    public static bool SawStdinEnd(string directory) => File.Exists(Path.Combine(directory, "stopped.log"));

    /// <summary>True once the script received SIGINT or SIGTERM.</summary>
    public static bool GotSigint(string directory) => File.Exists(Path.Combine(directory, "sigint.log"));

    /// <summary>The signals the script stopped on, in order (<c>INT</c>, <c>TERM</c>); empty when none.</summary>
    public static string[] StopSignals(string directory)
    {
        var log = Path.Combine(directory, "sigint.log");
        return File.Exists(log) ? File.ReadAllLines(log) : [];
    }
}
