using System.Text.Json;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Runs;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Service.Contracts.Scenarios;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Execution;

/// <summary>What the runner decided about a run before its first level: recorded with the run.</summary>
/// <param name="EnvironmentJson">The run's environment (<see cref="RunEnvironment"/>, JSON), with this runner's process.</param>
/// <param name="TotalLevels">Levels the run will measure.</param>
/// <param name="Topology">Where the host runs relative to the generator.</param>
/// <param name="LinkRateMbps">The emulated link's rate, or null.</param>
/// <param name="OrderSeed">The seed of the cell order, or null (scenario order).</param>
internal sealed record RunFacts(string EnvironmentJson, int TotalLevels, string Topology, int? LinkRateMbps, int? OrderSeed);

/// <summary>
/// The run's row as this runner holds it: one owner per run (docs/architecture.md, "One owner per run").
/// <list type="bullet">
/// <item>Headless (no <c>--run-id</c>): the runner owns the row. It makes it Running, writes its progress with each level
/// and ends it (<see cref="Owned"/>: the entity is tracked, so the executor's saves write it).</item>
/// <item>Run by the dashboard (<c>--run-id N</c>): the dashboard owns the row's lifecycle (status, times, reason, progress). The
/// runner reads the row, never writes it (the entity is not tracked), adds levels and samples to it, and reports the rest as
/// events: <c>run-started</c> carries <see cref="RunFacts"/>, <c>run-ended</c> the status and reason.</item>
/// </list>
/// Either way a level is stored only while the row is Running (<c>SampleStore.AppendLevel(..., onlyWhileRunning: true)</c>).
/// </summary>
internal sealed class RunRecord
{
    private RunRecord(RunEntity run, bool owned)
    {
        Run = run;
        Owned = owned;
    }

    /// <summary>The run: the tracked row when <see cref="Owned"/>, else an untracked copy the runner keeps its counters in.</summary>
    public RunEntity Run { get; }

    /// <summary>True when this runner writes the row (headless); false when the dashboard does.</summary>
    public bool Owned { get; }

    /// <summary>Headless: makes the run's row, Running, with <paramref name="facts"/>.</summary>
    public static async Task<RunRecord> CreateAsync(ResultsDbContext db, ScenarioDocument scenario, RunFacts facts)
    {
        var now = DateTime.UtcNow;
        var run = new RunEntity
        {
            ScenarioName = scenario.Name,
            ScenarioJson = ScenarioLoader.ToJson(scenario),
            Status = RunStatus.Running,
            CreatedUtc = now,
            StartedUtc = now,
        };
        Apply(run, facts);
        db.Runs.Add(run);
        await db.SaveChangesAsync(CancellationToken.None);
        return new RunRecord(run, owned: true);
    }

    /// <summary>
    /// Run by the dashboard: reads row <paramref name="id"/>, which the dashboard has marked Running before it started this
    /// runner, and writes nothing to it.
    /// </summary>
    /// <exception cref="ScenarioException">Field <c>--run-id</c>: no such row, the row is not Running (queued, or ended,
    /// Interrupted included), or another live runner works on it; nothing is stored.</exception>
    public static async Task<RunRecord> ReadStartedAsync(ResultsDbContext db, int id, RunFacts facts)
    {
        // The context may track the row already (AbandonedRuns read every Running run): an untracked copy is never written.
        db.ChangeTracker.Clear();
        var run = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == id, CancellationToken.None)
            ?? throw new ScenarioException("--run-id", $"no run has id {id} in this database");
        if (run.Status != RunStatus.Running
            || (AbandonedRuns.RunnerOf(run.EnvironmentJson) is { } other && other.IsAlive() && other.Pid != Environment.ProcessId))
        {
            throw new ScenarioException("--run-id",
                $"run {id} is {run.Status}{(run.Status == RunStatus.Running ? " with another live runner" : "")}; the runner measures only a run its dashboard has started (Running, without a runner); re-queue an ended run as a new one");
        }

        Apply(run, facts);
        run.CompletedLevels = 0;
        return new RunRecord(run, owned: false);
    }

    /// <summary>The <c>run-started</c> event: the run's id and level count, and the facts the dashboard records with the run.</summary>
    public ProgressEvent Started()
    {
        using var environment = Run.EnvironmentJson is null ? null : JsonDocument.Parse(Run.EnvironmentJson);
        return new ProgressEvent(ProgressEvents.RunStarted, Run.Id, 0, Run.TotalLevels)
        {
            Environment = environment?.RootElement.Clone(),
            Topology = Run.Topology,
            LinkRateMbps = Run.LinkRateMbps,
            OrderSeed = Run.OrderSeed,
        };
    }

    private static void Apply(RunEntity run, RunFacts facts)
    {
        run.EnvironmentJson = facts.EnvironmentJson;
        run.TotalLevels = facts.TotalLevels;
        run.Topology = facts.Topology;
        run.LinkRateMbps = facts.LinkRateMbps;
        run.OrderSeed = facts.OrderSeed;
    }
}
