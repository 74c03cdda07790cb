using System.Globalization;
using System.Security.Claims;
using Dashboard.Web.Results;
using Microsoft.AspNetCore.Authentication;
using HttpResults = Microsoft.AspNetCore.Http.Results;

namespace Dashboard.Web.Auth;

/// <summary>
/// Read-only share links (docs/security.md, "Share links"): <c>POST /api/shares</c> makes one for a run or a compare view
/// (Operator; the secret is in the answer once), <c>GET /api/shares</c> lists them, <c>DELETE /api/shares/{id}</c> revokes;
/// <c>GET /share/{secret}</c> opens without an account: it sets the share cookie (scheme <see cref="Scheme"/>, a principal
/// holding the runs and no role) and redirects to the view. <see cref="AccessPolicy"/> lets that principal read exactly
/// those runs' pages and exports and nothing else.
/// </summary>
public static class ShareEndpoints
{
    /// <summary>The cookie scheme of a share link's reader.</summary>
    public const string Scheme = "Share";

    /// <summary>The claim with the shared run ids, comma-separated.</summary>
    public const string RunsClaim = "share_runs";

    /// <summary>The claim with the share link's id (checked at every request: a revoked link stops at once).</summary>
    public const string IdClaim = "share_id";

    /// <summary>A request to share runs: one id (its run page) or several (their compare view).</summary>
    /// <param name="Runs">Run ids, in the order shown.</param>
    public sealed record ShareRequest(int[] Runs);

    /// <summary>A share link.</summary>
    /// <param name="Id">Its id (to revoke it).</param>
    /// <param name="Runs">The runs it opens.</param>
    /// <param name="Url">The link (only in the answer that made it; null in lists).</param>
    /// <param name="CreatedBy">Who made it.</param>
    /// <param name="CreatedUtc">When.</param>
    /// <param name="RevokedUtc">When it was revoked, or null.</param>
    public sealed record ShareLink(int Id, int[] Runs, string? Url, string CreatedBy, DateTime CreatedUtc, DateTime? RevokedUtc);

    /// <summary>Maps the share endpoints.</summary>
    public static IEndpointRouteBuilder MapShareEndpoints(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        var shares = app.MapGroup("/api/shares").WithTags("Share links");
        shares.MapPost("/", CreateAsync).WithName("CreateShareLink").WithSummary("A read-only link to a run (one id) or a compare view (several) for readers without an account.");
        shares.MapGet("/", ListAsync).WithName("ListShareLinks").WithSummary("Every share link (never their secrets).");
        shares.MapDelete("/{id:int}", RevokeAsync).WithName("RevokeShareLink").WithSummary("Revokes a share link: it stops working at once.");
        app.MapGet("/share/{secret}", OpenAsync).AllowAnonymous().RequireRateLimiting(AuthExtensions.SignInLimit).ExcludeFromDescription();
        return app;
    }

    /// <summary>The view a share link opens: the run page of one run, or the compare view of several.</summary>
    public static string ViewOf(IReadOnlyList<int> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        return runs.Count == 1 ? $"/runs/{runs[0]}" : "/compare?runs=" + string.Join(',', runs);
    }

    /// <summary>The run ids of a <c>3,5</c> list; empty when any is not a number.</summary>
    public static int[] ParseRuns(string? text)
    {
        var parts = (text ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var ids = new List<int>();
        foreach (var part in parts)
        {
            if (!int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var id))
            {
                return [];
            }

            ids.Add(id);
        }

        return [.. ids];
    }

    private static async Task<IResult> CreateAsync(ShareRequest request, HttpContext http, AccountService accounts, RunResultsService results)
    {
        var runs = request.Runs?.Distinct().ToArray() ?? [];
        if (runs.Length == 0)
        {
            return HttpResults.Problem(title: "runs: give at least one run id", statusCode: StatusCodes.Status400BadRequest);
        }

        if (await results.MissingRunsAsync(runs, http.RequestAborted) is [var missing, ..])
        {
            return HttpResults.Problem(title: $"runs: no run {missing}", statusCode: StatusCodes.Status404NotFound);
        }

        var (link, secret) = await accounts.CreateShareAsync(runs, AuthExtensions.ActorOf(http), http.RequestAborted);
        var url = new Uri(new Uri($"{http.Request.Scheme}://{http.Request.Host}"), "/share/" + secret).ToString();
        return HttpResults.Created($"/api/shares/{link.Id}", new ShareLink(link.Id, runs, url, link.CreatedBy, link.CreatedUtc, null));
    }

    private static async Task<IResult> ListAsync(AccountService accounts, CancellationToken cancellationToken) =>
        HttpResults.Ok((await accounts.ListSharesAsync(cancellationToken))
            .Select(s => new ShareLink(s.Id, ParseRuns(s.RunIds), null, s.CreatedBy, s.CreatedUtc, s.RevokedUtc)).ToArray());

    private static async Task<IResult> RevokeAsync(int id, HttpContext http, AccountService accounts) =>
        await accounts.RevokeShareAsync(id, AuthExtensions.ActorOf(http), http.RequestAborted) ? HttpResults.NoContent() : HttpResults.NotFound();

    private static async Task<IResult> OpenAsync(string secret, HttpContext http, AccountService accounts)
    {
        var link = await accounts.FindActiveShareAsync(secret, http.RequestAborted);
        if (link is null)
        {
            return HttpResults.NotFound();
        }

        var identity = new ClaimsIdentity(
            [new Claim(ClaimTypes.Name, $"share:{link.Id}"), new Claim(IdClaim, link.Id.ToString(CultureInfo.InvariantCulture)), new Claim(RunsClaim, link.RunIds)],
            Scheme);
        await http.SignInAsync(Scheme, new ClaimsPrincipal(identity));
        return HttpResults.LocalRedirect(ViewOf(ParseRuns(link.RunIds)));
    }
}
