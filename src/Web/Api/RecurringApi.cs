using System.Text;
using System.Text.Json;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Runs;
using Microsoft.AspNetCore.Http.HttpResults;

namespace Dashboard.Web.Api;

/// <summary>
/// Recurring runs over HTTP (docs/web.md, "Recurring runs"): list, set (<c>PUT</c> a cron expression and a scenario),
/// pause, resume, delete. Each fires a new queued run of its scenario at every time its cron expression names (UTC).
/// </summary>
public static class RecurringApi
{
    /// <summary>Maps <c>/api/recurring</c>.</summary>
    public static IEndpointRouteBuilder MapRecurringApi(this IEndpointRouteBuilder app)
    {
        var recurring = app.MapGroup("/api/recurring").WithTags("Recurring runs");
        recurring.MapGet("/", (QueueService queue) => TypedResults.Ok(queue.ListRecurring().ToArray()))
            .WithName("ListRecurringRuns").WithSummary("Every recurring run: id, cron, scenario name, paused, next and last time (UTC).");
        recurring.MapPut("/{id}", SetAsync).WithName("SetRecurringRun")
            .WithSummary("Add or replace a recurring run: {\"cron\": \"0 2 * * *\", \"scenario\": {...scenario document...}}; cron has 5 fields (or 6 with seconds first), UTC.")
            .ProducesProblem(StatusCodes.Status400BadRequest);
        recurring.MapPost("/{id}/pause", (string id, QueueService queue) => Pause(id, queue, true)).WithName("PauseRecurringRun").WithSummary("Pause: it queues nothing until resumed.");
        recurring.MapPost("/{id}/resume", (string id, QueueService queue) => Pause(id, queue, false)).WithName("ResumeRecurringRun").WithSummary("Resume a paused recurring run.");
        recurring.MapDelete("/{id}", (string id, QueueService queue) =>
        {
            queue.DeleteRecurring(id);
            return TypedResults.NoContent();
        }).WithName("DeleteRecurringRun").WithSummary("Delete a recurring run; the runs it queued stay.");
        return app;
    }

    private static async Task<Results<Ok<RecurringRun>, ProblemHttpResult>> SetAsync(string id, HttpRequest request, QueueService queue, CancellationToken cancellationToken)
    {
        using var reader = new StreamReader(request.Body, Encoding.UTF8);
        var json = await reader.ReadToEndAsync(cancellationToken);
        if (RunsApi.NotJson(json) is { } notJson)
        {
            return notJson;
        }

        try
        {
            using var document = JsonDocument.Parse(json);
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw new ScenarioException("body", "give an object: {\"cron\": \"0 2 * * *\", \"scenario\": {...}}");
            }

            foreach (var property in root.EnumerateObject())
            {
                if (property.Name is not ("cron" or "scenario"))
                {
                    throw new ScenarioException(property.Name, "unknown field; a recurring run has 'cron' and 'scenario'");
                }
            }

            var cron = root.TryGetProperty("cron", out var c) && c.ValueKind == JsonValueKind.String ? c.GetString()! : throw new ScenarioException("cron", "give a cron expression as a string");
            var scenario = root.TryGetProperty("scenario", out var s) && s.ValueKind == JsonValueKind.Object
                ? ScenarioLoader.ParseValid(s.GetRawText())
                : throw new ScenarioException("scenario", "give a scenario document (an object)");
            return TypedResults.Ok(queue.AddRecurring(id, cron, scenario));
        }
        catch (ScenarioException e)
        {
            return TypedResults.Problem(title: "The recurring run was refused", detail: e.Message, statusCode: StatusCodes.Status400BadRequest,
                extensions: new Dictionary<string, object?> { ["field"] = e.Field });
        }
    }

    private static Results<Ok<RecurringRun>, ProblemHttpResult> Pause(string id, QueueService queue, bool pause) =>
        queue.PauseRecurring(id, pause)
            ? TypedResults.Ok(queue.ListRecurring().Single(r => r.Id == id))
            : TypedResults.Problem(title: "No such recurring run", detail: $"no recurring run has id '{id}'", statusCode: StatusCodes.Status404NotFound);
}
