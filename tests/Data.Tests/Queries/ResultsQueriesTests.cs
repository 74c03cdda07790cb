using Dashboard.Data.Agents;
using Dashboard.Data.Results;
using Dashboard.Data.Tests.Support;
using Dashboard.Data.Queries;

namespace Dashboard.Data.Tests.Queries;

public sealed class ResultsQueriesTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public async Task LevelAggregatesAsync_ThreeRepetitions_EstimatesSumsAndClassification()
    {
        int runId;
        using (var db = _database.Open())
        {
            var run = TestData.Run();
            var other = TestData.Run("other");
            var levels = new[]
            {
                Levels.Stored("IceSsl", "java", "IntArray1000", 20, 0, 10, 2),
                Levels.Stored("IceSsl", "java", "IntArray1000", 20, 1, 12, 4),
                Levels.Stored("IceSsl", "java", "IntArray1000", 20, 2, 14, 6),
                Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 1, 0, 500, 1),
            };
            levels[0].Errors = levels[0].TimeoutErrors = 3;
            levels[1].Errors = 5;
            levels[1].FaultErrors = 2;
            levels[1].WrongReplyErrors = 3;
            levels[0].MeanRequestBytes = 100;
            levels[2].MeanRequestBytes = 200;
            levels[1].GeneratorCpuPercent = 40;
            foreach (var l in levels)
            {
                l.Run = run;
            }

            db.Levels.AddRange(levels);
            var elsewhere = Levels.Stored("IceSsl", "java", "IntArray1000", 20, 0, 999, 999);
            elsewhere.Run = other;
            db.Levels.Add(elsewhere);
            await db.SaveChangesAsync();
            runId = run.Id;
        }

        using var reader = _database.NewContext();
        var aggregates = await ResultsQueries.LevelAggregatesAsync(reader, runId, CancellationToken.None);

        Assert.Equal(["AspNetH2BinXml", "IceSsl"], aggregates.Select(a => a.Variant));
        var ice = aggregates[1];
        Assert.Equal(3, ice.Repetitions);
        Assert.Equal(12, ice.ThroughputRps.Mean, 12);
        // Log-scale interval (docs/statistics.md): mean · e^(∓t·SE/mean), t(0.975, 2) = 4.302653 (NIST table 4.303), SE = 2/√3.
        Assert.Equal(12 * Math.Exp(-4.302653 * 2 / Math.Sqrt(3) / 12), ice.ThroughputRps.Low95, 1e-4);
        Assert.Equal(4, ice.MeanMs.Mean, 12);
        Assert.Equal(4 * Math.Exp(4.302653 * 2 / Math.Sqrt(3) / 4), ice.MeanMs.High95, 1e-4);
        Assert.Equal(2.0 / 12, ice.ThroughputRps.CoefficientOfVariation!.Value, 1e-12);
        Assert.Equal(8, ice.P90Ms, 12);
        Assert.Equal(20, ice.MaxMs, 12);
        Assert.Equal(3000, ice.Requests);
        Assert.Equal(8, ice.Errors);
        Assert.Equal(3, ice.TimeoutErrors);
        Assert.Equal(2, ice.FaultErrors);
        Assert.Equal(3, ice.WrongReplyErrors);
        Assert.Equal(150, ice.MeanRequestBytes);
        Assert.Null(ice.MeanResponseBytes);
        Assert.Equal(40, ice.GeneratorCpuPercent);
        Assert.True(ice.IsSecure);
        Assert.Equal("Transport", ice.SecurityMode);
        Assert.Equal("Large", ice.PayloadClass);
        Assert.True(ice.HasErrors);

        var aspnet = aggregates[0];
        Assert.False(aspnet.IsSecure);
        Assert.Equal("None", aspnet.SecurityMode);
        Assert.Equal("Small", aspnet.PayloadClass);
        Assert.Equal(new Dashboard.Data.Measurement.Estimate(500, 500, 500, 1), aspnet.ThroughputRps);
    }

    [Fact]
    public async Task LevelAggregatesAsync_RepetitionWithoutSuccess_LeftOutOfResponseTime()
    {
        int runId;
        using (var db = _database.Open())
        {
            var run = TestData.Run();
            var ok = Levels.Stored("MetroSoap11", "node", "Int", 20, 0, 100, 10);
            var failed = Levels.Stored("MetroSoap11", "node", "Int", 20, 1, 0, 0);
            failed.Errors = failed.ConnectionErrors = failed.Requests;
            ok.Run = failed.Run = run;
            db.Levels.AddRange(ok, failed);
            await db.SaveChangesAsync();
            runId = run.Id;
        }

        using var reader = _database.NewContext();
        var aggregate = Assert.Single(await ResultsQueries.LevelAggregatesAsync(reader, runId, CancellationToken.None));

        Assert.Equal(2, aggregate.ThroughputRps.N);
        Assert.Equal(50, aggregate.ThroughputRps.Mean, 12);
        Assert.Equal(1, aggregate.MeanMs.N);
        Assert.Equal(10, aggregate.MeanMs.Mean, 12);
        Assert.Equal(50, aggregate.MaxMs, 12);
        Assert.Equal(1000, aggregate.ConnectionErrors);
    }

    [Fact]
    public async Task LevelAggregatesAsync_UnknownRunOrCatalogueIds_EmptyOrUnknown()
    {
        using var db = _database.Open();
        Assert.Empty(await ResultsQueries.LevelAggregatesAsync(db, 42, CancellationToken.None));

        var aggregate = Assert.Single(LevelAggregation.Aggregate([Levels.Stored("TcpNoSec", "wcf", "Mystery", 1, 0, 1, 1)]));
        Assert.Equal(ResultsClassification.Unknown, aggregate.SecurityMode);
        Assert.Equal(ResultsClassification.Unknown, aggregate.PayloadClass);
        Assert.False(aggregate.IsSecure);
    }

    [Fact]
    public async Task LevelAggregatesAsync_SeveralRunRows_TakenAsOneRun()
    {
        int first, second;
        using (var db = _database.Open())
        {
            var a = TestData.Run("dashboard");
            var b = TestData.Run("runner");
            var l0 = Levels.Stored("IceTcp", "java", "Int", 20, 0, 10, 1);
            var l1 = Levels.Stored("IceTcp", "java", "Int", 20, 1, 20, 1);
            l0.Run = a;
            l1.Run = b;
            db.Levels.AddRange(l0, l1);
            await db.SaveChangesAsync();
            (first, second) = (a.Id, b.Id);
        }

        using var reader = _database.NewContext();
        var aggregate = Assert.Single(await ResultsQueries.LevelAggregatesAsync(reader, [first, second], CancellationToken.None));

        Assert.Equal(2, aggregate.Repetitions);
        Assert.Equal(15, aggregate.ThroughputRps.Mean, 12);
    }

    [Fact]
    public void Aggregate_AgentRepetitions_SharesSummedPerAgentInSplitOrderAndLargestSkew()
    {
        var first = Levels.Stored("AspNetHttpJson", "dotnet", "Int", 20, 0, 100, 1);
        first.AgentsJson = LevelAgentShare.ToJson([new("b-2", 10, 500, 1, 40, 0, 0.1, 0, null), new("a-1", 10, 480, 0, null, 0, 0.1, 0.3, null)]);
        first.StartSkewBoundMs = 0.8;
        var second = Levels.Stored("AspNetHttpJson", "dotnet", "Int", 20, 1, 100, 1);
        second.AgentsJson = LevelAgentShare.ToJson([new("b-2", 10, 300, 2, 60, 0, 0.1, 0, "lost the database"), new("a-1", 10, 520, 0, 30, 0, 0.1, 0.2, null)]);
        second.StartSkewBoundMs = 1.5;
        var own = Levels.Stored("AspNetHttpJson", "dotnet", "Int", 1, 0, 100, 1);

        var aggregates = LevelAggregation.Aggregate([first, second, own]);

        var agents = aggregates.Single(a => a.Clients == 20);
        Assert.Equal(1.5, agents.StartSkewBoundMs);
        Assert.Equal(["b-2", "a-1"], agents.Agents.Select(a => a.Agent));
        var b2 = agents.Agents[0];
        Assert.Equal((10, 800L, 3L, 50.0, 2), (b2.Clients, b2.Completed, b2.Failed, b2.GeneratorCpuPercent!.Value, b2.Repetitions));
        Assert.Equal(["lost the database"], b2.Errors);
        Assert.Equal(30, agents.Agents[1].GeneratorCpuPercent);
        var alone = aggregates.Single(a => a.Clients == 1);
        Assert.Empty(alone.Agents);
        Assert.Null(alone.StartSkewBoundMs);
    }
}
