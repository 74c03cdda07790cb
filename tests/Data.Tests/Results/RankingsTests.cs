using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Results;

public sealed class RankingsTests
{
    private static readonly RankingOptions Defaults = new();
    private static readonly JsonSerializerOptions WebJson = new(JsonSerializerDefaults.Web);

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
        // On ln of the repetitions' values (SampleTests.Difference): t = 0.61, ν = 4.0, p = 0.57.
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
        Assert.Null(table.Entries[0].Test);
        Assert.Equal("AspNetH2BinXml × dotnet", table.Entries[1].TestedAgainst);
        Assert.Equal(DifferenceVerdict.NoDifference, table.Entries[1].Test!.Verdict);
        Assert.Equal("AspNetH2BinXml × dotnet", table.Entries[2].TestedAgainst);
        Assert.Equal(DifferenceVerdict.Differs, table.Entries[2].Test!.Verdict);
    }

    [Fact]
    public void Compute_DifferenceJustBeyondNoise_SeparateRanks()
    {
        // On ln of the repetitions' values: t = 2.97, ν = 3.59, p = 0.047 < 0.05.
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [10, 12, 14]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [15, 17, 19]));

        var table = Rankings.Compute(levels, Defaults).Single(t => t.Metric == RankingMetric.Throughput);

        Assert.Equal([1, 2], table.Entries.Select(e => e.Rank));
        Assert.All(table.Entries, e => Assert.False(e.TiedWithinNoise));
        Assert.Equal(DifferenceVerdict.Differs, table.Entries[1].Test!.Verdict);
        Assert.InRange(table.Entries[1].Test!.PValue!.Value, 0.04, 0.05);
    }

    // R's t.test(extra ~ group, data = sleep) prints t = -1.8608, df = 17.776, p-value = 0.07939 (SampleTestsTests).
    // Ten repetitions whose throughputs are e^extra: the logs are R's data, so the ranking's tie test must print R's
    // numbers, and at 5 % the two entries share a rank.
    [Fact]
    public void Compute_TenRepetitionsWhoseLogsAreTheRSleepData_TiedWithRsPublishedWelchTest()
    {
        double[] group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
        double[] group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [.. group1.Select(Math.Exp)]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [.. group2.Select(Math.Exp)]));

        var table = Rankings.Compute(levels, Defaults).Single(t => t.Metric == RankingMetric.Throughput);

        Assert.Equal(["AspNetH2BinXml × dotnet", "IceTcp × java"], table.Entries.Select(e => e.Name));
        Assert.Equal([1, 1], table.Entries.Select(e => e.Rank));
        var test = table.Entries[1].Test!;
        Assert.Equal(-1.8608, test.T!.Value, tolerance: 5e-5);
        Assert.Equal(17.776, test.DegreesOfFreedom!.Value, tolerance: 5e-4);
        Assert.Equal(0.07939, test.PValue!.Value, tolerance: 5e-6);
        Assert.Equal((10, 10), (test.BaselineN, test.CandidateN));
    }

    [Fact]
    public void Compute_EntryOverTwoLevels_OneObservationPerRepetitionNotPerLevel()
    {
        // Repetition r of both levels ran in round r: the entry's observations are the rounds' means over its levels
        // (200, 220, 240), n = 3 and ν = 2, not the levels taken as independent measurements.
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [100, 120, 140]),
            ("IceTcp", "java", "Int", 50, [300, 320, 340]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [90, 95, 100]),
            ("AspNetH2BinXml", "dotnet", "Int", 50, [290, 300, 310]));

        var table = Rankings.Compute(levels, Defaults).Single(t => t.Metric == RankingMetric.Throughput);

        var ice = table.Entries[0];
        var rounds = Estimate.Of([200, 220, 240]);
        Assert.Equal("IceTcp × java", ice.Name);
        Assert.Equal(220, ice.Value, 9);
        Assert.Equal(3, ice.Estimate.N);
        Assert.Equal(2, ice.Estimate.DegreesOfFreedom);
        Assert.Equal(rounds.Low95, ice.Estimate.Low95, 9);
        Assert.Equal(rounds.High95, ice.Estimate.High95, 9);
        Assert.Equal(2, ice.Levels);
        // 220 vs 197.5 with three rounds each: the noise explains it.
        Assert.Equal([1, 1], table.Entries.Select(e => e.Rank));
    }

    [Fact]
    public void Compute_ThreeLaunchesOfTwoRepetitions_OneObservationPerLaunch()
    {
        // Launch means 105, 205, 155 against 1005, 1105, 1055: three observations a side, clearly apart.
        List<LevelEntity> stored = [];
        foreach (var (variant, client, offset) in new[] { ("IceTcp", "java", 0.0), ("AspNetH2BinXml", "dotnet", 900.0) })
        {
            double[] values = [100, 110, 200, 210, 150, 160];
            for (var r = 0; r < values.Length; r++)
            {
                var level = Levels.Stored(variant, client, "Int", 20, r, values[r] + offset, 1000 / (values[r] + offset));
                level.Launch = (r / 2) + 1;
                stored.Add(level);
            }
        }

        var table = Rankings.Compute(LevelAggregation.Aggregate(stored), Defaults).Single(t => t.Metric == RankingMetric.Throughput);

        Assert.Equal(["AspNetH2BinXml × dotnet", "IceTcp × java"], table.Entries.Select(e => e.Name));
        Assert.All(table.Entries, e => Assert.Equal(3, e.Estimate.N));
        Assert.Equal(Estimate.Of([105, 205, 155]).High95, table.Entries[1].Estimate.High95, 9);
        Assert.Equal((3, 3), (table.Entries[1].Test!.BaselineN, table.Entries[1].Test!.CandidateN));
        Assert.Equal([1, 2], table.Entries.Select(e => e.Rank));
    }

    [Fact]
    public void Compute_EntriesWithoutSpread_DifferAndTheTablesSerializeToJson()
    {
        // Two equal repetitions on each side: no spread, the difference is exact and t infinite; the rankings API writes
        // the tables as JSON, which has no infinity.
        var levels = Levels.Aggregates(
            ("IceTcp", "java", "Int", 20, [100, 100]),
            ("AspNetH2BinXml", "dotnet", "Int", 20, [120, 120]));

        var tables = Rankings.Compute(levels, Defaults);

        var table = tables.Single(t => t.Metric == RankingMetric.Throughput);
        Assert.Equal([1, 2], table.Entries.Select(e => e.Rank));
        Assert.Equal(DifferenceVerdict.Differs, table.Entries[1].Test!.Verdict);
        var json = JsonSerializer.Serialize(tables, WebJson);
        Assert.Contains("\"testedAgainst\":\"AspNetH2BinXml", json, StringComparison.Ordinal);
        Assert.Contains("\"t\":null", json, StringComparison.Ordinal);
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
