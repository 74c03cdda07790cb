namespace Dashboard.Runner.Load;

/// <summary>
/// What one level does: closed (<see cref="RateRps"/> null; <see cref="ClosedLoopEngine"/>) or open (<see cref="RateRps"/>
/// set; <see cref="OpenLoopEngine"/>, timed by <paramref name="Duration"/> only).
/// </summary>
/// <param name="Clients">Closed: concurrent closed-loop clients (the concurrency level), at least 1. Open: the most connections (clients) the level may open to keep its rate.</param>
/// <param name="WarmupPerClient">Closed: requests each client sends first. Open: the first requests of the schedule. Flagged as warm-up and excluded from aggregates.</param>
/// <param name="RequestsPerClient">Measured requests per client, or null when <paramref name="Duration"/> bounds the level.</param>
/// <param name="Duration">Measured time per client after its warm-up, or null when <paramref name="RequestsPerClient"/> bounds it.</param>
public sealed record LevelPlan(int Clients, int WarmupPerClient, int? RequestsPerClient, TimeSpan? Duration)
{
    /// <summary>The open level's arrival rate in requests/s (at least 1); null for a closed level.</summary>
    public int? RateRps { get; init; }

    /// <summary>An open request that starts more than this after its intended start is counted late (<see cref="LevelResult.LateStarts"/>).</summary>
    public TimeSpan LateStartThreshold { get; init; } = OpenLoopEngine.DefaultLateStartThreshold;

    /// <summary>
    /// How long after the open schedule's last intended start a request still waiting for a free connection may start;
    /// later ones are dropped (<see cref="LevelResult.DroppedRequests"/>).
    /// </summary>
    public TimeSpan DropGrace { get; init; } = OpenLoopEngine.DefaultDropGrace;

    /// <summary>Checks the plan's invariants.</summary>
    /// <exception cref="ArgumentException">Fewer than one client, negative warm-up, or not exactly one of requests and duration.</exception>
    public void Validate()
    {
        if (Clients < 1)
        {
            throw new ArgumentException($"A level needs at least one client, not {Clients}.", nameof(Clients));
        }

        if (WarmupPerClient < 0)
        {
            throw new ArgumentException($"Warm-up cannot be negative ({WarmupPerClient}).", nameof(WarmupPerClient));
        }

        if (RequestsPerClient.HasValue == Duration.HasValue || RequestsPerClient < 1 || Duration <= TimeSpan.Zero)
        {
            throw new ArgumentException("Give exactly one of a positive request count and a positive duration.", nameof(RequestsPerClient));
        }

        if (RateRps is not null && (RateRps < 1 || Duration is null))
        {
            throw new ArgumentException($"An open level needs a rate of at least 1 request/s (not {RateRps}) and a duration.", nameof(RateRps));
        }
    }
}
