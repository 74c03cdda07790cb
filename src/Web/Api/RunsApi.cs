using System.Globalization;
using System.Text;
using System.Text.Json;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Export;
using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Options;
using Dashboard.Web.Results;
using Dashboard.Web.Runs;
using Dashboard.Web.Storage;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Api;

/// <summary>The HTTP API (docs/web.md, "HTTP API"): queue, read, export, rename, cancel and delete runs.</summary>
public static class RunsApi
{
    /// <summary>Maps <c>/api/runs</c>.</summary>
    public static IEndpointRouteBuilder MapRunsApi(this IEndpointRouteBuilder app)
    {
        var runs = app.MapGroup("/api/runs").WithTags("Runs");
        runs.MapPost("/", QueueAsync)
            .WithName("QueueRun")
            .WithSummary("Queue a run of a scenario document (docs/web.md); optional ?at=ISO-8601 time (in the future) schedules it. A body that is not JSON: 400 naming the line and position.")
            .Accepts<ScenarioDocument>("application/json")
            .ProducesValidationProblem();
        runs.MapGet("/", ListAsync).WithName("ListRuns").WithSummary("The newest runs.");
        runs.MapGet("/{id:int}", GetAsync).WithName("GetRun").WithSummary("A run: status, progress, links.");
        runs.MapGet("/{id:int}/levels.csv", LevelsCsvAsync).WithName("GetRunLevelsCsv")
            .WithSummary("One row per stored level (per repetition) as CSV: complete flag, steady state, what bound it, 95 % intervals (from 3 repetitions) and CoV.")
            .Produces(StatusCodes.Status200OK, contentType: "text/csv");
        runs.MapGet("/{id:int}/aggregates.csv", AggregatesCsvAsync).WithName("GetRunAggregatesCsv")
            .WithSummary("One row per variant × client × payload × clients over its repetitions (mean, CoV, 95 % interval from 3 repetitions; partial levels flagged) as CSV.")
            .Produces(StatusCodes.Status200OK, contentType: "text/csv");
        runs.MapGet("/{id:int}/rankings", RankingsAsync).WithName("GetRunRankings")
            .WithSummary("Ranking tables like the thesis's Tables 9.1–9.4: per payload class and overall, by throughput and response time, from ?fromClients=20 on; partial levels only with ?includePartial=true.");
        runs.MapGet("/{id:int}/open-sweep", OpenSweepAsync).WithName("GetRunOpenSweep")
            .WithSummary("The open levels' latency-vs-throughput curves (workload \"open\"): per cell and rate the achieved rate, corrected p50/p99/p99.9 (ms, from each request's intended start), service p99, late starts and drops, and the highest rate meeting the scenario's p99Ms target; no curves for a closed run.");
        runs.MapGet("/{id:int}/samples.csv", SamplesCsvAsync).WithName("GetRunSamplesCsv").WithSummary("Every raw sample as CSV, streamed.")
            .Produces(StatusCodes.Status200OK, contentType: "text/csv");
        runs.MapGet("/{id:int}/bundle", BundleAsync).WithName("GetRunBundle")
            .WithSummary("The run as a result bundle (docs/web.md, \"Result bundles\"): one ZIP with its scenario, environment, every level, every raw sample, the resource readings, the product's version and commit, and the command that reproduces it.")
            .Produces(StatusCodes.Status200OK, contentType: "application/zip");
        runs.MapPost("/import", ImportAsync).WithName("ImportRunBundle")
            .WithSummary("Import a result bundle (the ZIP of GET /api/runs/{id}/bundle, as the request body): it becomes a new run here, read-only and marked imported; 201 with the run, 400 naming what is wrong with a bundle this dashboard cannot read.")
            .Accepts<IFormFile>("application/zip")
            .ProducesProblem(StatusCodes.Status400BadRequest);
        runs.MapDelete("/{id:int}", DeleteAsync).WithName("CancelRun")
            .WithSummary("Cancel a queued, scheduled or running run (a running one stops and keeps its samples; 202); with ?purge=true delete a finished run with its levels and samples (204). 409 when the run's status does not allow it.");
        runs.MapPatch("/{id:int}", AnnotateAsync).WithName("AnnotateRun")
            .WithSummary("Rename and annotate a run: {\"name\": \"...\", \"notes\": \"...\"}; a field left out stays, an empty string clears it.")
            .Accepts<RunAnnotation>("application/json")
            .ProducesProblem(StatusCodes.Status400BadRequest);
        return app;
    }

    private static async Task<Results<Created<RunResource>, ProblemHttpResult>> QueueAsync(
        HttpRequest request, QueueService queue, [FromQuery] string? at, CancellationToken cancellationToken)
    {
        // Read here, not bound: a bound DateTimeOffset that does not parse answers a bare "Bad Request".
        DateTimeOffset? when = null;
        if (!string.IsNullOrEmpty(at))
        {
            if (!DateTimeOffset.TryParse(at, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var parsed))
            {
                return ScenarioProblem(new ScenarioException("at",
                    $"\"{ScenarioText.Shown(at, 60)}\" is not a time: give an ISO 8601 time, e.g. {DateTime.UtcNow.AddHours(1):yyyy-MM-ddTHH:mm:00Z} (UTC) or with its offset, +01:00"));
            }

            when = parsed;
        }

        using var reader = new StreamReader(request.Body, Encoding.UTF8);
        var json = await reader.ReadToEndAsync(cancellationToken);
        if (NotJson(json) is { } notJson)
        {
            return notJson;
        }

        try
        {
            var scenario = ScenarioLoader.ParseValid(json);
            var run = await queue.EnqueueAsync(scenario, when?.UtcDateTime, cancellationToken);
            return TypedResults.Created($"/api/runs/{run.Id}", RunResource.From(run));
        }
        catch (ScenarioException e)
        {
            return ScenarioProblem(e);
        }
    }

    /// <summary>
    /// A 400 problem when <paramref name="json"/> is not JSON at all, saying where (line and position, from 1), blaming no
    /// field; null when it parses.
    /// </summary>
    internal static ProblemHttpResult? NotJson(string json)
    {
        try
        {
            // The loader skips a byte-order mark left after decoding; so does this check (one rule for every entry point).
            using var document = JsonDocument.Parse(ScenarioLoader.WithoutByteOrderMark(json));
            return null;
        }
        catch (JsonException e)
        {
            var reason = e.Message;
            var cut = reason.IndexOf(" Path:", StringComparison.Ordinal);
            reason = (cut >= 0 ? reason[..cut] : reason).Trim().TrimEnd('.');
            cut = reason.IndexOf(" LineNumber:", StringComparison.Ordinal);
            reason = (cut >= 0 ? reason[..cut] : reason).Trim().TrimEnd('.', ' ');
            var line = (e.LineNumber ?? 0) + 1;
            var position = (e.BytePositionInLine ?? 0) + 1;
            var detail = string.IsNullOrWhiteSpace(json)
                ? "the request body is not valid JSON: it is empty"
                : string.Create(CultureInfo.InvariantCulture, $"the request body is not valid JSON: {ScenarioText.Shown(reason, 300)} (line {line}, position {position})");
            return TypedResults.Problem(
                title: "The request body is not valid JSON",
                detail: detail,
                statusCode: StatusCodes.Status400BadRequest,
                extensions: new Dictionary<string, object?> { ["line"] = line, ["position"] = position });
        }
    }

    private static async Task<Ok<RunResource[]>> ListAsync(RunStore store, [FromQuery] int? take, CancellationToken cancellationToken)
    {
        var runs = await store.ListAsync(Math.Clamp(take ?? 50, 1, 1000), null, cancellationToken);
        return TypedResults.Ok(runs.Select(RunResource.From).ToArray());
    }

    private static async Task<Results<Ok<RunResource>, ProblemHttpResult>> GetAsync(int id, RunStore store, CancellationToken cancellationToken) =>
        await store.FindAsync(id, cancellationToken) is { } run ? TypedResults.Ok(RunResource.From(run)) : NotFound(id);

    private static async Task<IResult> LevelsCsvAsync(
        int id, RunResultsService results, CancellationToken cancellationToken)
    {
        if (await results.LevelsAsync(id, cancellationToken) is not var (run, levels))
        {
            return NotFound(id);
        }

        return new CsvResult($"run-{id}-levels.csv", writer => LevelsCsv.WriteAsync(writer, levels, run, cancellationToken));
    }

    private static async Task<IResult> AggregatesCsvAsync(
        int id, RunResultsService results, CancellationToken cancellationToken)
    {
        if (await results.LevelsAsync(id, cancellationToken) is not var (_, levels))
        {
            return NotFound(id);
        }

        // Partial levels are exported, flagged (complete = false), never silently dropped.
        var aggregates = LevelAggregation.Aggregate(levels, includePartial: true);
        return new CsvResult($"run-{id}-aggregates.csv", writer => ResultsCsv.WriteAggregatesAsync(writer, aggregates, cancellationToken));
    }

    private static async Task<Results<Ok<OpenSweep>, ProblemHttpResult>> OpenSweepAsync(int id, RunResultsService results, CancellationToken cancellationToken)
    {
        if (await results.LevelsAsync(id, cancellationToken) is not var (run, levels))
        {
            return NotFound(id);
        }

        return TypedResults.Ok(OpenSweep.Of(levels, OpenSweep.P99TargetOf(run.ScenarioJson)));
    }

    private static async Task<Results<Ok<RankingsResource>, ProblemHttpResult>> RankingsAsync(
        int id, RunResultsService results,
        [FromQuery] int? fromClients, [FromQuery] bool? splitBySecurity, [FromQuery] bool? includePartial, CancellationToken cancellationToken)
    {
        if (await results.LevelsAsync(id, cancellationToken) is not var (_, levels))
        {
            return NotFound(id);
        }

        var options = new RankingOptions(FromClients: fromClients ?? new RankingOptions().FromClients, SplitBySecurity: splitBySecurity ?? true);
        // Partial levels (cut by a cancel, crash or failed driver) rank only when asked for (?includePartial=true).
        var tables = Rankings.Compute(LevelAggregation.Aggregate(levels, includePartial ?? false), options);
        return TypedResults.Ok(new RankingsResource(id, options.FromClients, options.SplitBySecurity, tables));
    }

    private static async Task<IResult> SamplesCsvAsync(
        int id, RunResultsService results, CancellationToken cancellationToken)
    {
        if (await results.LevelsAsync(id, cancellationToken) is not var (_, levels))
        {
            return NotFound(id);
        }

        return new CsvResult($"run-{id}-samples.csv", writer => results.WriteSamplesCsvAsync(writer, levels, cancellationToken));
    }

    private static async Task<IResult> BundleAsync(int id, HttpContext http, RunResultsService results, CancellationToken cancellationToken)
    {
        // Buffered to a temporary file: a ZIP is written with seeks, and the response must not start before it is whole.
        var file = new FileStream(Path.GetTempFileName(), FileMode.Open, FileAccess.ReadWrite, FileShare.None, 1 << 16, FileOptions.DeleteOnClose);
        if (!await results.WriteBundleAsync(id, file, ReproduceCommand(http), cancellationToken))
        {
            await file.DisposeAsync();
            return NotFound(id);
        }

        file.Position = 0;
        return TypedResults.File(file, "application/zip", $"run-{id}.bundle.zip");
    }

    /// <summary>How to run the bundle's scenario again: the API call on a dashboard, or the runner on its own (README.md).</summary>
    internal static string ReproduceCommand(HttpContext http) =>
        "curl -H \"Authorization: Bearer $TOKEN\" -H \"Content-Type: application/json\" --data @scenario.json "
        + $"{http.Request.Scheme}://{http.Request.Host}/api/runs   (or, without a dashboard: Dashboard.Runner run --scenario scenario.json --db results.db)";

    private static async Task<Results<Created<RunResource>, ProblemHttpResult>> ImportAsync(
        HttpRequest request, RunResultsService results, RunStore store, CancellationToken cancellationToken)
    {
        // Buffered: ZipArchive needs a seekable stream.
        await using var body = new FileStream(Path.GetTempFileName(), FileMode.Open, FileAccess.ReadWrite, FileShare.None, 1 << 16, FileOptions.DeleteOnClose);
        await request.Body.CopyToAsync(body, cancellationToken);
        body.Position = 0;
        try
        {
            var run = await results.ImportBundleAsync(body, cancellationToken);
            var stored = await store.FindAsync(run.Id, cancellationToken) ?? run;
            return TypedResults.Created($"/api/runs/{run.Id}", RunResource.From(stored));
        }
        catch (Exception e) when (e is InvalidDataException or NotSupportedException)
        {
            return TypedResults.Problem(title: "Not a result bundle this dashboard can import", detail: e.Message, statusCode: StatusCodes.Status400BadRequest);
        }
    }

    private static async Task<Results<Ok<RunResource>, Accepted<RunResource>, NoContent, ProblemHttpResult>> DeleteAsync(
        int id, QueueService queue, RunStore store, [FromQuery] bool? purge, CancellationToken cancellationToken)
    {
        if (purge == true)
        {
            return await queue.PurgeAsync(id, cancellationToken) switch
            {
                null => NotFound(id),
                true => TypedResults.NoContent(),
                false => Conflict(id, (await store.FindAsync(id, cancellationToken))?.Status, "only a finished run is deleted; cancel it first"),
            };
        }

        var result = await queue.CancelAsync(id, cancellationToken);
        var run = await store.FindAsync(id, cancellationToken);
        return result switch
        {
            _ when run is null => NotFound(id),
            CancelResult.Cancelled => TypedResults.Ok(RunResource.From(run)),
            CancelResult.Stopping => TypedResults.Accepted($"/api/runs/{id}", RunResource.From(run)),
            _ => Conflict(id, run.Status, "only a queued, scheduled or running run can be cancelled; ?purge=true deletes a finished one"),
        };
    }

    private static async Task<Results<Ok<RunResource>, ProblemHttpResult>> AnnotateAsync(
        int id, HttpRequest request, QueueService queue, CancellationToken cancellationToken)
    {
        using var reader = new StreamReader(request.Body, Encoding.UTF8);
        var json = await reader.ReadToEndAsync(cancellationToken);
        if (NotJson(json) is { } notJson)
        {
            return notJson;
        }

        RunAnnotation annotation;
        try
        {
            annotation = RunAnnotation.Parse(json);
        }
        catch (ScenarioException e)
        {
            return TypedResults.Problem(title: "The annotation was refused", detail: e.Message, statusCode: StatusCodes.Status400BadRequest,
                extensions: new Dictionary<string, object?> { ["field"] = e.Field });
        }

        var run = await queue.AnnotateAsync(id, annotation.Name, annotation.Notes, cancellationToken);
        return run is null ? NotFound(id) : TypedResults.Ok(RunResource.From(run));
    }

    private static ProblemHttpResult Conflict(int id, RunStatus? status, string rule) => TypedResults.Problem(
        title: status is { } s && RunStore.Finished.Contains(s) ? "The run has already ended" : "The run has not ended",
        detail: $"run {id} is {status}; {rule}",
        statusCode: StatusCodes.Status409Conflict,
        extensions: new Dictionary<string, object?> { ["runStatus"] = status?.ToString() });

    private static ProblemHttpResult ScenarioProblem(ScenarioException e) => TypedResults.Problem(
        title: "The scenario was refused",
        detail: e.Message,
        statusCode: StatusCodes.Status400BadRequest,
        extensions: new Dictionary<string, object?>
        {
            ["field"] = e.Field,
            ["problems"] = (e.Problems.Count > 0 ? e.Problems : [(e.Field, e.Message)])
                .Select(p => new Dictionary<string, string> { ["field"] = p.Field, ["message"] = p.Message }).ToArray(),
        });

    private static ProblemHttpResult NotFound(int id) =>
        TypedResults.Problem(title: "No such run", detail: $"no run has id {id}", statusCode: StatusCodes.Status404NotFound);

    /// <summary>A CSV body written straight to the response.</summary>
    private sealed class CsvResult(string fileName, Func<TextWriter, Task> write) : IResult
    {
        public async Task ExecuteAsync(HttpContext httpContext)
        {
            httpContext.Response.ContentType = "text/csv; charset=utf-8";
            httpContext.Response.Headers.ContentDisposition = $"attachment; filename=\"{fileName}\"";
            await using var writer = new StreamWriter(httpContext.Response.Body, new UTF8Encoding(false), 64 * 1024);
            await write(writer);
            await writer.FlushAsync();
        }
    }
}
