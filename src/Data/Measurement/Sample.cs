namespace Dashboard.Data.Measurement;

/// <summary>
/// One request as the load generator saw it: the raw value every aggregate is computed from
/// (DESIGN.md §2, "raw samples are the source of truth").
/// </summary>
/// <param name="ClientIndex">Zero-based index of the closed-loop client (worker) that sent the request.</param>
/// <param name="StartOffsetUs">Start of the request in µs, relative to the start of its level.</param>
/// <param name="LatencyUs">Response time in µs: from sending the request to having the whole reply.</param>
/// <param name="Outcome">Whether the request succeeded, and if not, what kind of error ended it.</param>
/// <param name="IsWarmup">True for warm-up requests: stored, but excluded from every aggregate.</param>
public readonly record struct Sample(
    int ClientIndex,
    long StartOffsetUs,
    long LatencyUs,
    SampleOutcome Outcome,
    bool IsWarmup)
{
    /// <summary>End of the request in µs, relative to the start of its level.</summary>
    public long EndOffsetUs => StartOffsetUs + LatencyUs;

    /// <summary>True when the request completed without error.</summary>
    public bool IsSuccess => Outcome == SampleOutcome.Success;
}
