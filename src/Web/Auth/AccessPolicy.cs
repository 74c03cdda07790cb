using Dashboard.Web.Components.Pages;
using Dashboard.Web.Components.Pages.Account;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Components.Endpoints;
using ComponentRouteData = Microsoft.AspNetCore.Components.RouteData;

namespace Dashboard.Web.Auth;

/// <summary>
/// The dashboard's one authorization rule (docs/security.md, "The dashboard's side"): the fallback policy of every
/// endpoint (API, OpenAPI, the Blazor hub) and the policy of every page (<c>Components/Pages/_Imports.razor</c>), so a new
/// endpoint or page is guarded without anyone remembering to. What each needs is in <see cref="RequiredRole(HttpContext)"/>
/// and <see cref="RequiredRole(Type)"/>; endpoints that must open without an account say <c>AllowAnonymous</c>.
/// </summary>
public static class AccessPolicy
{
    /// <summary>The policy's name.</summary>
    public const string Name = "DashboardAccess";

    /// <summary>Pages that need more than Viewer, or less (null: anyone, signed in or not).</summary>
    private static readonly Dictionary<Type, string?> Pages = new()
    {
        [typeof(NewRun)] = DashboardRoles.Operator,
        [typeof(Components.Pages.Hosts)] = DashboardRoles.Admin,
        [typeof(Components.Pages.Agents)] = DashboardRoles.Admin,
        [typeof(Tokens)] = DashboardRoles.Admin,
        [typeof(AuditLog)] = DashboardRoles.Admin,
        [typeof(NotFound)] = null,
        [typeof(Error)] = null,
    };

    /// <summary>
    /// The least role a request needs: a page's (<see cref="RequiredRole(Type)"/>); on the API, Admin for agents and hosts,
    /// Operator for any method but GET and HEAD, else Viewer; Viewer for the rest (OpenAPI, the Blazor hub).
    /// </summary>
    public static string? RequiredRole(HttpContext http)
    {
        ArgumentNullException.ThrowIfNull(http);
        if (http.GetEndpoint()?.Metadata.GetMetadata<ComponentTypeMetadata>()?.Type is { } page)
        {
            return RequiredRole(page);
        }

        var path = http.Request.Path;
        if (path.StartsWithSegments("/api/agents", StringComparison.OrdinalIgnoreCase) || path.StartsWithSegments("/api/hosts", StringComparison.OrdinalIgnoreCase))
        {
            return DashboardRoles.Admin;
        }

        return path.StartsWithSegments("/api", StringComparison.OrdinalIgnoreCase) && !HttpMethods.IsGet(http.Request.Method) && !HttpMethods.IsHead(http.Request.Method)
            ? DashboardRoles.Operator
            : DashboardRoles.Viewer;
    }

    /// <summary>The least role page <paramref name="page"/> needs (Viewer unless listed), or null when anyone may open it.</summary>
    public static string? RequiredRole(Type page) => Pages.TryGetValue(page, out var role) ? role : DashboardRoles.Viewer;
}

/// <summary>The requirement of <see cref="AccessPolicy"/>.</summary>
public sealed class AccessRequirement : IAuthorizationRequirement;

/// <summary>
/// Decides <see cref="AccessRequirement"/>: an endpoint (the resource is its <see cref="HttpContext"/>) or a page the
/// circuit routes to (the resource is its <see cref="ComponentRouteData"/>) needs the role <see cref="AccessPolicy"/> names.
/// </summary>
public sealed class AccessHandler : AuthorizationHandler<AccessRequirement>
{
    /// <inheritdoc />
    protected override Task HandleRequirementAsync(AuthorizationHandlerContext context, AccessRequirement requirement)
    {
        ArgumentNullException.ThrowIfNull(context);
        var needed = context.Resource switch
        {
            HttpContext http => AccessPolicy.RequiredRole(http),
            ComponentRouteData route => AccessPolicy.RequiredRole(route.PageType),
            _ => DashboardRoles.Viewer,
        };
        if (needed is null || DashboardRoles.HasAtLeast(context.User, needed))
        {
            context.Succeed(requirement);
        }

        return Task.CompletedTask;
    }
}
