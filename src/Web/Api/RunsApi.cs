using System.Text;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Export;
using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Options;
using Dashboard.Web.Runs;
using Dashboard.Web.Storage;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Api;

/// <summary>The HTTP API of DESIGN.md §4: queue, read, export and cancel runs.</summary>
public static class RunsApi
{
    /// <summary>Maps <c>/api/runs</c>.</summary>
    public static IEndpointRouteBuilder MapRunsApi(this IEndpointRouteBuilder app)
    {
        var runs = app.MapGroup("/api/runs").WithTags("Runs");
        runs.MapPost("/", QueueAsync)
            .WithName("QueueRun")
            .WithSummary("Queue a run of a scenario document (DESIGN.md §4); optional ?at=ISO-8601 time runs it later.")
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
        runs.MapGet("/{id:int}/samples.csv", SamplesCsvAsync).WithName("GetRunSamplesCsv").WithSummary("Every raw sample as CSV, streamed.")
            .Produces(StatusCodes.Status200OK, contentType: "text/csv");
        runs.MapDelete("/{id:int}", CancelAsync).WithName("CancelRun")
            .WithSummary("Cancel a queued run, or stop a running one (its samples are kept); 409 when it has ended.");
        return app;
    }

    private static async Task<Results<Created<RunResource>, ProblemHttpResult>> QueueAsync(
        HttpRequest request, QueueService queue, [FromQuery] DateTimeOffset? at, CancellationToken cancellationToken)
    {
        using var reader = new StreamReader(request.Body, Encoding.UTF8);
        var json = await reader.ReadToEndAsync(cancellationToken);
        ScenarioDocument scenario;
        try
        {
            scenario = ScenarioLoader.Parse(json);
        }
        catch (ScenarioException e)
        {
            return ScenarioProblem(e);
        }

        var run = await queue.EnqueueAsync(scenario, at?.UtcDateTime, cancellationToken);
        return TypedResults.Created($"/api/runs/{run.Id}", RunResource.From(run));
    }

    private static async Task<Ok<RunResource[]>> ListAsync(RunStore store, [FromQuery] int? take, CancellationToken cancellationToken)
    {
        var runs = await store.ListAsync(Math.Clamp(take ?? 50, 1, 1000), null, cancellationToken);
        return TypedResults.Ok(runs.Select(RunResource.From).ToArray());
    }

    private static async Task<Results<Ok<RunResource>, ProblemHttpResult>> GetAsync(int id, RunStore store, CancellationToken cancellationToken) =>
        await store.FindAsync(id, cancellationToken) is { } run ? TypedResults.Ok(RunResource.From(run)) : NotFound(id);

    private static async Task<IResult> LevelsCsvAsync(
        int id, HttpContext http, RunStore store, IDbContextFactory<ResultsDbContext> contexts, CancellationToken cancellationToken)
    {
        var levels = await LevelsAsync(id, store, contexts, cancellationToken);
        if (levels is null)
        {
            return NotFound(id);
        }

        return new CsvResult($"run-{id}-levels.csv", writer => ResultsCsv.WriteLevelsAsync(writer, levels, cancellationToken));
    }

    private static async Task<IResult> AggregatesCsvAsync(
        int id, RunStore store, IDbContextFactory<ResultsDbContext> contexts, CancellationToken cancellationToken)
    {
        var levels = await LevelsAsync(id, store, contexts, cancellationToken);
        if (levels is null)
        {
            return NotFound(id);
        }

        // Partial levels are exported, flagged (complete = false), never silently dropped.
        var aggregates = ResultsQueries.Aggregate(levels, includePartial: true);
        return new CsvResult($"run-{id}-aggregates.csv", writer => ResultsCsv.WriteAggregatesAsync(writer, aggregates, cancellationToken));
    }

    private static async Task<Results<Ok<RankingsResource>, ProblemHttpResult>> RankingsAsync(
        int id, RunStore store, IDbContextFactory<ResultsDbContext> contexts,
        [FromQuery] int? fromClients, [FromQuery] bool? splitBySecurity, [FromQuery] bool? includePartial, CancellationToken cancellationToken)
    {
        var levels = await LevelsAsync(id, store, contexts, cancellationToken);
        if (levels is null)
        {
            return NotFound(id);
        }

        var options = new RankingOptions(FromClients: fromClients ?? new RankingOptions().FromClients, SplitBySecurity: splitBySecurity ?? true);
        // Partial levels (cut by a cancel, crash or failed driver) rank only when asked for (?includePartial=true).
        var tables = Rankings.Compute(ResultsQueries.Aggregate(levels, includePartial ?? false), options);
        return TypedResults.Ok(new RankingsResource(id, options.FromClients, options.SplitBySecurity, tables));
    }

    private static async Task<IResult> SamplesCsvAsync(
        int id, RunStore store, IDbContextFactory<ResultsDbContext> contexts, IOptions<DashboardOptions> options, CancellationToken cancellationToken)
    {
        var levels = await LevelsAsync(id, store, contexts, cancellationToken);
        if (levels is null)
        {
            return NotFound(id);
        }

        var path = options.Value.DatabasePath;
        return new CsvResult($"run-{id}-samples.csv", writer => ResultsCsv.WriteSamplesAsync(writer, path, levels, cancellationToken));
    }

    private static async Task<Results<Ok<RunResource>, Accepted<RunResource>, ProblemHttpResult>> CancelAsync(
        int id, QueueService queue, RunStore store, CancellationToken cancellationToken)
    {
        var result = await queue.CancelAsync(id, cancellationToken);
        var run = await store.FindAsync(id, cancellationToken);
        return result switch
        {
            _ when run is null => NotFound(id),
            CancelResult.Cancelled => TypedResults.Ok(RunResource.From(run)),
            CancelResult.Stopping => TypedResults.Accepted($"/api/runs/{id}", RunResource.From(run)),
            _ => TypedResults.Problem(
                title: "The run has already ended",
                detail: $"run {id} is {run.Status}; only a queued or running run can be cancelled",
                statusCode: StatusCodes.Status409Conflict,
                extensions: new Dictionary<string, object?> { ["runStatus"] = run.Status.ToString() }),
        };
    }

    private static async Task<List<LevelEntity>?> LevelsAsync(int id, RunStore store, IDbContextFactory<ResultsDbContext> contexts, CancellationToken cancellationToken)
    {
        if (await store.FindAsync(id, cancellationToken) is null)
        {
            return null;
        }

        var ids = store.DataRunIds(id).ToArray();
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.Levels.AsNoTracking().Where(l => ids.Contains(l.RunId))
            .OrderBy(l => l.Variant).ThenBy(l => l.Client).ThenBy(l => l.Payload).ThenBy(l => l.Clients).ThenBy(l => l.Repetition).ThenBy(l => l.Id)
            .ToListAsync(cancellationToken);
    }

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
