using Dashboard.Data.Entities;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Queries;

/// <summary>Reads the server resource time series of runs.</summary>
public static class ResourceQueries
{
    /// <summary>
    /// The resource readings of run <paramref name="runId"/>, untracked, in time order
    /// (<see cref="ResourceSampleEntity.OffsetMs"/>, ms since the run started). Empty when there are none.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="db"/> is null.</exception>
    public static async Task<IReadOnlyList<ResourceSampleEntity>> GetResourceSeriesAsync(
        this ResultsDbContext db, int runId, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(db);
        return await db.ResourceSamples
            .AsNoTracking()
            .Where(r => r.RunId == runId)
            .OrderBy(r => r.OffsetMs)
            .ThenBy(r => r.Id)
            .ToListAsync(cancellationToken);
    }
}
