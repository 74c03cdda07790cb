using Dashboard.Data.Results;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Results;

public sealed class RankingsTests
{
    private static readonly RankingOptions Defaults = new();

    [Fact]
    public void Compute_SeparatedThroughputs_RanksBestFirstWithoutTies()
    {
        var levels = Levels.Aggregates(
            ("MetroSoap11", "java", "Int", 20, [100, 101, 102]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [1000, 1010, 1020]),
            ("AspNetHttpJson", "dotnet", "Int", 20, [500, 505, 510]));

        var tables = Rankings.Compute(levels, Defaults);

        var throughput = Assert.Single(tables, t => t.Metric == RankingMetric.Throughput);
        Assert.Equal(["AspNetH2BinXml × dotnet", "AspNetHttpJson × dotnet", "MetroSoap11 × java"], throughput.Entries.Select(e => e.Name));
        Assert.Equal([1, 2, 3], throughput.Entries.Select(e => e.Rank));
        Assert.All(throughput.Entries, e => Assert.False(e.TiedWithinNoise));
        Assert.All(throughput.Entries, e => Assert.Equal("req/s", e.Unit));
        Assert.Equal(1010, throughput.Entries[0].Value, 9);
        Assert.True(throughput.HasNoiseEstimate);
        Assert.Null(throughput.Note);
        Assert.Equal("Small", throughput.Scope);
        Assert.False(throughput.Secure);

        // Response time = 1000 / throughput per repetition: lowest first, same order.
        var responseTime = Assert.Single(tables, t => t.Metric == RankingMetric.ResponseTime);
        Assert.Equal(["AspNetH2BinXml × dotnet", "AspNetHttpJson × dotnet", "MetroSoap11 × java"], responseTime.Entries.Select(e => e.Name));
        Assert.Equal("ms", responseTime.Entries[0].Unit);
        Assert.Equal((1000.0 / 1000 + 1000.0 / 1010 + 1000.0 / 1020) / 3, responseTime.Entries[0].Value, 12);
    }

    [Fact]
    public void Compute_DifferenceInsideNoise_SharesRankAndSaysWithWhom()
    {
        // A: mean 110, s = 10; B: mean 115, s = 10: t = 5 / √(200/3) = 0.61, far below t(0.975, 4) = 2.78.
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [100, 110, 120]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [105, 115, 125]),
            ("MetroSoap11", "java", "Int", 20, [10, 11, 12]));

        var table = Rankings.Compute(levels, Defaults).Single(t => t.Metric == RankingMetric.Throughput);

        Assert.Equal(["AspNetH2BinXml × dotnet", "IceTcp × java", "MetroSoap11 × java"], table.Entries.Select(e => e.Name));
        Assert.Equal([1, 1, 3], table.Entries.Select(e => e.Rank));
        Assert.True(table.Entries[0].TiedWithinNoise);
        Assert.True(table.Entries[1].TiedWithinNoise);
        Assert.False(table.Entries[2].TiedWithinNoise);
        Assert.StartsWith("tied with IceTcp × java within noise", table.Entries[0].TieNote, StringComparison.Ordinal);
        Assert.StartsWith("tied with AspNetH2BinXml × dotnet within noise", table.Entries[1].TieNote, StringComparison.Ordinal);
        Assert.Null(table.Entries[2].TieNote);
    }

    [Fact]
    public void Compute_DifferenceJustBeyondNoise_SeparateRanks()
    {
        // Means 17 and 12, SE² = 4/3 each, ν = 4: t = 3.06 > 2.78.
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [10, 12, 14]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [15, 17, 19]));

        var table = Rankings.Compute(levels, Defaults).Single(t => t.Metric == RankingMetric.Throughput);

        Assert.Equal([1, 2], table.Entries.Select(e => e.Rank));
        Assert.All(table.Entries, e => Assert.False(e.TiedWithinNoise));
    }

    [Fact]
    public void Compute_OneRepetition_NoTiesAndTableSaysSo()
    {
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [100]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [100.5]));

        var tables = Rankings.Compute(levels, Defaults);

        Assert.All(tables, t =>
        {
            Assert.Equal([1, 2], t.Entries.Select(e => e.Rank));
            Assert.All(t.Entries, e => Assert.False(e.TiedWithinNoise));
            Assert.False(t.HasNoiseEstimate);
            Assert.Contains("one repetition", t.Note, StringComparison.Ordinal);
            Assert.All(t.Entries, e => Assert.Equal(e.Value, e.Estimate.Low95));
        });
        Assert.Equal("AspNetH2BinXml × dotnet", tables.Single(t => t.Metric == RankingMetric.Throughput).Entries[0].Name);
    }

    [Fact]
    public void Compute_LevelsBelowFromClients_Ignored()
    {
        // IceTcp wins at 1 and 10 clients, loses from 20 on.
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 1, [5000]),
            ("IceTcp", "java", "Int", 10, [5000]),
            ("IceTcp", "java", "Int", 20, [100]),
            ("IceTcp", "java", "Int", 50, [200]),
            ("AspNetH2BinXml", "dotnet", "Int", 1, [10]),
            ("AspNetH2BinXml", "dotnet", "Int", 10, [10]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [300]),
            ("AspNetH2BinXml", "dotnet", "Int", 50, [300]));

        var table = Rankings.Compute(levels, Defaults).Single(t => t.Metric == RankingMetric.Throughput);

        Assert.Equal(["AspNetH2BinXml × dotnet", "IceTcp × java"], table.Entries.Select(e => e.Name));
        Assert.Equal(150, table.Entries[1].Value, 12);
        Assert.Equal([20, 50], table.ClientLevels);
        Assert.Equal(20, table.FromClients);
        Assert.All(table.Entries, e => Assert.Equal(2, e.Levels));

        var all = Rankings.Compute(levels, new RankingOptions(FromClients: 1)).Single(t => t.Metric == RankingMetric.Throughput);
        Assert.Equal(["IceTcp × java", "AspNetH2BinXml × dotnet"], all.Entries.Select(e => e.Name));
        Assert.Equal((5000 + 5000 + 100 + 200) / 4.0, all.Entries[0].Value, 12);
    }

    [Fact]
    public void Compute_NoLevelFromClients_Empty()
    {
        var levels = Levels.Aggregates(("IceTcp", "java", "Int", 10, [100]));

        Assert.Empty(Rankings.Compute(levels, Defaults));
    }

    [Fact]
    public void Compute_SecureAndUnsecure_SeparateTables()
    {
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [1000]),
            ("MetroSoap11", "java", "Int", 20, [600]),
            ("IceSsl", "java", "Int", 20, [800]),
            ("MetroSoap11Https", "java", "Int", 20, [300]));

        var throughput = Rankings.Compute(levels, Defaults).Where(t => t.Metric == RankingMetric.Throughput).ToList();

        Assert.Equal([false, true], throughput.Select(t => t.Secure));
        Assert.Equal(["IceTcp × java", "MetroSoap11 × java"], throughput[0].Entries.Select(e => e.Name));
        Assert.Equal(["IceSsl × java", "MetroSoap11Https × java"], throughput[1].Entries.Select(e => e.Name));
        Assert.All(throughput[1].Entries, e => Assert.True(e.IsSecure));
        Assert.Contains("unsecure variants", throughput[0].Title, StringComparison.Ordinal);
        Assert.Contains("secure variants", throughput[1].Title, StringComparison.Ordinal);

        var together = Rankings.Compute(levels, new RankingOptions(SplitBySecurity: false)).Single(t => t.Metric == RankingMetric.Throughput);
        Assert.Null(together.Secure);
        Assert.Equal(["IceTcp × java", "IceSsl × java", "MetroSoap11 × java", "MetroSoap11Https × java"], together.Entries.Select(e => e.Name));
    }

    [Fact]
    public void Compute_TwoPayloadClasses_TablePerClassAndOverall()
    {
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [100]),
            ("IceTcp", "java", "IntArray1000", 20, [50]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [90]),
            ("AspNetH2BinXml", "dotnet", "IntArray1000", 20, [70]));

        var throughput = Rankings.Compute(levels, Defaults).Where(t => t.Metric == RankingMetric.Throughput).ToList();

        Assert.Equal(["Small", "Large", "overall"], throughput.Select(t => t.Scope));
        Assert.Equal("IceTcp × java", throughput[0].Entries[0].Name);
        Assert.Equal("AspNetH2BinXml × dotnet", throughput[1].Entries[0].Name);
        Assert.Equal(["AspNetH2BinXml × dotnet", "IceTcp × java"], throughput[2].Entries.Select(e => e.Name));
        Assert.Equal([80, 75], throughput[2].Entries.Select(e => e.Value));
        Assert.Equal(["Int", "IntArray1000"], throughput[2].Payloads);
        Assert.Contains("small datasets", throughput[0].Title, StringComparison.Ordinal);
    }

    [Fact]
    public void Compute_EntryMissingALevel_ComparesOnCommonLevels()
    {
        // node lacks the 50-client level: both are compared on 20 clients only.
        var levels = Levels.Aggregates(
            ("MetroSoap11", "java", "Int", 20, [100]),
            ("MetroSoap11", "java", "Int", 50, [1000]),
            ("MetroSoap11", "node", "Int", 20, [200]));

        var table = Rankings.Compute(levels, Defaults).Single(t => t.Metric == RankingMetric.Throughput);

        Assert.Equal(["MetroSoap11 × node", "MetroSoap11 × java"], table.Entries.Select(e => e.Name));
        Assert.Equal([200, 100], table.Entries.Select(e => e.Value));
        Assert.All(table.Entries, e => Assert.Equal(1, e.Levels));
    }

    [Fact]
    public void Compute_LevelWithoutSuccess_LeftOutOfResponseTimeOnly()
    {
        var failed = Levels.Stored("MetroSoap11", "node", "Int", 20, 0, 0, 0);
        failed.Errors = failed.Requests;
        var levels = LevelAggregation.Aggregate([failed, Levels.Stored("MetroSoap11", "java", "Int", 20, 0, 100, 10)]);

        var tables = Rankings.Compute(levels, Defaults);

        Assert.Equal(["MetroSoap11 × java", "MetroSoap11 × node"], tables.Single(t => t.Metric == RankingMetric.Throughput).Entries.Select(e => e.Name));
        Assert.Equal(["MetroSoap11 × java"], tables.Single(t => t.Metric == RankingMetric.ResponseTime).Entries.Select(e => e.Name));
    }
}
