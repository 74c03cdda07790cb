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

    /// <summary>
    /// The order of a run with launches (docs/statistics.md, "Launches"): one list per repetition of every launch
    /// (index i = launch i ÷ <paramref name="repetitions"/> + 1), each holding every (cell, level) pair once. With
    /// <paramref name="shuffleLevels"/> (a scenario with a steady-state warm-up before each level, which keeps a random
    /// order honest) the pairs are shuffled together, so concurrency levels run in a random order too; without it the cells
    /// are shuffled as <see cref="ForRepetitions{T}"/> does (the same order for the same seed as before) and each cell runs
    /// its levels in the scenario's order. The same <paramref name="seed"/> gives the same order; a null seed gives the
    /// scenario's order (cells as listed, levels as listed) every repetition.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="cells"/> or <paramref name="levels"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="launches"/> or <paramref name="repetitions"/> is below 1.</exception>
    public static IReadOnlyList<IReadOnlyList<(T Cell, int Clients)>> ForLaunches<T>(IReadOnlyList<T> cells, IReadOnlyList<int> levels, int launches, int repetitions, int? seed, bool shuffleLevels = true)
    {
        ArgumentNullException.ThrowIfNull(cells);
        ArgumentNullException.ThrowIfNull(levels);
        ArgumentOutOfRangeException.ThrowIfLessThan(launches, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(repetitions, 1);
        var count = launches * repetitions;
        (T Cell, int Clients)[] Units(IEnumerable<T> ordered) => [.. ordered.SelectMany(c => levels.Select(l => (c, l)))];
        if (seed is not { } s)
        {
            return [.. Enumerable.Repeat<IReadOnlyList<(T, int)>>(Units(cells), count)];
        }

        return shuffleLevels
            ? ForRepetitions(Units(cells), count, s)
            : [.. ForRepetitions(cells, count, s).Select(order => (IReadOnlyList<(T, int)>)Units(order))];
    }
}
