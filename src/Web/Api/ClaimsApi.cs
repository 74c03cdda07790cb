using System.Globalization;
using System.Text;
using Dashboard.Data.Claims;
using Dashboard.Data.Export;
using Dashboard.Web.Results;
using Dashboard.Web.Storage;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;

namespace Dashboard.Web.Api;

/// <summary>A run's claims with their verdicts (docs/claims.md), as <c>GET /api/runs/{id}/claims</c> answers.</summary>
/// <param name="RunId">The run asked for.</param>
/// <param name="RunIds">Every run the verdicts were computed over (the run first, then <c>?with=</c>).</param>
/// <param name="Method">The test and interval behind the verdicts.</param>
/// <param name="Runs">Per run: topology, the server's cores and clock rate, and where they come from.</param>
/// <param name="Claims">The claims that concern the runs (every claim with <c>?all=true</c>), each with its verdict.</param>
public sealed record ClaimsResource(int RunId, IReadOnlyList<int> RunIds, string Method, IReadOnlyList<RunFacts> Runs, IReadOnlyList<ClaimResult> Claims)
{
    /// <summary>Per level with them: seed 004's server CPU per operation (µs, MCycles) and seed 002's overhead per message (bytes).</summary>
    public IReadOnlyList<LevelFigures> LevelFigures { get; init; } = [];
}

/// <summary>
/// <c>GET /api/runs/{id}/claims</c> (JSON), <c>/claims.csv</c>, <c>/report.md</c> and <c>/report.html</c>: each claim of
/// the source documents that concerns the run, with its verdict (src/Data/Claims). <c>?with=2,3</c> takes other runs
/// together with it (a preset's parts, or the same preset in the other topology); <c>?all=true</c> lists every claim.
/// </summary>
public static class ClaimsApi
{
    /// <summary>Maps the claims endpoints under <c>/api/runs/{id}</c>.</summary>
    public static IEndpointRouteBuilder MapClaimsApi(this IEndpointRouteBuilder app)
    {
        var runs = app.MapGroup("/api/runs").WithTags("Claims");
        runs.MapGet("/{id:int}/claims", GetAsync).WithName("GetRunClaims")
            .WithSummary("The source documents' claims that concern the run, each with its verdict, effect A ÷ B and interval, levels counted and what bound them; ?with=2,3 adds runs, ?all=true lists every claim.");
        runs.MapGet("/{id:int}/claims.csv", CsvAsync).WithName("GetRunClaimsCsv")
            .WithSummary("The claims as CSV, one row per contrast.").Produces(StatusCodes.Status200OK, contentType: "text/csv");
        runs.MapGet("/{id:int}/report.md", MarkdownAsync).WithName("GetRunReportMarkdown")
            .WithSummary("A one-page report of the run's claims and environment, in Markdown.").Produces(StatusCodes.Status200OK, contentType: "text/markdown");
        runs.MapGet("/{id:int}/report.html", HtmlAsync).WithName("GetRunReportHtml")
            .WithSummary("The one-page report as printable HTML.").Produces(StatusCodes.Status200OK, contentType: "text/html");
        return app;
    }

    private static async Task<Results<Ok<ClaimsResource>, ProblemHttpResult>> GetAsync(
        int id, [FromQuery] string? with, [FromQuery] bool? all, RunStore store, ClaimResultsService claims, CancellationToken ct)
    {
        var report = await ReportAsync(id, with, all ?? false, store, claims, ct);
        return report.Problem is { } problem ? problem
            : TypedResults.Ok(new ClaimsResource(id, report.Value!.RunIds, report.Value.Method, report.Value.Runs, report.Value.Claims)
            {
                LevelFigures = Dashboard.Data.Export.LevelFigures.Of(report.Value.Levels),
            });
    }

    private static async Task<IResult> CsvAsync(
        int id, [FromQuery] string? with, [FromQuery] bool? all, RunStore store, ClaimResultsService claims, CancellationToken ct)
    {
        var report = await ReportAsync(id, with, all ?? false, store, claims, ct);
        if (report.Problem is { } problem)
        {
            return problem;
        }

        var text = new StringWriter(CultureInfo.InvariantCulture);
        await ClaimsExport.WriteCsvAsync(text, report.Value!.Claims, ct);
        return Microsoft.AspNetCore.Http.Results.File(new UTF8Encoding(false).GetBytes(text.ToString()), "text/csv; charset=utf-8", $"run-{id}-claims.csv");
    }

    private static async Task<IResult> MarkdownAsync(
        int id, [FromQuery] string? with, [FromQuery] bool? all, RunStore store, ClaimResultsService claims, CancellationToken ct)
    {
        var report = await ReportAsync(id, with, all ?? false, store, claims, ct);
        return report.Problem is { } problem ? problem
            : Microsoft.AspNetCore.Http.Results.Text(ClaimsExport.Markdown(report.Value!), "text/markdown; charset=utf-8", Encoding.UTF8);
    }

    private static async Task<IResult> HtmlAsync(
        int id, [FromQuery] string? with, [FromQuery] bool? all, RunStore store, ClaimResultsService claims, CancellationToken ct)
    {
        var report = await ReportAsync(id, with, all ?? false, store, claims, ct);
        return report.Problem is { } problem ? problem
            : Microsoft.AspNetCore.Http.Results.Text(ClaimsExport.Html(report.Value!), "text/html; charset=utf-8", Encoding.UTF8);
    }

    private static async Task<(ClaimsReport? Value, ProblemHttpResult? Problem)> ReportAsync(
        int id, string? with, bool all, RunStore store, ClaimResultsService claims, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } run)
        {
            return (null, NotFound(id));
        }

        var others = new List<int>();
        foreach (var part in (with ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var other))
            {
                return (null, TypedResults.Problem(title: "Bad run list", detail: $"with: '{part}' is not a run id (expected e.g. with=2,3)",
                    statusCode: StatusCodes.Status400BadRequest, extensions: new Dictionary<string, object?> { ["field"] = "with" }));
            }

            if (await store.FindAsync(other, ct) is null)
            {
                return (null, TypedResults.Problem(title: "No such run", detail: $"with: no run has id {other}",
                    statusCode: StatusCodes.Status404NotFound, extensions: new Dictionary<string, object?> { ["field"] = "with" }));
            }

            if (other != id && !others.Contains(other))
            {
                others.Add(other);
            }
        }

        var runIds = new List<int> { id };
        runIds.AddRange(others);
        var dataIds = runIds.Distinct().ToArray();
        var verdicts = await claims.EvaluateAsync(dataIds, all, claims: null, ct);
        return (new ClaimsReport(run, runIds, verdicts.Claims, verdicts.Inputs.Runs, claims.Evaluator.Method, DateTime.UtcNow) { Levels = verdicts.Inputs.Levels }, null);
    }

    private static ProblemHttpResult NotFound(int id) =>
        TypedResults.Problem(title: "No such run", detail: $"no run has id {id}", statusCode: StatusCodes.Status404NotFound);
}
