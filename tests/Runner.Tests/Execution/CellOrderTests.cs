using Dashboard.Runner.Execution;

namespace Dashboard.Runner.Tests.Execution;

public sealed class CellOrderTests
{
    [Fact]
    public void ForRepetitions_SameSeed_SameOrderAndEachRepetitionAPermutation()
    {
        string[] cells = ["a", "b", "c", "d", "e"];

        var first = CellOrder.ForRepetitions(cells, 4, 99);
        var again = CellOrder.ForRepetitions(cells, 4, 99);

        Assert.Equal(4, first.Count);
        Assert.Equal(first.SelectMany(o => o), again.SelectMany(o => o));
        Assert.All(first, o => Assert.Equal(cells, o.Order(StringComparer.Ordinal)));
    }

    [Fact]
    public void ForRepetitions_ManySeeds_EveryCellIsSometimesFirst()
    {
        // A randomized order: over 200 seeds, no cell is always first (Mytkowicz et al. 2009: order changes results).
        string[] cells = ["a", "b", "c"];

        var firsts = Enumerable.Range(0, 200).Select(seed => CellOrder.ForRepetitions(cells, 1, seed)[0][0]).ToHashSet();

        Assert.Equal(cells, firsts.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void ForLaunches_SameSeed_SameOrderEveryRepetitionAPermutationOfCellsAndLevels()
    {
        string[] cells = ["a", "b", "c"];
        int[] levels = [1, 20, 50];

        var first = CellOrder.ForLaunches(cells, levels, 2, 3, 42);
        var again = CellOrder.ForLaunches(cells, levels, 2, 3, 42);
        var other = CellOrder.ForLaunches(cells, levels, 2, 3, 43);

        Assert.Equal(6, first.Count);
        Assert.Equal(first.SelectMany(o => o), again.SelectMany(o => o));
        Assert.NotEqual(first.SelectMany(o => o), other.SelectMany(o => o));
        var all = cells.SelectMany(c => levels.Select(l => $"{c}{l}")).Order(StringComparer.Ordinal).ToList();
        Assert.All(first, o => Assert.Equal(all, o.Select(u => $"{u.Cell}{u.Clients}").Order(StringComparer.Ordinal)));
    }

    [Fact]
    public void ForLaunches_ManySeeds_LevelsNotAlwaysAscending()
    {
        // Concurrency levels are shuffled too: over 50 seeds, some repetition runs a cell's 50-client level before its 1-client one.
        var descending = Enumerable.Range(0, 50).Count(seed =>
        {
            var order = CellOrder.ForLaunches(["a"], [1, 50], 1, 1, seed)[0];
            return order[0].Clients == 50;
        });

        Assert.InRange(descending, 1, 49);
    }

    [Fact]
    public void ForLaunches_LevelsNotShuffled_CellsAsForRepetitionsEachWithItsLevelsInOrder()
    {
        string[] cells = ["a", "b", "c"];

        var order = CellOrder.ForLaunches(cells, [1, 20], 1, 3, 5, shuffleLevels: false);

        var cellOrder = CellOrder.ForRepetitions(cells, 3, 5);
        Assert.Equal(cellOrder.SelectMany(o => o.SelectMany(c => new[] { (c, 1), (c, 20) })), order.SelectMany(o => o));
    }

    [Fact]
    public void ForLaunches_NoSeed_ScenarioOrderCellsThenLevelsAscending()
    {
        var order = CellOrder.ForLaunches(["a", "b"], [1, 10], 2, 1, null);

        Assert.Equal(2, order.Count);
        Assert.All(order, o => Assert.Equal([("a", 1), ("a", 10), ("b", 1), ("b", 10)], o));
    }
}
