using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Service.Tests.Contracts.Scenarios;

/// <summary>The duration a preset or a hand-built scenario shows.</summary>
public sealed class DurationEstimatorTests
{
    private static readonly ScenarioDocument OneCell = new()
    {
        Name = "one cell", Host = "http://localhost:5090", Variants = ["AspNetHttpJson"], Clients = ["dotnet"], Payloads = ["Int"],
        Levels = [1], RequestsPerClient = 3000, Warmup = 0, Repetitions = 1,
    };

    [Fact]
    public void Estimate_MeasuredThroughputHere_UsedAndCalledCalibrated()
    {
        var estimator = new DurationEstimator([new MeasuredThroughput("AspNetHttpJson", "dotnet", "Int", 1, 100)]);

        var figure = estimator.Estimate(OneCell);

        Assert.Equal(DurationSource.Calibrated, figure.Source);
        // start + client start + 3000 requests at 100 req/s + one level's overhead + storing its 3000 samples
        Assert.Equal(DurationEstimator.RunStartSeconds + 0.1 + 30 + DurationEstimator.LevelOverheadSeconds + 3000 * DurationEstimator.SampleStoreSeconds, figure.Duration.TotalSeconds, 3);
        Assert.Null(figure.RangeText); // no steady-state warm-up: nothing uncertain in the plan
    }

    [Fact]
    public void Estimate_NothingMeasured_DefaultsAndSkippedPairsCostNothing()
    {
        var alone = DurationEstimator.Default.Estimate(OneCell);
        var mixed = DurationEstimator.Default.Estimate(OneCell with { Clients = ["dotnet", "java"] });

        Assert.Equal(DurationSource.Estimated, alone.Source);
        Assert.Equal(alone.Duration, mixed.Duration); // java cannot call AspNetHttpJson: skipped, not timed
    }

    [Fact]
    public void Estimate_DurationBound_EachLevelTakesItsDurationPerRepetition()
    {
        var figure = DurationEstimator.Default.Estimate(OneCell with { RequestsPerClient = null, Duration = TimeSpan.FromSeconds(10), Levels = [1, 10], Repetitions = 3 });

        Assert.InRange(figure.Duration.TotalSeconds, 60, 66);
    }

    [Fact]
    public void Estimate_PrecisionTarget_ThreeRepetitionsTypicalAndTheTimeLimitOnTheHighEnd()
    {
        var timed = OneCell with { RequestsPerClient = null, Duration = TimeSpan.FromSeconds(10), Repetitions = 1 };

        var plain = DurationEstimator.Default.Estimate(timed);
        var target = DurationEstimator.Default.Estimate(timed with { Precision = 0.02, PrecisionTimeLimit = TimeSpan.FromMinutes(5) });

        // One planned repetition, but an interval needs 3: the typical figure is three times the plan's.
        Assert.Equal(plain.Duration.TotalSeconds * 3, target.Duration.TotalSeconds, 3);
        Assert.Equal(plain.High!.Value.TotalSeconds * 3 + 300, target.High!.Value.TotalSeconds, 3);
        Assert.NotNull(target.RangeText);
    }

    [Fact]
    public void Estimate_ThreeLaunches_EveryLevelAndClientStartThreeTimesAndTwoHostRestarts()
    {
        var timed = OneCell with { RequestsPerClient = null, Duration = TimeSpan.FromSeconds(10), Clients = ["java"], Variants = ["IceTcp"] };

        var one = DurationEstimator.Default.Estimate(timed).Duration.TotalSeconds - DurationEstimator.RunStartSeconds;
        var three = DurationEstimator.Default.Estimate(timed with { Launches = 3 }).Duration.TotalSeconds - DurationEstimator.RunStartSeconds;

        // Ice runs in the JVM service, which a host restart starts again.
        Assert.Equal(15.0, DurationEstimator.HostRestartSeconds(["IceTcp"]));
        Assert.Equal(3 * one + 2 * 15.0, three, 6);
        Assert.True(one > 10 + DurationEstimator.ClientStartSeconds("java"));
    }

    [Fact]
    public void HostRestartSeconds_AspNetOnly_ShorterThanWithAJvmVariant()
    {
        Assert.Equal(3.0, DurationEstimator.HostRestartSeconds(["AspNetHttpJson", "WcfNetTcp"]));
        Assert.Equal(15.0, DurationEstimator.HostRestartSeconds(["AspNetHttpJson", "MetroSoap11"]));
    }

    [Fact]
    public void Estimate_SteadyStateWarmup_TypicalBetweenItsFirstWindowsAndItsCap()
    {
        var steady = new SteadyStateSettings(3, 0.05, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(5));
        var without = DurationEstimator.Default.Estimate(OneCell with { RequestsPerClient = null, Duration = TimeSpan.FromSeconds(3), Repetitions = 3 });

        var figure = DurationEstimator.Default.Estimate(OneCell with { RequestsPerClient = null, Duration = TimeSpan.FromSeconds(3), Repetitions = 3, SteadyState = steady });

        // Three repetitions: each warm-up at least 3 × 0.5 s, at most 5 s + one window, typically halfway.
        Assert.Equal(without.Duration.TotalSeconds + 3 * 1.5, figure.Low!.Value.TotalSeconds, 6);
        Assert.Equal(without.Duration.TotalSeconds + 3 * 5.5, figure.High!.Value.TotalSeconds, 6);
        Assert.Equal(without.Duration.TotalSeconds + 3 * 3.5, figure.Duration.TotalSeconds, 6);
        Assert.Equal(3.5, DurationEstimator.TypicalWarmupSeconds(steady), 6);
        Assert.Equal("16 s – 28 s", figure.RangeText);
    }

    [Theory]
    [InlineData(19, "19 s")]
    [InlineData(150, "3 min")]
    [InlineData(3 * 3600 + 1800, "3.5 h")]
    public void Format_Durations_RoundedForPeople(int seconds, string expected) =>
        Assert.Equal(expected, DurationFigure.Format(TimeSpan.FromSeconds(seconds)));

    [Fact]
    public void Estimate_ShippedPresets_QuickFormsFitMinutesAndFullFormsTakeLonger()
    {
        // Issue #32: a quick form fits its budget by measuring fewer cells, never shorter windows; the budget is minutes.
        var examples = Path.Combine(Dashboard.Tests.RealProcesses.RepositoryPaths.Root, "examples");
        var quick = Directory.GetFiles(examples, "preset-*-quick.json");

        Assert.NotEmpty(quick);
        Assert.All(quick, file =>
        {
            var seconds = DurationEstimator.Default.Estimate(ScenarioLoader.Load(file)).Duration.TotalSeconds;
            var full = DurationEstimator.Default.Estimate(ScenarioLoader.Load(file.Replace("-quick.json", ".json", StringComparison.Ordinal))).Duration.TotalSeconds;
            Assert.InRange(seconds, 1, 10 * 60);
            Assert.True(full > seconds, $"{Path.GetFileName(file)}: full {full:0} s, quick {seconds:0} s");
        });
    }
}

