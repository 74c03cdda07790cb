using System.Globalization;
using CsvHelper;
using Dashboard.Data.Entities;

namespace Dashboard.Runner.CommandLine;

/// <summary>
/// Writes the per-level CSV (README.md, "Runner command line"): one row per level with
/// <c>variant,client,payload,level,requests,errors,throughput_rps,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms</c>
/// and then <c>repetition,generator_cpu_percent,wrong_replies,mean_request_bytes,mean_response_bytes</c>
/// (bytes on the wire; empty when the client could not count them), then <c>topology,link_rate_mbps</c>
/// (docs/topologies.md: where the host ran, the emulated link's rate in Mbit/s or empty), <c>complete</c> (false: cut by a
/// cancel), <c>steady_state_reached</c> (empty when off), <c>steady_state_warmup_s</c>, <c>bound</c> (<c>Generator</c>,
/// <c>Server</c>, <c>Neither</c>), <c>server_cpu_percent</c> (the host's cores, stored with the level) and
/// <c>generator_cpu_us_per_request</c> (docs/statistics.md), then <c>agents</c> (the level's split over load agents,
/// "agent-1 10, agent-2 10"; empty when the runner generated it) and <c>start_skew_bound_ms</c> (docs/agents.md).
/// Invariant culture; times in ms, throughput in req/s.
/// </summary>
public static class LevelsCsv
{
    /// <summary>Writes <paramref name="levels"/> to <paramref name="writer"/>, header first; topology <c>same-machine</c>.</summary>
    public static void Write(TextWriter writer, IEnumerable<LevelEntity> levels) => Write(writer, levels, null);

    /// <summary>Writes the levels of <paramref name="run"/> with its topology and link rate.</summary>
    public static void Write(TextWriter writer, IEnumerable<LevelEntity> levels, RunEntity? run)
    {
        ArgumentNullException.ThrowIfNull(levels);
        var topology = run?.Topology ?? "same-machine";
        using var csv = new CsvWriter(writer, CultureInfo.InvariantCulture, leaveOpen: true);
        // Response times of a level where nothing succeeded are left empty (stored as 0, see LevelEntity.MeanMs).
        csv.WriteRecords(levels.Select(l => (l, timed: l.Requests > l.Errors)).Select(x => new Row(
            x.l.Variant, x.l.Client, x.l.Payload, x.l.Clients, x.l.Requests, x.l.Errors, x.l.ThroughputRps, Timed(x.l.MeanMs, x.timed),
            Timed(x.l.P50Ms, x.timed), Timed(x.l.P90Ms, x.timed), Timed(x.l.P99Ms, x.timed), Timed(x.l.P999Ms, x.timed), Timed(x.l.MaxMs, x.timed),
            x.l.Repetition, x.l.GeneratorCpuPercent, x.l.WrongReplyErrors, x.l.MeanRequestBytes, x.l.MeanResponseBytes,
            topology, run?.LinkRateMbps,
            x.l.Complete, x.l.SteadyStateReached, x.l.SteadyStateWarmupSeconds, x.l.Bound?.ToString(), x.l.ServerCpuPercent, x.l.GeneratorCpuMicrosPerRequest,
            x.l.AgentsJson is null ? null : Data.Agents.LevelAgentShare.Describe(Data.Agents.LevelAgentShare.FromJson(x.l.AgentsJson)), x.l.StartSkewBoundMs)));
    }

    private static double? Timed(double value, bool timed) => timed ? value : null;

    private sealed record Row(
        [property: CsvHelper.Configuration.Attributes.Name("variant")] string Variant,
        [property: CsvHelper.Configuration.Attributes.Name("client")] string Client,
        [property: CsvHelper.Configuration.Attributes.Name("payload")] string Payload,
        [property: CsvHelper.Configuration.Attributes.Name("level")] int Level,
        [property: CsvHelper.Configuration.Attributes.Name("requests")] long Requests,
        [property: CsvHelper.Configuration.Attributes.Name("errors")] long Errors,
        [property: CsvHelper.Configuration.Attributes.Name("throughput_rps")] double ThroughputRps,
        [property: CsvHelper.Configuration.Attributes.Name("mean_ms")] double? MeanMs,
        [property: CsvHelper.Configuration.Attributes.Name("p50_ms")] double? P50Ms,
        [property: CsvHelper.Configuration.Attributes.Name("p90_ms")] double? P90Ms,
        [property: CsvHelper.Configuration.Attributes.Name("p99_ms")] double? P99Ms,
        [property: CsvHelper.Configuration.Attributes.Name("p999_ms")] double? P999Ms,
        [property: CsvHelper.Configuration.Attributes.Name("max_ms")] double? MaxMs,
        [property: CsvHelper.Configuration.Attributes.Name("repetition")] int Repetition,
        [property: CsvHelper.Configuration.Attributes.Name("generator_cpu_percent")] double? GeneratorCpuPercent,
        [property: CsvHelper.Configuration.Attributes.Name("wrong_replies")] long WrongReplies,
        [property: CsvHelper.Configuration.Attributes.Name("mean_request_bytes")] double? MeanRequestBytes,
        [property: CsvHelper.Configuration.Attributes.Name("mean_response_bytes")] double? MeanResponseBytes,
        [property: CsvHelper.Configuration.Attributes.Name("topology")] string Topology,
        [property: CsvHelper.Configuration.Attributes.Name("link_rate_mbps")] int? LinkRateMbps,
        [property: CsvHelper.Configuration.Attributes.Name("complete")] bool Complete,
        [property: CsvHelper.Configuration.Attributes.Name("steady_state_reached")] bool? SteadyStateReached,
        [property: CsvHelper.Configuration.Attributes.Name("steady_state_warmup_s")] double? SteadyStateWarmupSeconds,
        [property: CsvHelper.Configuration.Attributes.Name("bound")] string? Bound,
        [property: CsvHelper.Configuration.Attributes.Name("server_cpu_percent")] double? ServerCpuPercent,
        [property: CsvHelper.Configuration.Attributes.Name("generator_cpu_us_per_request")] double? GeneratorCpuMicrosPerRequest,
        [property: CsvHelper.Configuration.Attributes.Name("agents")] string? Agents,
        [property: CsvHelper.Configuration.Attributes.Name("start_skew_bound_ms")] double? StartSkewBoundMs);
}
