using System.Globalization;
using CsvHelper;
using Dashboard.Data.Entities;

namespace Dashboard.Runner.CommandLine;

/// <summary>
/// Writes the per-level CSV of DESIGN.md §4: one row per level with
/// <c>variant,client,payload,level,requests,errors,throughput_rps,mean_ms,p50_ms,p90_ms,p99_ms,p999_ms,max_ms</c>
/// and then <c>repetition,generator_cpu_percent,wrong_replies,mean_request_bytes,mean_response_bytes</c>
/// (bytes on the wire; empty when the client could not count them). Invariant culture; times in ms, throughput in req/s.
/// </summary>
public static class LevelsCsv
{
    /// <summary>Writes <paramref name="levels"/> to <paramref name="writer"/>, header first.</summary>
    public static void Write(TextWriter writer, IEnumerable<LevelEntity> levels)
    {
        ArgumentNullException.ThrowIfNull(levels);
        using var csv = new CsvWriter(writer, CultureInfo.InvariantCulture, leaveOpen: true);
        csv.WriteRecords(levels.Select(l => new Row(
            l.Variant, l.Client, l.Payload, l.Clients, l.Requests, l.Errors, l.ThroughputRps, l.MeanMs,
            l.P50Ms, l.P90Ms, l.P99Ms, l.P999Ms, l.MaxMs, l.Repetition, l.GeneratorCpuPercent,
            l.WrongReplyErrors, l.MeanRequestBytes, l.MeanResponseBytes)));
    }

    private sealed record Row(
        [property: CsvHelper.Configuration.Attributes.Name("variant")] string Variant,
        [property: CsvHelper.Configuration.Attributes.Name("client")] string Client,
        [property: CsvHelper.Configuration.Attributes.Name("payload")] string Payload,
        [property: CsvHelper.Configuration.Attributes.Name("level")] int Level,
        [property: CsvHelper.Configuration.Attributes.Name("requests")] long Requests,
        [property: CsvHelper.Configuration.Attributes.Name("errors")] long Errors,
        [property: CsvHelper.Configuration.Attributes.Name("throughput_rps")] double ThroughputRps,
        [property: CsvHelper.Configuration.Attributes.Name("mean_ms")] double MeanMs,
        [property: CsvHelper.Configuration.Attributes.Name("p50_ms")] double P50Ms,
        [property: CsvHelper.Configuration.Attributes.Name("p90_ms")] double P90Ms,
        [property: CsvHelper.Configuration.Attributes.Name("p99_ms")] double P99Ms,
        [property: CsvHelper.Configuration.Attributes.Name("p999_ms")] double P999Ms,
        [property: CsvHelper.Configuration.Attributes.Name("max_ms")] double MaxMs,
        [property: CsvHelper.Configuration.Attributes.Name("repetition")] int Repetition,
        [property: CsvHelper.Configuration.Attributes.Name("generator_cpu_percent")] double? GeneratorCpuPercent,
        [property: CsvHelper.Configuration.Attributes.Name("wrong_replies")] long WrongReplies,
        [property: CsvHelper.Configuration.Attributes.Name("mean_request_bytes")] double? MeanRequestBytes,
        [property: CsvHelper.Configuration.Attributes.Name("mean_response_bytes")] double? MeanResponseBytes);
}
