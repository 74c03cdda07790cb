using Dashboard.Data.Results;
using MudBlazor;

namespace Dashboard.Web.Results;

/// <summary>One page of the per-level table, sorted on the server (pure: unit-tested without a browser).</summary>
public static class LevelTablePages
{
    /// <summary>
    /// Page <paramref name="page"/> (from 0) of <paramref name="rows"/>, <paramref name="pageSize"/> rows, sorted by
    /// <paramref name="sort"/> (a key and whether descending; null keeps the given order: variant, client, payload, clients).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="page"/> is negative or <paramref name="pageSize"/> is not positive.</exception>
    public static GridData<LevelAggregate> Page(IReadOnlyList<LevelAggregate> rows, int page, int pageSize, (Func<LevelAggregate, object?>? Key, bool Descending)? sort)
    {
        ArgumentNullException.ThrowIfNull(rows);
        ArgumentOutOfRangeException.ThrowIfNegative(page);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(pageSize);
        IEnumerable<LevelAggregate> ordered = rows;
        if (sort is { Key: { } key } s)
        {
            ordered = s.Descending ? rows.OrderByDescending(key, Comparer<object?>.Default) : rows.OrderBy(key, Comparer<object?>.Default);
        }

        return new GridData<LevelAggregate> { Items = [.. ordered.Skip(page * pageSize).Take(pageSize)], TotalItems = rows.Count };
    }
}
