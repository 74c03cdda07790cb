using Dashboard.Web.Hosts;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;

namespace Dashboard.Web.Api;

/// <summary>A service host to register (<c>POST /api/hosts</c>): its control API's address and its control token (docs/security.md).</summary>
/// <param name="Address">Base address of its control API, e.g. <c>http://bench-server:5090</c>.</param>
/// <param name="Token">Its control token (its <c>ServiceHost:ControlToken</c>, or its security folder's <c>control-token</c>); stored, never answered.</param>
public sealed record HostRegistration(string? Address, string? Token);

/// <summary>
/// <c>/api/hosts</c> (docs/web.md, "HTTP API"): the service hosts runs may target (docs/security.md, "Targets are
/// registered hosts"), register one with its token, forget one. No answer carries a token.
/// </summary>
public static class HostsApi
{
    /// <summary>Maps <c>/api/hosts</c> and returns its group, so a policy (e.g. Admin only) can be put on every route at once.</summary>
    public static RouteGroupBuilder MapHostsApi(this IEndpointRouteBuilder app)
    {
        var hosts = app.MapGroup("/api/hosts").WithTags("Hosts");
        hosts.MapGet("/", (HostRegistry registry) => TypedResults.Ok(registry.All)).WithName("ListHosts")
            .WithSummary("The service hosts runs may target, local first: address, local or not, health of the last GET /healthz (Unknown, Up, Starting, Down), its detail and time (UTC). Never a token.");
        hosts.MapPost("/", Register).WithName("RegisterHost")
            .WithSummary("Register a remote service host: {\"address\": \"http://bench-server:5090\", \"token\": \"<its control token>\"}; again for a known address replaces its token. 400 naming the field.")
            .Accepts<HostRegistration>("application/json")
            .ProducesProblem(StatusCodes.Status400BadRequest);
        hosts.MapDelete("/", Remove).WithName("RemoveHost")
            .WithSummary("Forget the remote host ?address= and its token (its stored runs stay). 400 for the local host, 404 for an unknown address.");
        return hosts;
    }

    private static Results<Created<HostStatus>, ProblemHttpResult> Register(HostRegistration? registration, HostRegistry registry)
    {
        if (!registry.TryAdd(registration?.Address ?? "", registration?.Token, out var problem))
        {
            var field = problem!.StartsWith("token:", StringComparison.Ordinal) ? "token" : "address";
            return TypedResults.Problem(title: "The host was refused", detail: problem, statusCode: StatusCodes.Status400BadRequest,
                extensions: new Dictionary<string, object?> { ["field"] = field });
        }

        var status = registry.Find(new Uri(registration!.Address!.Trim()))!;
        return TypedResults.Created($"/api/hosts?address={Uri.EscapeDataString(status.Address.AbsoluteUri)}", status);
    }

    private static Results<NoContent, ProblemHttpResult> Remove([FromQuery] string? address, HostRegistry registry)
    {
        if (!Uri.TryCreate(address, UriKind.Absolute, out var uri))
        {
            return TypedResults.Problem(title: "No address", detail: "give ?address=http://host:port", statusCode: StatusCodes.Status400BadRequest);
        }

        if (registry.TryRemove(uri, out var problem))
        {
            return TypedResults.NoContent();
        }

        return TypedResults.Problem(title: "The host was not removed", detail: problem,
            statusCode: registry.Find(uri) is null ? StatusCodes.Status404NotFound : StatusCodes.Status400BadRequest);
    }
}
