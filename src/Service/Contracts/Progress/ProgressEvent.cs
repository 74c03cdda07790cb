using System.Text.Json;
using System.Text.Json.Serialization;

namespace Dashboard.Service.Contracts.Progress;

/// <summary>
/// One progress event of a run; with <c>--progress json</c> each is written as one JSON object per stdout line
/// (camelCase, nulls omitted). <see cref="Event"/> is one of <see cref="ProgressEvents"/>: <c>run-started</c>,
/// <c>level-progress</c> (at least once a second within a level), <c>level-completed</c>, <c>cell-failed</c> or
/// <c>run-ended</c>. The runner writes them; the dashboard reads them (<see cref="TryParse"/>); a reader ignores kinds it
/// does not know.
/// </summary>
public sealed record ProgressEvent(string Event, int RunId, int CompletedLevels, int TotalLevels)
{
    /// <summary>Variant id of the level (level events).</summary>
    public string? Variant { get; init; }

    /// <summary>Client technology id of the level (level events).</summary>
    public string? Client { get; init; }

    /// <summary>Payload id of the level (level events).</summary>
    public string? Payload { get; init; }

    /// <summary>Repetition number, from 1 (level events).</summary>
    public int? Repetition { get; init; }

    /// <summary>Concurrent clients of the level (level events).</summary>
    public int? Clients { get; init; }

    /// <summary>Measured requests of the level (level events); for <c>level-progress</c>, those completed so far (warm-up excluded).</summary>
    public int? Requests { get; init; }

    /// <summary>Failed measured requests of the level (level events).</summary>
    public int? Errors { get; init; }

    /// <summary>Throughput of the level in req/s (level events); for <c>level-progress</c>, the rate since the previous such event.</summary>
    public double? ThroughputRps { get; init; }

    /// <summary>Mean response time of the level in ms (level events); for <c>level-progress</c>, over the requests since the previous such event.</summary>
    public double? MeanMs { get; init; }

    /// <summary>
    /// The run's environment as the runner captured it (<c>run-started</c>): machine, runtimes, the runner's process (pid and
    /// start time), the host's stacks, the topology; the dashboard stores it as the run's <c>EnvironmentJson</c>.
    /// </summary>
    public JsonElement? Environment { get; init; }

    /// <summary>Where the host runs relative to the generator, e.g. <c>same-machine</c> (<c>run-started</c>).</summary>
    public string? Topology { get; init; }

    /// <summary>The emulated link's rate in Mbit/s (<c>run-started</c>, topology <c>emulated-lan</c>).</summary>
    public int? LinkRateMbps { get; init; }

    /// <summary>The seed of the run's cell order (<c>run-started</c>); absent when the cells run in the scenario's order.</summary>
    public int? OrderSeed { get; init; }

    /// <summary>Final status: Completed, Failed, Cancelled or Interrupted (<c>run-ended</c>).</summary>
    public string? Status { get; init; }

    /// <summary>One-line reason of a failure (<c>run-ended</c>).</summary>
    public string? Error { get; init; }

    /// <summary>The JSON form of the events: camelCase, nulls omitted, non-ASCII names kept readable.</summary>
    public static JsonSerializerOptions JsonOptions { get; } = new(JsonSerializerDefaults.Web)
    {
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    /// <summary>Parses one stdout line of the runner; null when it is not a JSON event (the runner may print other text).</summary>
    public static ProgressEvent? TryParse(string line)
    {
        if (string.IsNullOrWhiteSpace(line) || line.TrimStart()[0] != '{')
        {
            return null;
        }

        try
        {
            var progress = JsonSerializer.Deserialize<ProgressEvent>(line, JsonOptions);
            return string.IsNullOrEmpty(progress?.Event) ? null : progress;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}

/// <summary>The kinds of <see cref="ProgressEvent"/> (its <see cref="ProgressEvent.Event"/>).</summary>
public static class ProgressEvents
{
    /// <summary>The run's first level is about to start: its id, level count, environment, topology and cell-order seed.</summary>
    public const string RunStarted = "run-started";

    /// <summary>
    /// Within a level, at least once a second: the level's cell and clients, <see cref="ProgressEvent.Requests"/> measured so
    /// far, <see cref="ProgressEvent.Errors"/> so far, <see cref="ProgressEvent.ThroughputRps"/> over the last interval.
    /// Nothing is stored for it; it is for people watching.
    /// </summary>
    public const string LevelProgress = "level-progress";

    /// <summary>A level is stored: its figures.</summary>
    public const string LevelCompleted = "level-completed";

    /// <summary>A cell stopped with an error; the others go on.</summary>
    public const string CellFailed = "cell-failed";

    /// <summary>The run ended: its status and reason (the dashboard ends its row with them; docs/architecture.md, "One owner per run").</summary>
    public const string RunEnded = "run-ended";
}
