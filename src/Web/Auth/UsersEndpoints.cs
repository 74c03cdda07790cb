using Dashboard.Data.Accounts;
using Microsoft.AspNetCore.Identity;
using HttpResults = Microsoft.AspNetCore.Http.Results;

namespace Dashboard.Web.Auth;

/// <summary>
/// Accounts over HTTP (Admin; docs/security.md, "Users"): <c>GET /api/users</c> lists them, <c>PATCH /api/users/{id}</c>
/// changes a role or disables, <c>DELETE /api/users/{id}</c> deletes, <c>POST /api/users/setup-links</c> makes a one-time
/// setup link for a new account of a chosen role. The Users page (<c>/account/users</c>) does the same through
/// <see cref="AccountService"/>. Every change is audit-logged and reaches the account's open sessions
/// (<see cref="SessionValidation"/>).
/// </summary>
public static class UsersEndpoints
{
    /// <summary>A change to an account; a null field is left as it is.</summary>
    /// <param name="Role">Viewer, Operator or Admin.</param>
    /// <param name="Disabled">True disables (its sessions end), false enables.</param>
    public sealed record UserChange(string? Role, bool? Disabled);

    /// <summary>A request for a setup link.</summary>
    /// <param name="UserName">The new account's name; null or empty: the person chooses it on the setup page.</param>
    /// <param name="Role">The role it gets: Viewer, Operator or Admin.</param>
    public sealed record SetupLinkRequest(string? UserName, string Role);

    /// <summary>A setup link: open it once, before <paramref name="ExpiresUtc"/>, to set the account's password.</summary>
    /// <param name="Url">The link (shown once; only its hash is stored).</param>
    /// <param name="ExpiresUtc">When it stops working (UTC).</param>
    public sealed record SetupLink(string Url, DateTime ExpiresUtc);

    /// <summary>Maps <c>/api/users</c> (Admin, by <see cref="AccessPolicy"/>).</summary>
    public static RouteGroupBuilder MapUsersApi(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        var users = app.MapGroup("/api/users").WithTags("Users");
        users.MapGet("/", (AccountService accounts, CancellationToken cancellationToken) => accounts.ListUsersAsync(cancellationToken))
            .WithName("ListUsers").WithSummary("Every account: name, role, disabled, last sign-in (never a password hash).");
        users.MapPatch("/{id:int}", UpdateAsync).WithName("UpdateUser").WithSummary("Changes an account's role or disables it; its open sessions follow.");
        users.MapDelete("/{id:int}", DeleteAsync).WithName("DeleteUser").WithSummary("Deletes an account; its open sessions end.");
        users.MapPost("/setup-links", CreateSetupLinkAsync).WithName("CreateSetupLink").WithSummary("A one-time link that creates an account of the chosen role.");
        return users;
    }

    /// <summary>The absolute address of setup link <paramref name="secret"/>: <see cref="AuthOptions.PublicAddress"/>, else the request's own.</summary>
    public static Uri SetupUrl(HttpRequest request, AuthOptions options, string secret)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(options);
        return new Uri(options.PublicAddress ?? new Uri($"{request.Scheme}://{request.Host}"), "/setup?token=" + secret);
    }

    private static async Task<IResult> UpdateAsync(int id, UserChange change, HttpContext http, AccountService accounts)
    {
        var error = await accounts.UpdateUserAsync(id, change.Role, change.Disabled, AuthExtensions.ActorOf(http), http.RequestAborted);
        return Answer(error);
    }

    private static async Task<IResult> DeleteAsync(int id, HttpContext http, AccountService accounts) =>
        Answer(await accounts.DeleteUserAsync(id, AuthExtensions.ActorOf(http), http.RequestAborted));

    private static async Task<IResult> CreateSetupLinkAsync(
        SetupLinkRequest request, HttpContext http, AccountService accounts, UserManager<UserEntity> users, Microsoft.Extensions.Options.IOptions<AuthOptions> options)
    {
        if (DashboardRoles.Parse(request.Role) is null)
        {
            return HttpResults.Problem(title: $"role: unknown role '{request.Role}': Viewer, Operator or Admin", statusCode: StatusCodes.Status400BadRequest);
        }

        if (!string.IsNullOrWhiteSpace(request.UserName) && await users.FindByNameAsync(request.UserName.Trim()) is not null)
        {
            return HttpResults.Problem(title: $"userName: '{request.UserName.Trim()}' exists already", statusCode: StatusCodes.Status409Conflict);
        }

        var secret = await accounts.CreateSetupLinkAsync(request.UserName, request.Role, AuthExtensions.ActorOf(http), http.RequestAborted);
        var link = await accounts.FindSetupLinkAsync(secret, http.RequestAborted);
        return HttpResults.Created((string?)null, new SetupLink(SetupUrl(http.Request, options.Value, secret).ToString(), link!.ExpiresUtc));
    }

    private static IResult Answer(string? error) =>
        error is null ? HttpResults.NoContent()
        : error.StartsWith("no account", StringComparison.Ordinal) ? HttpResults.Problem(title: error, statusCode: StatusCodes.Status404NotFound)
        : HttpResults.Problem(title: error, statusCode: StatusCodes.Status400BadRequest);
}
