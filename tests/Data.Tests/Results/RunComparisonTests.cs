using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;
using Dashboard.Data.Tests.Support;

namespace Dashboard.Data.Tests.Results;

public sealed class RunComparisonTests
{
    [Fact]
    public void Holm_WikipediaExample_RejectsTheTwoSmallestOnly()
    {
        // Wikipedia, "Holm–Bonferroni method", Example: p = 0.01, 0.04, 0.03, 0.005 at α = 0.05: H4 (0.005 ≤ 0.0125) and
        // H1 (0.01 ≤ 0.0167) are rejected; H3 (0.03 > 0.025) is not, and the procedure stops (H2 kept).
        DifferenceTest[] tests = [.. new[] { 0.01, 0.04, 0.03, 0.005 }.Select(p => Test(p))];

        var corrected = RunComparison.Holm(tests, 0.05);

        Assert.Equal([DifferenceVerdict.Differs, DifferenceVerdict.NoDifference, DifferenceVerdict.NoDifference, DifferenceVerdict.Differs], corrected.Select(t => t.Verdict));
    }

    [Fact]
    public void Compare_TwoRunsOfTheSameScenarioWithinNoise_CallsNoDifference()
    {
        // The same three levels measured twice with run-to-run noise of a few %: nothing is called different.
        var a = Run(1);
        var b = Run(2);
        var baseline = Levels3(a, [1000, 1030, 970], [500, 515, 490], [200, 206, 196]);
        var candidate = Levels3(b, [1010, 980, 1025], [505, 492, 510], [199, 204, 201]);

        var result = RunComparison.Compare(a, baseline, b, candidate);

        Assert.Equal(3, result.Levels.Count);
        Assert.Empty(result.Differences);
        Assert.All(result.Levels, l => Assert.Equal(DifferenceVerdict.NoDifference, l.Throughput.Verdict));
        Assert.Empty(result.Warnings);
    }

    [Fact]
    public void Compare_ClearlyFasterCandidate_CallsTheDifferenceWithRatioAndInterval()
    {
        var a = Run(1);
        var b = Run(2);
        var result = RunComparison.Compare(a, Levels3(a, [1000, 1010, 990]), b, Levels3(b, [2000, 2020, 1980]));

        var level = Assert.Single(result.Levels);
        Assert.Equal(DifferenceVerdict.Differs, level.Throughput.Verdict);
        Assert.Equal(2, level.Throughput.Ratio!.Value, 1e-9);
        Assert.InRange(2.0, level.Throughput.RatioLow95!.Value, level.Throughput.RatioHigh95!.Value);
        Assert.True(level.Throughput.PValue < 0.05);
    }

    // R's t.test(extra ~ group, data = sleep) prints t = -1.8608, df = 17.776, p-value = 0.07939 and the interval
    // -3.3654832 .. 0.2054832 (SampleTestsTests). Ten repetitions a side whose throughputs are e^extra: the compare page's
    // test works on their logs, so it must print R's numbers, group 1 (the candidate) against group 2 (the baseline).
    [Fact]
    public void Compare_TenRepetitionsWhoseLogsAreTheRSleepData_RsPublishedWelchTest()
    {
        double[] group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
        double[] group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
        var a = Run(1);
        var b = Run(2);

        var result = RunComparison.Compare(a, Levels3(a, [.. group2.Select(Math.Exp)]), b, Levels3(b, [.. group1.Select(Math.Exp)]));

        var throughput = Assert.Single(result.Levels).Throughput;
        Assert.Equal(-1.8608, throughput.T!.Value, tolerance: 5e-5);
        Assert.Equal(17.776, throughput.DegreesOfFreedom!.Value, tolerance: 5e-4);
        Assert.Equal(0.07939, throughput.PValue!.Value, tolerance: 5e-6);
        Assert.Equal(-3.3654832, Math.Log(throughput.RatioLow95!.Value), tolerance: 5e-7);
        Assert.Equal(0.2054832, Math.Log(throughput.RatioHigh95!.Value), tolerance: 5e-7);
        Assert.Equal(DifferenceVerdict.NoDifference, throughput.Verdict);
    }

    [Fact]
    public void Compare_ThreeLaunchesOfTwoRepetitions_TestsTheLaunchMeans()
    {
        // Launch means 100, 120, 140 against 125, 145, 165, each launch's two repetitions ±1 around its mean. Three
        // launches a side: p = 0.20, no difference. The six repetitions taken as independent would call one (p = 0.04).
        double[] baseline = [99, 101, 119, 121, 139, 141];
        double[] candidate = [124, 126, 144, 146, 164, 166];
        var a = Run(1);
        var b = Run(2);

        var result = RunComparison.Compare(a, Launched(a, baseline), b, Launched(b, candidate));

        var throughput = Assert.Single(result.Levels).Throughput;
        Assert.Equal((3, 3), (throughput.BaselineN, throughput.CandidateN));
        Assert.Equal(DifferenceVerdict.NoDifference, throughput.Verdict);
        Assert.InRange(throughput.PValue!.Value, 0.15, 0.25);
        Assert.Equal(DifferenceVerdict.Differs, SampleTests.Difference(baseline, candidate).Verdict);
    }

    [Fact]
    public void Compare_OneRepetitionEachSide_NoTestAndSaysSo()
    {
        // Issue #24: +61.7 % between single runs of the same preset was coloured as a win.
        var a = Run(1);
        var b = Run(2);
        var result = RunComparison.Compare(a, Levels3(a, [1000]), b, Levels3(b, [1617]));

        var level = Assert.Single(result.Levels);
        Assert.Equal(DifferenceVerdict.NoTest, level.Throughput.Verdict);
        Assert.Equal(61.7, level.Throughput.EffectPercent!.Value, 1e-9);
        Assert.Empty(result.Differences);
        Assert.Contains(result.Warnings, w => w.Contains("no test is possible", StringComparison.Ordinal));
    }

    [Fact]
    public void Compare_PartialLevel_LeftOutUnlessAskedFor()
    {
        // Issue #24: a cancelled run's last level was compared as finished ("+1044.2 %").
        var a = Run(1);
        var b = Run(2);
        var candidate = Levels3(b, [1000, 1010, 990]);
        foreach (var l in candidate)
        {
            l.Complete = false;
        }

        var result = RunComparison.Compare(a, Levels3(a, [1000, 1010, 990]), b, candidate);
        var included = RunComparison.Compare(a, Levels3(a, [1000, 1010, 990]), b, candidate, includePartial: true);

        Assert.Empty(result.Levels);
        Assert.Single(result.OnlyInBaseline);
        Assert.Contains(result.Warnings, w => w.Contains("3 partial level(s)", StringComparison.Ordinal) && w.Contains("left out", StringComparison.Ordinal));
        Assert.False(Assert.Single(included.Levels).Candidate.Complete);
    }

    [Fact]
    public void Compare_RequestsAgainstDuration_WarnsAboutTheWorkload()
    {
        // Issue #24: a run of 20 requests per client was compared with one of 8-second levels without a word.
        var a = Run(1, """{"name":"p","requestsPerClient":20,"warmup":5,"repetitions":3}""");
        var b = Run(2, """{"name":"p","duration":"00:00:08","warmup":5,"repetitions":3,"steadyState":{"windows":5}}""");

        var result = RunComparison.Compare(a, Levels3(a, [1000, 1010, 990]), b, Levels3(b, [1000, 1010, 990]));

        Assert.Contains(result.Warnings, w => w.StartsWith("workload: run 1 is bounded by 20 requests per client, run 2 by duration 00:00:08", StringComparison.Ordinal));
        Assert.Contains(result.Warnings, w => w.StartsWith("workload: steady state differ", StringComparison.Ordinal));
    }

    [Fact]
    public void Compare_DifferentCpuAndTopology_WarnsAboutTheEnvironment()
    {
        var a = Run(1);
        var b = Run(2);
        a.EnvironmentJson = """{"cpuModel":"A","generatorCores":2,"topology":"same-machine"}""";
        b.EnvironmentJson = """{"cpuModel":"B","generatorCores":1,"topology":"other-machine"}""";

        var warnings = RunComparison.EnvironmentWarnings(a, b);

        Assert.Contains(warnings, w => w.StartsWith("environment: cpuModel differs (A in run 1, B in run 2)", StringComparison.Ordinal));
        Assert.Contains(warnings, w => w.StartsWith("environment: generatorCores differs", StringComparison.Ordinal));
        Assert.Contains(warnings, w => w.StartsWith("topology: topology differs", StringComparison.Ordinal));
    }

    private static DifferenceTest Test(double p) =>
        new(p < 0.05 ? DifferenceVerdict.Differs : DifferenceVerdict.NoDifference, 1.1, 1.0, 1.2, p, 2, 4, 3, 3, 0.05, null);

    private static RunEntity Run(int id, string? scenarioJson = null)
    {
        var run = TestData.Run();
        run.Id = id;
        run.ScenarioJson = scenarioJson ?? """{"name":"p","requestsPerClient":20,"warmup":5,"repetitions":3}""";
        run.EnvironmentJson = """{"cpuModel":"same","generatorCores":2,"topology":"same-machine"}""";
        return run;
    }

    // One stored level per throughput, two repetitions per launch (repetitions 0 and 1 in launch 1, …).
    private static List<LevelEntity> Launched(RunEntity run, double[] throughputs) =>
        [.. Levels3(run, throughputs).Select(l => { l.Launch = (l.Repetition / 2) + 1; return l; })];

    // One stored level per throughput (a repetition) for each given series, each series its own payload.
    private static List<LevelEntity> Levels3(RunEntity run, params double[][] series) =>
        [.. series.SelectMany((values, s) => values.Select((t, r) =>
        {
            var level = Levels.Stored("AspNetHttpJson", "dotnet", s == 0 ? "Int" : s == 1 ? "String500" : "IntArray1000", 20, r, t, 1000 / t);
            level.RunId = run.Id;
            return level;
        }))];
}
