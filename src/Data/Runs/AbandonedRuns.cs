using System.Globalization;
using System.Text.Json;
using Dashboard.Data.Entities;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Runs;

/// <summary>
/// Finds runs a runner left <c>Running</c> when it was killed (SIGKILL, out of memory, power loss) and marks them
/// <see cref="RunStatus.Interrupted"/> with the reason. A runner records its process (<see cref="ProcessIdentity"/>) in
/// its run's <c>EnvironmentJson</c> under <see cref="RunnerProcessProperty"/>; a run whose recorded runner no longer
/// runs cannot end otherwise. Called by every runner when it starts (after it took the machine lock) and by the
/// dashboard at start-up (docs/web.md, "Restart safety"). Levels are stored with their samples in one transaction, so
/// what a killed runner left is whole: its levels and samples are kept as they are.
/// </summary>
public static class AbandonedRuns
{
    /// <summary>The property of a run's <c>EnvironmentJson</c> that holds its runner's <see cref="ProcessIdentity"/>.</summary>
    public const string RunnerProcessProperty = "runnerProcess";

    /// <summary>The runner process recorded in <paramref name="environmentJson"/>, or null when none is.</summary>
    public static ProcessIdentity? RunnerOf(string? environmentJson)
    {
        if (string.IsNullOrEmpty(environmentJson))
        {
            return null;
        }

        try
        {
            using var document = JsonDocument.Parse(environmentJson);
            return document.RootElement.ValueKind == JsonValueKind.Object
                && document.RootElement.TryGetProperty(RunnerProcessProperty, out var process)
                && process.ValueKind == JsonValueKind.Object
                ? process.Deserialize<ProcessIdentity>(JsonSerializerOptions.Web)
                : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>
    /// Marks every <c>Running</c> run whose recorded runner process no longer runs as Interrupted: the error names the
    /// process and how far the run got, <c>CompletedLevels</c> becomes the number of levels stored, and the end time is
    /// the end of its last stored level (or its start). Runs without a recorded runner (a dashboard's own rows) are
    /// left alone, and so are runs whose runner ran on another machine (a shared PostgreSQL results database).
    /// </summary>
    /// <returns>The runs marked, as stored.</returns>
    public static async Task<IReadOnlyList<RunEntity>> MarkAsync(ResultsDbContext db, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        var running = await db.Runs.Where(r => r.Status == RunStatus.Running).ToListAsync(cancellationToken);
        var marked = new List<RunEntity>();
        foreach (var run in running)
        {
            // A runner of another machine that shares the database (PostgreSQL) is not judged here: its pid means nothing on this one.
            if (RunnerOf(run.EnvironmentJson) is not { } runner || !runner.IsOnThisMachine() || runner.IsAlive())
            {
                continue;
            }

            var levels = await db.Levels.Where(l => l.RunId == run.Id).CountAsync(cancellationToken);
            var lastEnd = await db.Levels.Where(l => l.RunId == run.Id).MaxAsync(l => (DateTime?)l.EndedUtc, cancellationToken);
            var where = string.IsNullOrEmpty(run.ProgressText) ? "" : $"; it was at {run.ProgressText}";
            run.Status = RunStatus.Interrupted;
            run.CompletedLevels = levels;
            run.EndedUtc = lastEnd ?? run.StartedUtc ?? run.CreatedUtc;
            run.ProgressText = null;
            run.Error = string.Create(CultureInfo.InvariantCulture,
                $"the runner (process {runner.Pid}) ended without finishing the run (killed or crashed) after {levels} of {run.TotalLevels} levels{where}; the levels stored before are kept with their samples");
            marked.Add(run);
        }

        if (marked.Count > 0)
        {
            await db.SaveChangesAsync(cancellationToken);
        }

        return marked;
    }
}
