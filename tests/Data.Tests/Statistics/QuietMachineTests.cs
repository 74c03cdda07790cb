using System.Globalization;
using Dashboard.Data.Export;
using Dashboard.Data.Results;
using Dashboard.Data.Statistics;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Statistics;

/// <summary>
/// <see cref="QuietMachine"/>: the disturbed rule at its limits, the busy-at-start record and its JSON, and the window
/// figures over repetitions (intervals, disturbed counts) in the aggregates and the per-level table.
/// </summary>
public sealed class QuietMachineTests
{
    [Theory]
    [InlineData(0.10, 0.0, false)]
    [InlineData(0.11, 0.0, true)]
    [InlineData(0.0, 2.0, false)]
    [InlineData(0.0, 2.1, true)]
    public void IsDisturbed_AtAndAboveTheLimits_OnlyAboveFlags(double others, double steal, bool expected) =>
        Assert.Equal(expected, QuietMachine.IsDisturbed(others, steal));

    [Fact]
    public void IsDisturbed_OthersNotMeasured_StealDecidesOnlyWhenAbove()
    {
        Assert.Null(QuietMachine.IsDisturbed(null, 0.5));
        Assert.True(QuietMachine.IsDisturbed(null, 5));
    }

    [Fact]
    public void FromEnvironmentJson_BusyStartRecorded_ReadBackWithItsSummary()
    {
        var atStart = MachineAtStart.Of(loadAverage1: 3.2, othersCores: 0.05, stealPercent: 0);
        var json = $$"""{"machineName":"m","{{QuietMachine.EnvironmentProperty}}":{{System.Text.Json.JsonSerializer.Serialize(atStart, System.Text.Json.JsonSerializerOptions.Web)}}}""";

        var read = QuietMachine.FromEnvironmentJson(json);

        Assert.Equal(atStart, read);
        Assert.True(read!.Busy, "a load average above 1.0 is a busy start");
        Assert.Contains("1-minute load average 3.20", read.Summary, StringComparison.Ordinal);
        Assert.False(MachineAtStart.Of(0.4, 0.02, 0).Busy);
        Assert.Null(QuietMachine.FromEnvironmentJson("{\"machineName\":\"m\"}"));
        Assert.Null(QuietMachine.FromEnvironmentJson("not json"));
    }

    [Fact]
    public async Task Aggregate_ThreeRepetitionsOneDisturbed_ServerCpuIntervalAndCountsInTableAndCsv()
    {
        var levels = new[] { 20.0, 21.0, 22.0 }.Select((us, i) =>
        {
            var level = Levels.Stored("AspNetHttpJson", "dotnet", "Int", 10, i + 1, 1000, 1);
            level.ServerCpuMicrosPerRequest = us;
            level.GeneratorCpuMicrosPerRequest = 30;
            level.OthersCpuCores = i == 2 ? 0.4 : 0.0;
            level.StealPercent = 0;
            level.Disturbed = i == 2;
            return level;
        }).ToList();

        var aggregate = Assert.Single(LevelAggregation.Aggregate(levels));

        Assert.Equal(21, aggregate.ServerCpuPerRequest!.Value.Mean, 9);
        Assert.True(aggregate.ServerCpuPerRequest.Value.HasInterval);
        Assert.Equal((1, 3), (aggregate.DisturbedRepetitions, aggregate.CheckedRepetitions));
        var disturbed = LevelStatistics.Table.Single(s => s.Column == "disturbed");
        Assert.Equal("1 of 3", disturbed.Text(aggregate));
        Assert.Contains("repetition 3: others 0.40 cores", disturbed.Tooltip!(aggregate), StringComparison.Ordinal);
        Assert.StartsWith("21.0 [", LevelStatistics.Table.Single(s => s.Column == "server_cpu_us_per_request").Text(aggregate), StringComparison.Ordinal);

        using var writer = new StringWriter(CultureInfo.InvariantCulture);
        await ResultsCsv.WriteAggregatesAsync(writer, [aggregate], CancellationToken.None);
        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var row = lines[0].Split(',').Zip(lines[1].Split(',')).ToDictionary(p => p.First, p => p.Second);
        Assert.Equal("21", row["server_cpu_us_per_request"]);
        Assert.NotEqual("", row["server_cpu_us_per_request_ci95_low"]);
        Assert.Equal("1", row["disturbed_repetitions"]);
    }
}
