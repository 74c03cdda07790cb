using System.Globalization;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Export;
using Dashboard.Data.Results;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Execution;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Tests.RealProcesses;
using Microsoft.EntityFrameworkCore;
using Dashboard.Data.Queries;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>
/// Issue #24 on real sockets: a cancelled level is partial everywhere, intervals from 3 repetitions stay positive, none
/// from 2. What bound a pinned level: <see cref="PinnedLevelBoundTests"/>.
/// </summary>
public sealed class RigorRealHostTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("rigor-tests-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task RunAsync_CancelledDuringALevel_LevelIsPartialInDatabaseAggregatesRankingsAndCsv()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var scenario = Scenario(host) with { Levels = [2, 4], RequestsPerClient = null, Duration = TimeSpan.FromSeconds(3) };
        using var cancel = new CancellationTokenSource();
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), e =>
        {
            if (e.Event == "level-completed")
            {
                cancel.CancelAfter(TimeSpan.FromSeconds(1.5));
            }
        });

        var run = await executor.RunAsync(scenario, await host.GetEndpointsAsync(), cancel.Token);

        Assert.Equal(RunStatus.Cancelled, run.Status);
        using var db = ResultsDatabase.Open(DatabasePath);
        var levels = await db.Levels.OrderBy(l => l.Clients).ToListAsync();
        Assert.Equal([true, false], levels.Select(l => l.Complete));
        var partial = levels[1];
        Assert.True(partial.Requests > 0, "the cut level keeps what it measured");
        Assert.Equal(partial.Requests, await db.Samples.CountAsync(s => s.LevelId == partial.Id && !s.IsWarmup));
        Assert.Matches(@"^cancelled after \d+\.\d s of a 3 s level", partial.PartialReason);

        // Aggregates and rankings leave it out; asked for, it is there and flagged.
        Assert.Equal([2], LevelAggregation.Aggregate(levels).Select(a => a.Clients));
        Assert.DoesNotContain(Rankings.Compute(LevelAggregation.Aggregate(levels), new RankingOptions(FromClients: 1)).SelectMany(t => t.Entries), e => e.Levels > 1);
        var withPartial = LevelAggregation.Aggregate(levels, includePartial: true);
        Assert.Equal(1, withPartial.Single(a => a.Clients == 4).PartialRepetitions);

        // levels.csv and aggregates.csv say complete = false for it.
        using var levelsCsv = new StringWriter(CultureInfo.InvariantCulture);
        await LevelsCsv.WriteAsync(levelsCsv, levels, null, CancellationToken.None);
        var rows = Rows(levelsCsv.ToString());
        Assert.Equal(["true", "false"], rows.Select(r => r["complete"]));
        Assert.StartsWith("cancelled after", rows[1]["partial_reason"], StringComparison.Ordinal);
        using var aggregatesCsv = new StringWriter(CultureInfo.InvariantCulture);
        await ResultsCsv.WriteAggregatesAsync(aggregatesCsv, withPartial, CancellationToken.None);
        Assert.Equal(["true", "false"], Rows(aggregatesCsv.ToString()).Select(r => r["complete"]));
    }

    [Fact]
    public async Task RunAsync_ThreeRepetitions_IntervalsInsideThePositiveRange_TwoRepetitions_None()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var endpoints = await host.GetEndpointsAsync();
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), _ => { });

        var three = await executor.RunAsync(Scenario(host) with { Repetitions = 3 }, endpoints, CancellationToken.None);
        var two = await executor.RunAsync(Scenario(host) with { Repetitions = 2 }, endpoints, CancellationToken.None);

        using var db = ResultsDatabase.Open(DatabasePath);
        foreach (var a in await ResultsQueries.LevelAggregatesAsync(db, three.Id, CancellationToken.None))
        {
            Assert.Equal(3, a.Repetitions);
            Assert.True(a.ThroughputRps.HasInterval);
            Assert.True(a.ThroughputRps.Low95 > 0, $"throughput interval {a.ThroughputRps.Low95}..{a.ThroughputRps.High95}");
            Assert.InRange(a.ThroughputRps.Mean, a.ThroughputRps.Low95, a.ThroughputRps.High95);
            Assert.True(a.MeanMs.Low95 > 0, $"mean ms interval {a.MeanMs.Low95}..{a.MeanMs.High95}");
            Assert.NotNull(a.ThroughputRps.CoefficientOfVariation);
        }

        var twoAggregates = await ResultsQueries.LevelAggregatesAsync(db, two.Id, CancellationToken.None);
        Assert.All(twoAggregates, a =>
        {
            Assert.False(a.ThroughputRps.HasInterval);
            Assert.Equal("n = 2: at least 3 for an interval", a.ThroughputRps.IntervalNote);
            Assert.Equal(a.ThroughputRps.Mean, a.ThroughputRps.Low95);
            Assert.NotNull(a.ThroughputRps.CoefficientOfVariation);
        });
        using var csv = new StringWriter(CultureInfo.InvariantCulture);
        await ResultsCsv.WriteAggregatesAsync(csv, twoAggregates, CancellationToken.None);
        Assert.All(Rows(csv.ToString()), r => Assert.Equal(("", ""), (r["throughput_ci95_low"], r["throughput_ci95_high"])));
    }

    [Fact]
    public async Task RunAsync_PrecisionTargetFineWithACap_LevelsGetRepetitionsUpToTheCapAndTheRunSaysSo()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var endpoints = await host.GetEndpointsAsync();
        var notices = new List<string>();
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), _ => { }, notice: notices.Add) { QuietCheck = TimeSpan.Zero };
        // ±0.1 % is out of reach for 20 requests per client: every level gets repetitions up to the cap of 4.
        var fine = Scenario(host) with { Repetitions = 1, Precision = 0.001, MaxRepetitions = 4 };

        var run = await executor.RunAsync(fine, endpoints, CancellationToken.None);

        using var db = ResultsDatabase.Open(DatabasePath);
        var aggregates = await ResultsQueries.LevelAggregatesAsync(db, run.Id, CancellationToken.None);
        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.All(aggregates, a => Assert.Equal(4, a.Repetitions));
        Assert.Equal(aggregates.Count * 4, run.TotalLevels);
        Assert.Equal(run.TotalLevels, run.CompletedLevels);
        Assert.Equal(3, notices.Count(n => n.StartsWith("precision round ", StringComparison.Ordinal)));
        Assert.Contains($"precision target ±0.1 %: 0 of {aggregates.Count} levels reached it; not reached: {aggregates.Count} at the cap of 4 repetitions", notices[^1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_PrecisionTargetCoarse_EachLevelStopsWhenItReachesItOrAtTheCap()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var endpoints = await host.GetEndpointsAsync();
        var notices = new List<string>();
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), _ => { }, notice: notices.Add) { QuietCheck = TimeSpan.Zero };
        // ±25 %: usually reached at the 3 repetitions an interval needs; a level on a busy machine may need more, up to 6.
        var coarse = Scenario(host) with { Repetitions = 1, Precision = 0.25, MaxRepetitions = 6 };

        var run = await executor.RunAsync(coarse, endpoints, CancellationToken.None);

        using var db = ResultsDatabase.Open(DatabasePath);
        var aggregates = await ResultsQueries.LevelAggregatesAsync(db, run.Id, CancellationToken.None);
        var reached = aggregates.Where(a => LevelPrecision.Of(a).Meets(0.25)).ToList();
        Assert.All(aggregates.Except(reached), a => Assert.Equal(6, a.Repetitions));
        Assert.All(reached, a => Assert.InRange(a.Repetitions, 3, 6));
        Assert.Contains(reached.Count == aggregates.Count ? "every level reached it" : $"{reached.Count} of {aggregates.Count} levels reached it", notices[^1], StringComparison.Ordinal);
        Assert.Equal(aggregates.Sum(a => a.Repetitions), run.TotalLevels);
    }

    private static List<Dictionary<string, string>> Rows(string csv)
    {
        var lines = csv.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var header = lines[0].Split(',');
        // No field in these rows holds a comma.
        return [.. lines.Skip(1).Select(l => header.Zip(l.Split(',')).ToDictionary(p => p.First, p => p.Second))];
    }

    private static ScenarioDocument Scenario(ServiceHostProcess host) => new()
    {
        Name = "rigor test",
        Host = host.ControlAddress.ToString(),
        Variants = ["AspNetHttpJson"],
        Clients = ["dotnet"],
        Payloads = ["Int"],
        Levels = [1, 4],
        RequestsPerClient = 300,
        Warmup = 20,
    };
}
