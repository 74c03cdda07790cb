using System.Text;
using System.Text.Json;
using Dashboard.Web.Results;

namespace Dashboard.Web.Api;

/// <summary>
/// <c>GET /api/runs/{id}/environment</c> (JSON) and <c>/api/runs/{id}/environment.json</c> (the same as a download, beside
/// the CSVs): where a run was measured — CPU model, cores on each side, memory, OS, kernel, runtimes, the versions of
/// every stack and client library, commit and topology (docs/statistics.md, "Environment").
/// </summary>
public static class RunEnvironmentApi
{
    /// <summary>Maps the two routes under <c>/api/runs</c>.</summary>
    public static IEndpointRouteBuilder MapRunEnvironmentApi(this IEndpointRouteBuilder app)
    {
        var runs = app.MapGroup("/api/runs").WithTags("Runs");
        runs.MapGet("/{id:int}/environment", (int id, RunResultsService results, CancellationToken ct) =>
                EnvironmentAsync(id, results, download: false, ct))
            .WithName("GetRunEnvironment")
            .WithSummary("Where the run was measured: CPU model, cores each side, memory, OS, kernel, runtimes, stack and client versions, commit, topology; 404 while not known.")
            .Produces(StatusCodes.Status200OK, contentType: "application/json");
        runs.MapGet("/{id:int}/environment.json", (int id, RunResultsService results, CancellationToken ct) =>
                EnvironmentAsync(id, results, download: true, ct))
            .WithName("GetRunEnvironmentFile")
            .WithSummary("The run's environment as a file download, beside levels.csv and aggregates.csv.")
            .Produces(StatusCodes.Status200OK, contentType: "application/json");
        return app;
    }

    private static async Task<IResult> EnvironmentAsync(int id, RunResultsService results, bool download, CancellationToken cancellationToken)
    {
        var (exists, stored) = await results.EnvironmentAsync(id, cancellationToken);
        if (!exists)
        {
            return TypedResults.Problem(title: "No such run", detail: $"no run has id {id}", statusCode: StatusCodes.Status404NotFound);
        }

        // One row per run: the runner writes its environment into the row the dashboard queued (--run-id).
        var json = stored is not null && IsObject(stored) ? stored : null;
        if (json is null)
        {
            return TypedResults.Problem(
                title: "Environment not known",
                detail: $"run {id} has no recorded environment yet (queued, or stored before environments were recorded)",
                statusCode: StatusCodes.Status404NotFound);
        }

        return download
            ? TypedResults.File(Encoding.UTF8.GetBytes(json), "application/json", $"run-{id}-environment.json")
            : TypedResults.Text(json, "application/json", Encoding.UTF8);
    }

    private static bool IsObject(string json)
    {
        try
        {
            using var document = JsonDocument.Parse(json);
            return document.RootElement.ValueKind == JsonValueKind.Object;
        }
        catch (JsonException)
        {
            return false;
        }
    }
}
