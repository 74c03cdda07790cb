namespace Dashboard.Runner.Execution;

/// <summary>
/// The order in which a run's repetitions visit its cells: repetition r runs every cell once, in an order shuffled
/// (Fisher–Yates, <see cref="Random.Shuffle{T}(T[])"/>) by a <see cref="Random"/> seeded with the run's recorded seed,
/// so the order is random (no cell is always first, after the host started, or after a given neighbour: Mytkowicz et
/// al., "Producing wrong data without doing anything obviously wrong!", ASPLOS 2009; Kalibera &amp; Jones, "Rigorous
/// benchmarking in reasonable time", ISMM 2013) and the same seed gives the same order again.
/// </summary>
public static class CellOrder
{
    /// <summary>One list per repetition (index 0 = repetition 1), each a permutation of <paramref name="cells"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="cells"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="repetitions"/> is negative.</exception>
    public static IReadOnlyList<IReadOnlyList<T>> ForRepetitions<T>(IReadOnlyList<T> cells, int repetitions, int seed)
    {
        ArgumentNullException.ThrowIfNull(cells);
        ArgumentOutOfRangeException.ThrowIfNegative(repetitions);
        var random = new Random(seed);
        var order = new List<IReadOnlyList<T>>(repetitions);
        for (var r = 0; r < repetitions; r++)
        {
            T[] shuffled = [.. cells];
            random.Shuffle(shuffled);
            order.Add(shuffled);
        }

        return order;
    }
}
