using System.Text.Json;

namespace Dashboard.Web.Runs;

/// <summary>
/// One line of the runner's <c>--progress json</c> output (the runner's <c>ProgressEvent</c>, read here without
/// referencing the net10.0 runner): <c>run-started</c>, <c>level-completed</c> or <c>run-ended</c>.
/// </summary>
public sealed record RunnerProgress
{
    /// <summary>The JSON options of the runner's events (camelCase).</summary>
    public static JsonSerializerOptions JsonOptions { get; } = new(JsonSerializerDefaults.Web);

    /// <summary><c>run-started</c>, <c>level-completed</c> or <c>run-ended</c>.</summary>
    public string Event { get; init; } = "";

    /// <summary>The id of the runner's own row in <c>Runs</c>.</summary>
    public int RunId { get; init; }

    /// <summary>Levels finished so far.</summary>
    public int CompletedLevels { get; init; }

    /// <summary>Levels of the whole run.</summary>
    public int TotalLevels { get; init; }

    /// <summary>Variant of the level (level events).</summary>
    public string? Variant { get; init; }

    /// <summary>Client technology of the level (level events).</summary>
    public string? Client { get; init; }

    /// <summary>Payload of the level (level events).</summary>
    public string? Payload { get; init; }

    /// <summary>Repetition, from 1 (level events).</summary>
    public int? Repetition { get; init; }

    /// <summary>Concurrent clients of the level (level events).</summary>
    public int? Clients { get; init; }

    /// <summary>Measured requests (level events).</summary>
    public int? Requests { get; init; }

    /// <summary>Failed measured requests (level events).</summary>
    public int? Errors { get; init; }

    /// <summary>Throughput in req/s (level events).</summary>
    public double? ThroughputRps { get; init; }

    /// <summary>Mean response time in ms (level events).</summary>
    public double? MeanMs { get; init; }

    /// <summary>Final status: Completed, Failed or Cancelled (<c>run-ended</c>).</summary>
    public string? Status { get; init; }

    /// <summary>Why the run failed (<c>run-ended</c>).</summary>
    public string? Error { get; init; }

    /// <summary>Parses one stdout line; null when it is not a JSON event (the runner may print other text).</summary>
    public static RunnerProgress? TryParse(string line)
    {
        if (string.IsNullOrWhiteSpace(line) || line.TrimStart()[0] != '{')
        {
            return null;
        }

        try
        {
            var progress = JsonSerializer.Deserialize<RunnerProgress>(line, JsonOptions);
            return string.IsNullOrEmpty(progress?.Event) ? null : progress;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
