using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Samples;
using Dashboard.Data.Statistics;
using Dashboard.Runner.Hosts;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Runner.Execution;

/// <summary>What the executor measured around one level, besides its samples: its CPU figures are its window's (<see cref="WindowCpu"/>).</summary>
internal sealed record LevelMeasures(SteadyStateWarmup.Outcome? Steady, double? GeneratorCpuPercent, double? GeneratorCoresBusyPercent, WindowFigures Window, TimeSpan Wall, bool SharesCoresWithServer)
{
    /// <summary>The launch (from 1) the level ran in.</summary>
    public int? Launch { get; init; }

    /// <summary>The service host's process id as it reported it; null when it did not.</summary>
    public int? HostProcessId { get; init; }

    /// <summary>The core runner, drivers and host shared during the level (placement <c>"shared-core"</c>); null: placed freely.</summary>
    public int? SharedCore { get; init; }
}

/// <summary>
/// What is stored and reported of one level: its row with the figures computed from its samples and what bound it, the
/// samples (one write transaction that stores nothing once the run is no longer Running), its progress event, and the
/// reason a level is partial.
/// </summary>
internal static class LevelRecords
{
    /// <summary>
    /// Puts a window's server and machine figures on <paramref name="level"/>: server CPU % and µs per request (or why they
    /// are missing), the window's length, machine busy and steal shares, others' cores and the disturbed flag.
    /// </summary>
    internal static void ApplyServer(LevelEntity level, WindowFigures window)
    {
        level.CpuWindowSeconds = window.Seconds;
        level.ServerCpuPercent = window.ServerCpuPercent;
        level.ServerCpuMicrosPerRequest = window.ServerCpuMicrosPerRequest;
        level.ServerCpuMissingReason = window.ServerMissingReason;
        level.MachineBusyPercent = window.MachineBusyPercent;
        level.StealPercent = window.StealPercent;
        level.OthersCpuCores = window.OthersCpuCores;
        level.Disturbed = window.Disturbed;
    }

    internal static LevelEntity Store(SampleStore samples, RunEntity run, Cell cell, int repetition, LevelResult result, LevelMeasures measures, string? partialReason)
    {
        var stats = result.Statistics;
        var level = new LevelEntity
        {
            RunId = run.Id,
            Variant = cell.Endpoint.Name,
            Client = cell.ClientId,
            Payload = cell.Payload.Id,
            Repetition = repetition,
            // An open level's value is its arrival rate (req/s), a closed one's its clients (docs/statistics.md).
            Clients = result.Plan.RateRps ?? result.Plan.Clients,
            TargetRateRps = result.Plan.RateRps,
            LateStarts = result.LateStarts,
            DroppedRequests = result.DroppedRequests,
            Connections = result.Connections,
            ServiceP99Ms = result.ServiceP99Ms,
            StartedUtc = result.StartedUtc,
            EndedUtc = result.EndedUtc,
            GeneratorCpuPercent = measures.GeneratorCpuPercent,
            Complete = partialReason is null,
            PartialReason = partialReason,
            SteadyStateReached = measures.Steady?.Reached,
            SteadyStateWarmupSeconds = measures.Steady?.Elapsed.TotalSeconds,
            SteadyStateCoefficientOfVariation = measures.Steady?.CoefficientOfVariation,
            GeneratorCoresBusyPercent = measures.GeneratorCoresBusyPercent,
            Bound = LevelBounds.Classify(measures.GeneratorCpuPercent, measures.GeneratorCoresBusyPercent, measures.Window.ServerCpuPercent, measures.SharesCoresWithServer),
            GeneratorCpuMicrosPerRequest = measures.Window.GeneratorCpuMicrosPerRequest,
            Launch = measures.Launch,
            HostProcessId = measures.HostProcessId,
            SharedCore = measures.SharedCore,
        };
        ApplyServer(level, measures.Window);
        LevelFigures.Apply(level, stats);
        // The level row and its samples in one transaction: a runner killed at any moment leaves whole levels only.
        samples.AppendLevel(level, result.Samples, onlyWhileRunning: true);
        return level;
    }

    private static double OrZero(double value) => LevelFigures.OrZero(value);

    internal static ProgressEvent LevelEvent(RunEntity run, Cell cell, LevelEntity level, LatencyStatistics stats) =>
        new(ProgressEvents.LevelCompleted, run.Id, run.CompletedLevels, run.TotalLevels)
        {
            Variant = cell.Endpoint.Name,
            Client = cell.ClientId,
            Payload = cell.Payload.Id,
            Repetition = level.Repetition,
            Clients = level.Clients,
            Requests = stats.Requests,
            Errors = stats.Errors,
            ThroughputRps = stats.ThroughputRps,
            MeanMs = OrZero(stats.MeanMs),
        };

    internal static string PartialReason(LevelPlan plan, TimeSpan wall) => plan.Duration is { } duration
        ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"cancelled after {wall.TotalSeconds:0.0} s of a {duration.TotalSeconds:0.#} s level (warm-up included)")
        : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"cancelled after {wall.TotalSeconds:0.0} s, before its {plan.RequestsPerClient} requests per client");

    internal static string FailedReason(Cell cell, LevelPlan plan, TimeSpan wall, LoadClientException failure)
    {
        var of = plan.Duration is { } duration
            ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"of a {duration.TotalSeconds:0.#} s level (warm-up included)")
            : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"before its {plan.RequestsPerClient} requests per client");
        return string.Create(System.Globalization.CultureInfo.InvariantCulture, $"the {cell.ClientId} client failed after {wall.TotalSeconds:0.0} s {of}: {failure.Message}");
    }
}
