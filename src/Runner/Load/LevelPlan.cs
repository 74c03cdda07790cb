namespace Dashboard.Runner.Load;

/// <summary>What one level of the closed workload does.</summary>
/// <param name="Clients">Concurrent closed-loop clients (the concurrency level), at least 1.</param>
/// <param name="WarmupPerClient">Requests each client sends first, flagged as warm-up and excluded from aggregates.</param>
/// <param name="RequestsPerClient">Measured requests per client, or null when <paramref name="Duration"/> bounds the level.</param>
/// <param name="Duration">Measured time per client after its warm-up, or null when <paramref name="RequestsPerClient"/> bounds it.</param>
public sealed record LevelPlan(int Clients, int WarmupPerClient, int? RequestsPerClient, TimeSpan? Duration)
{
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
    }
}
