using System.Text.Json;
using Dashboard.Data.Entities;

namespace Dashboard.Web.Api;

/// <summary>A run as the HTTP API answers it.</summary>
/// <param name="Id">Run id.</param>
/// <param name="Name">The run's name: the one a user gave it (PATCH), else its scenario's name.</param>
/// <param name="Status">Queued, Scheduled, Running, Completed, Failed, Cancelled or Interrupted.</param>
/// <param name="CreatedUtc">When it was queued (also for a scheduled run).</param>
/// <param name="StartedUtc">When it started.</param>
/// <param name="EndedUtc">When it ended.</param>
/// <param name="CompletedLevels">Levels finished.</param>
/// <param name="TotalLevels">Levels of the whole run (known once the runner started).</param>
/// <param name="Progress">Human-readable progress.</param>
/// <param name="Error">Why it failed or stopped.</param>
/// <param name="Permalink">The run page.</param>
/// <param name="SamplesCsv">Raw samples as CSV.</param>
/// <param name="LevelsCsv">Per-level aggregates as CSV.</param>
/// <param name="Scenario">The scenario document that is run.</param>
public sealed record RunResource(
    int Id, string Name, string Status, DateTime CreatedUtc, DateTime? StartedUtc, DateTime? EndedUtc,
    int CompletedLevels, int TotalLevels, string? Progress, string? Error,
    string Permalink, string SamplesCsv, string LevelsCsv, JsonElement Scenario)
{
    /// <summary>The name of the scenario the run ran.</summary>
    public string ScenarioName { get; init; } = "";

    /// <summary>A user's notes on the run, or null.</summary>
    public string? Notes { get; init; }

    /// <summary>For a scheduled run: when it is due (UTC).</summary>
    public DateTime? ScheduledUtc { get; init; }

    /// <summary>Per-level aggregates over repetitions as CSV.</summary>
    public string AggregatesCsv => $"/api/runs/{Id}/aggregates.csv";

    /// <summary>Where the run was measured (JSON; <c>environment.json</c> for a download beside the CSVs).</summary>
    public string Environment => $"/api/runs/{Id}/environment";

    /// <summary>The open levels' latency-vs-throughput curves and the highest rate meeting the p99 target (JSON; no curves for a closed run).</summary>
    public string OpenSweep => $"/api/runs/{Id}/open-sweep";

    /// <summary>The run as a result bundle (ZIP: scenario, environment, levels, raw samples, product version and commit, reproduce command).</summary>
    public string Bundle => $"/api/runs/{Id}/bundle";

    /// <summary>For a run imported from a result bundle: where it came from (the original run id, when it was exported, by which product); null for a run measured here.</summary>
    public JsonElement? Imported { get; init; }

    /// <summary>
    /// The plan's expected wall time made when the run was queued (the figure New run and Home show; issue #36), with its
    /// range; null for runs queued before estimates were kept and for imported runs.
    /// </summary>
    public RunEstimate? Estimate { get; init; }

    /// <summary>Ranking tables (JSON).</summary>
    public string Rankings => $"/api/runs/{Id}/rankings";

    /// <summary>The resource of <paramref name="run"/>.</summary>
    public static RunResource From(RunEntity run)
    {
        ArgumentNullException.ThrowIfNull(run);
        using var scenario = JsonDocument.Parse(run.ScenarioJson);
        return new RunResource(
            run.Id, run.Name ?? run.ScenarioName, run.Status.ToString(), run.CreatedUtc, run.StartedUtc, run.EndedUtc,
            run.CompletedLevels, run.TotalLevels, run.ProgressText, run.Error,
            $"/runs/{run.Id}", $"/api/runs/{run.Id}/samples.csv", $"/api/runs/{run.Id}/levels.csv", scenario.RootElement.Clone())
        {
            ScenarioName = run.ScenarioName,
            Notes = run.Notes,
            ScheduledUtc = run.ScheduledUtc,
            Imported = run.ImportedJson is null ? null : JsonDocument.Parse(run.ImportedJson).RootElement.Clone(),
            Estimate = run.EstimatedSeconds is { } seconds ? new RunEstimate(seconds, run.EstimatedLowSeconds, run.EstimatedHighSeconds) : null,
        };
    }
}

/// <summary>A run's duration estimate as the API answers it.</summary>
/// <param name="Seconds">Expected wall time, s (start of the run to its end).</param>
/// <param name="LowSeconds">The low end of its range, s, or null.</param>
/// <param name="HighSeconds">The high end of its range, s, or null.</param>
public sealed record RunEstimate(double Seconds, double? LowSeconds, double? HighSeconds);
