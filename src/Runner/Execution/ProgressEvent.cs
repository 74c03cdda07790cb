namespace Dashboard.Runner.Execution;

/// <summary>
/// One progress event of a run; with <c>--progress json</c> each is written as one JSON object per stdout line
/// (camelCase, nulls omitted). <see cref="Event"/> is <c>run-started</c>, <c>level-completed</c> or <c>run-ended</c>.
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

    /// <summary>Measured requests of the level (level events).</summary>
    public int? Requests { get; init; }

    /// <summary>Failed measured requests of the level (level events).</summary>
    public int? Errors { get; init; }

    /// <summary>Throughput of the level in req/s (level events).</summary>
    public double? ThroughputRps { get; init; }

    /// <summary>Mean response time of the level in ms (level events).</summary>
    public double? MeanMs { get; init; }

    /// <summary>Final status: Completed, Failed or Cancelled (<c>run-ended</c>).</summary>
    public string? Status { get; init; }

    /// <summary>One-line reason of a failure (<c>run-ended</c>).</summary>
    public string? Error { get; init; }
}
