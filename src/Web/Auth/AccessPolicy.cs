using System.Globalization;
using System.Security.Claims;
using Dashboard.Web.Components.Pages;
using Dashboard.Web.Components.Pages.Account;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Components;
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
        [typeof(Users)] = DashboardRoles.Admin,
        [typeof(AuditLog)] = DashboardRoles.Admin,
        [typeof(Shares)] = DashboardRoles.Operator,
        [typeof(NotFound)] = null,
        [typeof(Error)] = null,
    };

    /// <summary>
    /// The least role a request needs: a page's (<see cref="RequiredRole(Type)"/>); on the API, Admin for agents, hosts and users,
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
        if (path.StartsWithSegments("/api/agents", StringComparison.OrdinalIgnoreCase) || path.StartsWithSegments("/api/hosts", StringComparison.OrdinalIgnoreCase)
            || path.StartsWithSegments("/api/users", StringComparison.OrdinalIgnoreCase))
        {
            return DashboardRoles.Admin;
        }

        return path.StartsWithSegments("/api", StringComparison.OrdinalIgnoreCase) && !HttpMethods.IsGet(http.Request.Method) && !HttpMethods.IsHead(http.Request.Method)
            ? DashboardRoles.Operator
            : DashboardRoles.Viewer;
    }

    /// <summary>The least role page <paramref name="page"/> needs (Viewer unless listed), or null when anyone may open it.</summary>
    public static string? RequiredRole(Type page) => Pages.TryGetValue(page, out var role) ? role : DashboardRoles.Viewer;

    /// <summary>The runs a share link's reader may read (<see cref="ShareEndpoints.RunsClaim"/>), or null for anyone else.</summary>
    public static IReadOnlySet<int>? SharedRuns(ClaimsPrincipal user)
    {
        ArgumentNullException.ThrowIfNull(user);
        return user.FindFirst(ShareEndpoints.RunsClaim)?.Value is { } runs ? ShareEndpoints.ParseRuns(runs).ToHashSet() : null;
    }

    /// <summary>
    /// What a share link's reader may request: the run page of a shared run, the compare view of shared runs only, a
    /// <c>GET</c> under <c>/api/runs/{id}</c> of a shared run (its exports), and the Blazor circuit; nothing else.
    /// </summary>
    public static bool ShareAllows(HttpContext http, IReadOnlySet<int> runs)
    {
        ArgumentNullException.ThrowIfNull(http);
        ArgumentNullException.ThrowIfNull(runs);
        if (http.GetEndpoint()?.Metadata.GetMetadata<ComponentTypeMetadata>()?.Type is { } page)
        {
            return RequiredRole(page) is null || ShareAllowsPage(page, http.Request.RouteValues["Id"]?.ToString(), http.Request.Query["runs"].ToString(), runs);
        }

        var path = http.Request.Path;
        if (path.StartsWithSegments("/_blazor", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        var segments = path.Value?.Split('/', StringSplitOptions.RemoveEmptyEntries) ?? [];
        return (HttpMethods.IsGet(http.Request.Method) || HttpMethods.IsHead(http.Request.Method))
            && segments is ["api", "runs", var id, ..] && int.TryParse(id, CultureInfo.InvariantCulture, out var run) && runs.Contains(run);
    }

    /// <summary>Whether a share link's reader may be at <paramref name="address"/>: <c>/runs/{id}</c> of a shared run, or <c>/compare?runs=…</c> of shared runs only.</summary>
    public static bool ShareAllowsAddress(Uri? address, IReadOnlySet<int> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var segments = address?.AbsolutePath.Split('/', StringSplitOptions.RemoveEmptyEntries) ?? [];
        var query = address is null ? null : Microsoft.AspNetCore.WebUtilities.QueryHelpers.ParseQuery(address.Query).GetValueOrDefault("runs").ToString();
        return segments switch
        {
            ["runs", var id] => ShareAllowsPage(typeof(Run), id, null, runs),
            ["compare"] => ShareAllowsPage(typeof(Compare), null, query, runs),
            _ => false,
        };
    }

    /// <summary>Whether a share link's reader may see <paramref name="page"/> with route id <paramref name="id"/> and query <c>runs</c> <paramref name="query"/>.</summary>
    public static bool ShareAllowsPage(Type page, string? id, string? query, IReadOnlySet<int> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        if (page == typeof(Run))
        {
            return int.TryParse(id, CultureInfo.InvariantCulture, out var run) && runs.Contains(run);
        }

        var asked = ShareEndpoints.ParseRuns(query);
        return page == typeof(Compare) && asked.Length > 0 && asked.All(runs.Contains);
    }
}

/// <summary>The requirement of <see cref="AccessPolicy"/>.</summary>
public sealed class AccessRequirement : IAuthorizationRequirement;

/// <summary>
/// Decides <see cref="AccessRequirement"/>: an endpoint (the resource is its <see cref="HttpContext"/>) or a page the
/// circuit routes to (the resource is its <see cref="ComponentRouteData"/>) needs the role <see cref="AccessPolicy"/> names.
/// </summary>
/// A share link's reader (<see cref="AccessPolicy.SharedRuns"/>) gets <see cref="AccessPolicy.ShareAllows"/> instead: in
/// the circuit the compare view's runs come from the address (<see cref="NavigationManager"/>).
public sealed class AccessHandler(IServiceProvider services) : AuthorizationHandler<AccessRequirement>
{
    /// <inheritdoc />
    protected override Task HandleRequirementAsync(AuthorizationHandlerContext context, AccessRequirement requirement)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (AccessPolicy.SharedRuns(context.User) is { } runs)
        {
            var allowed = context.Resource switch
            {
                HttpContext http => AccessPolicy.ShareAllows(http, runs),
                ComponentRouteData route when AccessPolicy.RequiredRole(route.PageType) is null => true,
                // In the circuit: the page's address (/runs/3, /compare?runs=3,5), whatever the router passed as the resource.
                _ => AccessPolicy.ShareAllowsAddress(CurrentAddress(), runs),
            };
            if (allowed)
            {
                context.Succeed(requirement);
            }

            return Task.CompletedTask;
        }

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

    // The circuit's address (null when there is no navigation manager with an address, e.g. outside a circuit).
    private Uri? CurrentAddress()
    {
        try
        {
            return new Uri(services.GetRequiredService<NavigationManager>().Uri);
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }
}
