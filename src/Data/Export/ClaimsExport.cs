using System.Globalization;
using CsvHelper;
using CsvHelper.Configuration;
using Markdig;
using System.Text;
using System.Text.Json;
using Dashboard.Data.Claims;
using Dashboard.Data.Entities;

namespace Dashboard.Data.Export;

/// <summary>What a one-page claims report shows: the run, the verdicts, what they were computed with, the environment.</summary>
/// <param name="Run">The run the report is for.</param>
/// <param name="RunIds">Every run taken together with it (itself first).</param>
/// <param name="Claims">The verdicts.</param>
/// <param name="Runs">Per run: topology, cores and clock rate used.</param>
/// <param name="Method">The test and interval behind the verdicts.</param>
/// <param name="GeneratedUtc">When the report was made.</param>
public sealed record ClaimsReport(RunEntity Run, IReadOnlyList<int> RunIds, IReadOnlyList<ClaimResult> Claims, IReadOnlyList<RunFacts> Runs, string Method, DateTime GeneratedUtc)
{
    /// <summary>The levels the verdicts were computed on (their cost per operation and overhead per message are listed per level).</summary>
    public IReadOnlyList<ClaimLevel> Levels { get; init; } = [];
}

/// <summary>
/// One level's figures that claims use, whether or not a verdict counted the level: seed 004's cost per operation and
/// seed 002's overhead per message (docs/claims.md).
/// </summary>
/// <param name="Level">"variant × client × payload × N clients (topology)".</param>
/// <param name="RunId">The run of the level.</param>
/// <param name="CpuUsPerOperation">Server CPU per operation, µs (mean over repetitions); null without resource readings.</param>
/// <param name="MCyclesPerOperation">The same in MCycles; null without a clock rate.</param>
/// <param name="OverheadBytesPerMessage">Bytes per message beyond the payload's own (mean of request and response); null when bytes were not counted.</param>
/// <param name="Bound">What bound the level: generator, server, neither or unknown.</param>
public sealed record LevelFigures(string Level, int RunId, double? CpuUsPerOperation, double? MCyclesPerOperation, double? OverheadBytesPerMessage, string Bound)
{
    /// <summary>The levels of <paramref name="levels"/> with a cost per operation or an overhead per message, in their order.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="levels"/> is null.</exception>
    public static IReadOnlyList<LevelFigures> Of(IReadOnlyList<ClaimLevel> levels)
    {
        ArgumentNullException.ThrowIfNull(levels);
        return [.. levels
            .Select(l => new LevelFigures(l.Name, l.RunId,
                l.Resources?.CpuUsPerOperation is { N: > 0 } us ? us.Mean : null,
                l.Resources?.MCyclesPerOperation is { N: > 0 } mc ? mc.Mean : null,
                MessageOverhead.Of(l.Level)?.PerMessageBytes,
                ClaimEvaluator.BoundName(l.Level.Bound)))
            .Where(f => f.CpuUsPerOperation is not null || f.OverheadBytesPerMessage is not null)];
    }
}

/// <summary>
/// The claims of a run as CSV and as a one-page report in Markdown and printable HTML (docs/claims.md). Invariant
/// culture, <c>\n</c> line ends; units in the column names; an empty CSV field means "no value".
/// </summary>
public static class ClaimsExport
{
    /// <summary>The CSV header: one row per case of each contrast of each claim (a claim without contrasts has one row with an empty contrast); <c>case</c> names the case, <c>p_value</c> and <c>p_holm</c> are its test's p before and after Holm–Bonferroni, <c>left_out</c> the levels left out ("reason: level (run N)", joined by "; ").</summary>
    public const string CsvHeader = "claim_id,document,section,metric,unit,comparison,verdict,contrast,contrast_verdict,a,b,ratio,ratio_low,ratio_high,has_interval,levels_counted,levels_excluded,bound,reason,case,p_value,p_holm,left_out,test,p_mann_whitney";

    /// <summary>Writes <paramref name="claims"/> as CSV (<see cref="CsvHeader"/>; RFC 4180 through CsvHelper).</summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static async Task WriteCsvAsync(TextWriter writer, IReadOnlyList<ClaimResult> claims, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(claims);
        await using var csv = new CsvWriter(writer, new CsvConfiguration(CultureInfo.InvariantCulture) { NewLine = "\n" }, leaveOpen: true);
        foreach (var column in CsvHeader.Split(','))
        {
            csv.WriteField(column);
        }

        await csv.NextRecordAsync();
        foreach (var claim in claims)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var rows = claim.Contrasts.Count == 0 ? [null] : claim.Contrasts.Cast<ContrastResult?>().ToList();
            foreach (var contrast in rows)
            {
                string[] fields =
                [
                    claim.Claim.Id, claim.Claim.Source.Document, claim.Claim.Source.Section, claim.Claim.Metric.ToString(),
                    ClaimMetrics.UnitOf(claim.Claim.Metric), claim.Claim.DescribeComparison(), claim.Verdict.ToString(),
                    contrast?.Name ?? "", contrast?.Verdict.ToString() ?? "", Number(contrast?.A), Number(contrast?.B),
                    Number(contrast?.Ratio), Number(contrast?.RatioLow), Number(contrast?.RatioHigh),
                    contrast is null ? "" : contrast.HasInterval ? "true" : "false",
                    (contrast?.LevelsCounted ?? 0).ToString(CultureInfo.InvariantCulture),
                    (contrast?.LevelsExcluded ?? 0).ToString(CultureInfo.InvariantCulture),
                    contrast is null ? "" : ClaimEvaluator.FormatBounds(contrast.Bounds), contrast?.Reason ?? claim.Reason,
                    contrast?.Case ?? "", Number(contrast?.PValue), Number(contrast?.AdjustedPValue), string.Join("; ", contrast?.Exclusions ?? []),
                    contrast?.Method ?? "", Number(contrast?.MannWhitneyPValue),
                ];
                foreach (var field in fields)
                {
                    csv.WriteField(field);
                }

                await csv.NextRecordAsync();
            }
        }

        await csv.FlushAsync();
    }

    /// <summary>The report as Markdown: a claims table, the sources quoted, what the verdicts were computed with and the environment.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="report"/> is null.</exception>
    public static string Markdown(ClaimsReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return Document(report, forHtml: false);
    }

    // The report's Markdown; for the HTML page (rendered by Markdig) each verdict is a link to its evidence, coloured by
    // its class and anchored by the claim's id, and the level figures are small.
    private static string Document(ClaimsReport report, bool forHtml)
    {
        string Cell(string text) => forHtml ? ClaimsExport.Cell(text).Replace("<", "&lt;", StringComparison.Ordinal) : ClaimsExport.Cell(text);
        var md = new StringBuilder();
        var run = report.Run;
        md.Append(CultureInfo.InvariantCulture, $"# Claims of run {run.Id}: {run.ScenarioName}\n\n");
        md.Append(CultureInfo.InvariantCulture, $"Status {run.Status}; started {Time(run.StartedUtc)}, ended {Time(run.EndedUtc)}; runs taken together: {string.Join(", ", report.RunIds)}. Report made {Time(report.GeneratedUtc)}.\n\n");
        md.Append("| claim | source | verdict | effect A ÷ B [interval] | levels counted | bound | why |\n|---|---|---|---|---|---|---|\n");
        foreach (var c in report.Claims)
        {
            md.Append(CultureInfo.InvariantCulture,
                $"| {Cell(c.Claim.Statement)} | {Cell(c.Claim.Source.Citation)} | {(forHtml ? $"<span id=\"claim-{c.Claim.Id}\" class=\"{c.Verdict}\">[{VerdictText(c.Verdict)}]({EvidenceLink(c, run.Id)})</span>" : $"**{VerdictText(c.Verdict)}**")} | {Cell(c.Effect.Length == 0 ? "—" : c.Effect)}{(c.Figures.Length > 0 ? (forHtml ? "<br><small>" + Cell(c.Figures) + "</small>" : "<br>" + Cell(c.Figures)) : "")} | {c.LevelsCounted}{(c.LevelsExcluded > 0 ? $" (+{c.LevelsExcluded} left out)" : "")} | {Cell(c.BoundSummary)} | {Cell(c.Reason)} |\n");
        }

        md.Append("\n## Sources\n\n");
        foreach (var c in report.Claims)
        {
            md.Append(CultureInfo.InvariantCulture, $"- `{c.Claim.Id}` ({c.Claim.Metric}, {c.Claim.DescribeComparison()}): {c.Claim.Source.Citation}: “{c.Claim.Source.Quote}”\n");
        }

        md.Append("\n## How the verdicts were computed\n\n");
        md.Append(CultureInfo.InvariantCulture, $"{report.Method}. Rules: docs/claims.md.\n\n");
        foreach (var f in report.Runs)
        {
            md.Append(CultureInfo.InvariantCulture, $"- run {f.RunId}: topology {f.Topology}; server cores {f.Cores} ({f.CoresSource}); clock {(f.Clock is null ? "unknown (no MCycles)" : $"{f.Clock.MHz:0.#} MHz ({f.Clock.Source})")}\n");
        }

        var figures = LevelFigures.Of(report.Levels);
        if (figures.Count > 0)
        {
            md.Append("\n## Cost per operation and overhead per message, per level\n\n");
            md.Append("Seed 004's server CPU per operation and seed 002's bytes per message beyond the payload's own, for every level that has them (counted in a verdict or not).\n\n");
            md.Append("| level | run | CPU per operation (µs) | MCycles per operation | overhead per message (bytes) | bound |\n|---|---|---|---|---|---|\n");
            foreach (var f in figures)
            {
                md.Append(CultureInfo.InvariantCulture, $"| {Cell(f.Level)} | {f.RunId} | {Fixed(f.CpuUsPerOperation)} | {Fixed(f.MCyclesPerOperation, "0.###")} | {Fixed(f.OverheadBytesPerMessage)} | {f.Bound} |\n");
            }
        }

        md.Append("\n## Environment\n\n");
        var environment = Flatten(run.EnvironmentJson);
        if (environment.Count == 0)
        {
            md.Append("The run recorded no environment.\n");
        }
        else
        {
            md.Append("| property | value |\n|---|---|\n");
            foreach (var (key, value) in environment)
            {
                md.Append(CultureInfo.InvariantCulture, $"| {Cell(key)} | {Cell(value)} |\n");
            }
        }

        return md.ToString();
    }

    /// <summary>
    /// The report as one printable HTML page (its own styles, no script): the Markdown of <see cref="Markdown"/> rendered
    /// by Markdig (pipe tables), each verdict a link to the chart behind it (<see cref="EvidenceLink"/>) with the claim's id.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="report"/> is null.</exception>
    public static string Html(ClaimsReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
        html.Append(CultureInfo.InvariantCulture, $"<title>Claims of run {report.Run.Id}</title>");
        html.Append("<style>body{font:11pt/1.35 system-ui,sans-serif;margin:2em;color:#111}table{border-collapse:collapse;width:100%;margin:1em 0}" +
            "th,td{border:1px solid #999;padding:4px 6px;vertical-align:top;text-align:left}th{background:#eee}" +
            ".Holds a{color:#1b5e20;font-weight:bold}.DoesNotHold a{color:#b71c1c;font-weight:bold}.Inconclusive a{color:#8d6e00;font-weight:bold}.NotMeasurable a{color:#555;font-weight:bold}.NotMeasuredInTheseRuns a{color:#0d47a1;font-weight:bold}" +
            "@media print{body{margin:0;font-size:9pt}a{color:inherit;text-decoration:none}}</style></head><body>\n");
        html.Append(Markdig.Markdown.ToHtml(Document(report, forHtml: true), ReportPipeline));
        html.Append("</body></html>\n");
        return html.ToString();
    }

    private static readonly MarkdownPipeline ReportPipeline = new MarkdownPipelineBuilder().UsePipeTables().Build();

    /// <summary>"holds", "does not hold", "inconclusive", "not measured in these runs", "not measurable here".</summary>
    public static string VerdictText(ClaimVerdict verdict) => verdict switch
    {
        ClaimVerdict.Holds => "holds",
        ClaimVerdict.DoesNotHold => "does not hold",
        ClaimVerdict.Inconclusive => "inconclusive",
        ClaimVerdict.NotMeasuredInTheseRuns => "not measured in these runs",
        _ => "not measurable here",
    };

    /// <summary>The properties of an environment JSON object as (dotted path, value) pairs in document order; empty when there is none or it is not JSON.</summary>
    public static IReadOnlyList<(string Key, string Value)> Flatten(string? json)
    {
        var pairs = new List<(string, string)>();
        if (string.IsNullOrWhiteSpace(json))
        {
            return pairs;
        }

        try
        {
            using var doc = JsonDocument.Parse(json);
            void Walk(string prefix, JsonElement element)
            {
                switch (element.ValueKind)
                {
                    case JsonValueKind.Object:
                        foreach (var p in element.EnumerateObject())
                        {
                            Walk(prefix.Length == 0 ? p.Name : $"{prefix}.{p.Name}", p.Value);
                        }

                        break;
                    case JsonValueKind.Array:
                        pairs.Add((prefix, string.Join(", ", element.EnumerateArray().Select(e => e.ToString()))));
                        break;
                    default:
                        pairs.Add((prefix, element.ToString()));
                        break;
                }
            }

            Walk("", doc.RootElement);
        }
        catch (JsonException)
        {
            pairs.Add(("environment", json));
        }

        return pairs;
    }

    private static string Time(DateTime? utc) => utc is { } t ? t.ToString("yyyy-MM-dd HH:mm:ss 'UTC'", CultureInfo.InvariantCulture) : "—";

    /// <summary>
    /// The run page's chart behind a verdict (docs/claims.md): the run of its first counted level (else
    /// <paramref name="runId"/>), every level shown (quick presets and one-client claims sit below the thesis's 20 clients)
    /// and, when the counted levels have one payload, that payload's charts: <c>/runs/7?levels=all&amp;payload=Int#chart-throughput</c>.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="result"/> is null.</exception>
    public static string EvidenceLink(ClaimResult result, int runId)
    {
        ArgumentNullException.ThrowIfNull(result);
        var counted = result.Contrasts.Where(x => x.LevelsCounted > 0).ToList();
        var run = counted.SelectMany(x => x.RunIds).Cast<int?>().FirstOrDefault() ?? runId;
        var payloads = counted.SelectMany(x => x.Payloads).Distinct(StringComparer.Ordinal).ToList();
        var payload = payloads.Count == 1 ? "&payload=" + Uri.EscapeDataString(payloads[0]) : "";
        return string.Create(CultureInfo.InvariantCulture, $"/runs/{run}?levels=all{payload}#{result.Claim.ChartAnchor}");
    }

    private static string Fixed(double? value, string format = "0.#") =>
        value is { } v && double.IsFinite(v) ? v.ToString(format, CultureInfo.InvariantCulture) : "—";

    private static string Cell(string text) => text.Replace("|", "\\|", StringComparison.Ordinal).Replace("\n", " ", StringComparison.Ordinal);

    private static string Number(double? value) => value is { } v && double.IsFinite(v) ? v.ToString("R", CultureInfo.InvariantCulture) : "";
}
