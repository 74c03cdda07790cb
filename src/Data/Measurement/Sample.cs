namespace Dashboard.Data.Measurement;

/// <summary>
/// One request as the load generator saw it: the raw value every aggregate is computed from
/// (docs/architecture.md, "raw samples are the source of truth").
/// </summary>
/// <param name="ClientIndex">Zero-based index of the closed-loop client (worker) that sent the request.</param>
/// <param name="StartOffsetUs">Start of the request in µs, relative to the start of its level.</param>
/// <param name="LatencyUs">Response time in µs: from sending the request to having the whole reply.</param>
/// <param name="Outcome">Whether the request succeeded, and if not, what kind of error ended it.</param>
/// <param name="IsWarmup">True for warm-up requests: stored, but excluded from every aggregate.</param>
/// <param name="RequestBytes">Bytes of the request as they crossed the socket (headers and framing included), or -1 when the client cannot count them.</param>
/// <param name="ResponseBytes">Bytes of the response as they crossed the socket, or -1 when the client cannot count them.</param>
public readonly record struct Sample(
    int ClientIndex,
    long StartOffsetUs,
    long LatencyUs,
    SampleOutcome Outcome,
    bool IsWarmup,
    int RequestBytes = -1,
    int ResponseBytes = -1)
{
    /// <summary>The value of <see cref="RequestBytes"/> and <see cref="ResponseBytes"/> when the client could not count the bytes.</summary>
    public const int UnknownBytes = -1;

    /// <summary>End of the request in µs, relative to the start of its level.</summary>
    public long EndOffsetUs => StartOffsetUs + LatencyUs;

    /// <summary>True when the request completed without error.</summary>
    public bool IsSuccess => Outcome == SampleOutcome.Success;
}
