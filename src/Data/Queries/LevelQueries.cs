using Dashboard.Data.Entities;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Queries;

/// <summary>Reads the per-level aggregates the runner stored.</summary>
public static class LevelQueries
{
    /// <summary>
    /// The levels of run <paramref name="runId"/>, untracked, ordered by variant, client, payload,
    /// clients (the concurrency level), then repetition. Empty when the run has none or does not exist.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> is null.</exception>
    public static async Task<IReadOnlyList<LevelEntity>> GetLevelsAsync(
        this ResultsDbContext db, int runId, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(db);
        return await db.Levels
            .AsNoTracking()
            .Where(l => l.RunId == runId)
            .OrderBy(l => l.Variant)
            .ThenBy(l => l.Client)
            .ThenBy(l => l.Payload)
            .ThenBy(l => l.Clients)
            .ThenBy(l => l.Repetition)
            .ThenBy(l => l.Id)
            .ToListAsync(cancellationToken);
    }
}
