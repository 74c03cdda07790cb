using System.Globalization;
using Dashboard.Data.Agents;
using Dashboard.Data.Entities;
using Dashboard.Data.Export;
using Dashboard.Data.Statistics;

namespace Dashboard.Data.Tests.Export;

/// <summary><see cref="LevelsCsv"/>: the one levels CSV (runner and API), its columns from <see cref="LevelStatistics"/>.</summary>
public sealed class LevelsCsvTests
{
    [Fact]
    public async Task WriteAsync_ThreeRepetitionsAndOne_IntervalsOnlyWithRepetitions()
    {
        LevelEntity[] levels =
        [
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 0, 10, 2),
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 1, 12, 4),
            Support.Levels.Stored("IceSsl", "java", "IntArray1000", 20, 2, 14, 6),
            Support.Levels.Stored("AspNetH2BinXml", "dotnet", "Int", 1, 0, 500, 1),
        ];
        levels[0].MeanRequestBytes = 100.5;
        levels[0].WrongReplyErrors = 2;
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        await LevelsCsv.WriteAsync(writer, levels, null, CancellationToken.None);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var header = lines[0].Split(',');
        Assert.Equal(LevelStatistics.Header, lines[0]);
        Assert.StartsWith("variant,client,payload,level,requests,errors,throughput_rps,mean_ms,p50_ms,p90_ms,p95_ms,p99_ms,p999_ms,max_ms,repetition,generator_cpu_percent", lines[0], StringComparison.Ordinal);
        Assert.Equal(5, lines.Length);
        var first = Row(header, lines[1]);
        // Log-scale interval (docs/statistics.md): mean · e^(∓t·SE/mean), t(0.975, 2) = 4.302653, SE = 2/√3.
        var se = 2 / Math.Sqrt(3);
        Assert.Equal("IceSsl", first["variant"]);
        Assert.Equal("10", first["throughput_rps"]);
        Assert.Equal("Transport", first["security_mode"]);
        Assert.Equal("Large", first["payload_class"]);
        Assert.Equal("2", first["wrong_replies"]);
        Assert.Equal("100.5", first["mean_request_bytes"]);
        Assert.Equal("", first["mean_response_bytes"]);
        Assert.Equal(12 * Math.Exp(-4.302653 * se / 12), double.Parse(first["throughput_ci95_low"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal(12 * Math.Exp(4.302653 * se / 12), double.Parse(first["throughput_ci95_high"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal(4 * Math.Exp(-4.302653 * se / 4), double.Parse(first["mean_ms_ci95_low"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal(4 * Math.Exp(4.302653 * se / 4), double.Parse(first["mean_ms_ci95_high"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal("true", first["complete"]);
        Assert.Equal(2.0 / 12, double.Parse(first["throughput_cov"], CultureInfo.InvariantCulture), 1e-12);
        Assert.Equal(Math.Exp(4.302653 * se / 12) - 1, double.Parse(first["throughput_precision"], CultureInfo.InvariantCulture), 1e-4);
        Assert.Equal("", first["server_cpu_precision"]);
        Assert.Equal(first["throughput_ci95_low"], Row(header, lines[3])["throughput_ci95_low"]);

        var single = Row(header, lines[4]);
        Assert.Equal("AspNetH2BinXml", single["variant"]);
        Assert.Equal("None", single["security_mode"]);
        Assert.Equal("Small", single["payload_class"]);
        Assert.Equal("", single["throughput_ci95_low"]);
        Assert.Equal("", single["mean_ms_ci95_high"]);
    }

    [Fact]
    public async Task WriteAsync_AgentLevel_SplitAndSkewInTheLastTwoColumnsEmptyOtherwise()
    {
        var agents = Support.Levels.Stored("AspNetHttpJson", "dotnet", "Int", 30, 0, 900, 2);
        agents.AgentsJson = LevelAgentShare.ToJson([new("agent-1", 10, 300, 0, 40, 0.1, 0.05, 0, null), new("agent-2", 10, 300, 0, 41, 0.1, 0.05, 0.2, null), new("agent-3", 10, 300, 0, 42, 0.1, 0.05, 0.4, null)]);
        agents.StartSkewBoundMs = 1.25;
        var own = Support.Levels.Stored("AspNetHttpJson", "dotnet", "Int", 1, 0, 500, 1);
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        await LevelsCsv.WriteAsync(writer, [agents, own], null, CancellationToken.None);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        // One format for the runner and the API: the union of their columns (README.md); the agents' columns come last.
        Assert.Equal(
            "variant,client,payload,level,requests,errors,throughput_rps,mean_ms,p50_ms,p90_ms,p95_ms,p99_ms,p999_ms,max_ms,repetition,generator_cpu_percent," +
            "wrong_replies,mean_request_bytes,mean_response_bytes,security_mode,payload_class,topology,link_rate_mbps," +
            "throughput_ci95_low,throughput_ci95_high,mean_ms_ci95_low,mean_ms_ci95_high," +
            "complete,partial_reason,steady_state_reached,steady_state_warmup_s,steady_state_cov,server_cpu_percent,bound,generator_cpu_us_per_request," +
            "throughput_cov,mean_ms_cov,throughput_precision,server_cpu_precision,generator_cores_busy_percent," +
            "cpu_window_s,server_cpu_us_per_request,server_cpu_us_per_request_ci95_low,server_cpu_us_per_request_ci95_high,server_cpu_missing_reason," +
            "machine_busy_percent,steal_percent,others_cpu_cores,disturbed,window_s,launch,host_pid,shared_core,target_rate_rps,late_starts,dropped_requests,connections,service_p99_ms,agents,start_skew_bound_ms", lines[0]);
        var header = lines[0].Split(',');
        Assert.EndsWith(",\"agent-1 10, agent-2 10, agent-3 10\",1.25", lines[1], StringComparison.Ordinal);
        var first = Row(header, RemoveQuoted(lines[1]));
        Assert.Equal("30", first["level"]);
        Assert.Equal("1.25", first["start_skew_bound_ms"]);
        var second = Row(header, lines[2]);
        Assert.Equal("", second["agents"]);
        Assert.Equal("", second["start_skew_bound_ms"]);
    }

    [Fact]
    public async Task WriteAsync_FieldWithComma_Quoted()
    {
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        await LevelsCsv.WriteAsync(writer, [Support.Levels.Stored("a,\"b\"", "dotnet", "Int", 1, 0, 1, 1)], null, CancellationToken.None);

        Assert.StartsWith("\"a,\"\"b\"\"\",dotnet,Int,1,", writer.ToString().Split('\n')[1], StringComparison.Ordinal);
    }

    [Fact]
    public void Write_NothingSucceededOnEmulatedLan_ResponseTimesEmptyTopologyAndRateWritten()
    {
        var level = Support.Levels.Stored("AspNetHttpJson", "dotnet", "Int", 1, 0, 0, 0);
        level.Requests = level.Errors = level.FaultErrors = 5;
        level.MeanMs = level.P50Ms = level.P90Ms = level.P99Ms = level.P999Ms = level.MaxMs = 0;
        var run = new RunEntity { ScenarioName = "s", ScenarioJson = "{}", Topology = "emulated-lan", LinkRateMbps = 100 };
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        LevelsCsv.Write(writer, [level], run);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var row = Row(lines[0].Split(','), lines[1]);
        Assert.Equal("5", row["errors"]);
        Assert.All(new[] { "mean_ms", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms" }, c => Assert.Equal("", row[c]));
        Assert.Equal("emulated-lan", row["topology"]);
        Assert.Equal("100", row["link_rate_mbps"]);
        Assert.Equal("true", row["complete"]);
    }

    [Fact]
    public void Write_LevelWithP95AndOneStoredBefore_P95WrittenAfterP90EmptyWhenNotKept()
    {
        var kept = Support.Levels.Stored("AspNetHttpJson", "dotnet", "Int", 10, 0, 900, 2);
        kept.P95Ms = 3.25;
        var before = Support.Levels.Stored("AspNetHttpJson", "dotnet", "Int", 20, 0, 900, 2);
        using var writer = new StringWriter(CultureInfo.InvariantCulture);

        LevelsCsv.Write(writer, [kept, before], null);

        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var header = lines[0].Split(',');
        Assert.Equal(Array.IndexOf(header, "p90_ms") + 1, Array.IndexOf(header, "p95_ms"));
        Assert.Equal("3.25", Row(header, lines[1])["p95_ms"]);
        Assert.Equal("", Row(header, lines[2])["p95_ms"]);
    }

    // The row with its one quoted field (the agents' split, which holds commas) emptied, so it splits on commas.
    private static string RemoveQuoted(string line) => System.Text.RegularExpressions.Regex.Replace(line, "\"[^\"]*\"", "");

    private static Dictionary<string, string> Row(string[] header, string line)
    {
        var fields = line.Split(',');
        Assert.Equal(header.Length, fields.Length);
        return header.Zip(fields).ToDictionary(p => p.First, p => p.Second);
    }
}
