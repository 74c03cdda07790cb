using Dashboard.Data.Agents;
using Dashboard.Web.Agents;
using Microsoft.AspNetCore.Http.HttpResults;

namespace Dashboard.Web.Api;

/// <summary><c>GET /api/agents</c>: the load agents (docs/agents.md) with their state, cores, client technologies, clock offset and last heartbeat.</summary>
public static class AgentsApi
{
    /// <summary>Maps <c>/api/agents</c>.</summary>
    public static IEndpointRouteBuilder MapAgentsApi(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/agents", ListAsync).WithTags("Agents").WithName("ListAgents")
            .WithSummary("Every registered load agent by name: state (Online, Stale, Offline by its last heartbeat, database clock), cores, client technologies, runtimes, clock offset to the database server (ms ± ms), last heartbeat (UTC). Empty in SQLite mode; 503 when the database cannot be reached.");
        return app;
    }

    private static async Task<Results<Ok<IReadOnlyList<AgentInfo>>, ProblemHttpResult>> ListAsync(AgentDirectory agents, CancellationToken cancellationToken)
    {
        try
        {
            return TypedResults.Ok(await agents.ListAsync(cancellationToken));
        }
        catch (Npgsql.NpgsqlException e)
        {
            return TypedResults.Problem($"the agents' database cannot be reached: {e.Message}", statusCode: StatusCodes.Status503ServiceUnavailable, title: "Agents unavailable");
        }
    }
}
