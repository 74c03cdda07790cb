using System.Security.Claims;

namespace Dashboard.Web.Auth;

/// <summary>
/// The three roles (docs/security.md, "The dashboard's side"), each including the ones before it: <see cref="Viewer"/>
/// reads runs, compares and exports; <see cref="Operator"/> also queues, cancels, schedules and annotates;
/// <see cref="Admin"/> also manages hosts, agents, users, tokens, purges and opens /hangfire.
/// </summary>
public static class DashboardRoles
{
    /// <summary>Reads runs, compares, exports.</summary>
    public const string Viewer = "Viewer";

    /// <summary>Queues, cancels, schedules, recurring runs, renames, annotates.</summary>
    public const string Operator = "Operator";

    /// <summary>Hosts, agents, users, tokens, purge, /hangfire.</summary>
    public const string Admin = "Admin";

    /// <summary>The roles, least to most.</summary>
    public static IReadOnlyList<string> All { get; } = [Viewer, Operator, Admin];

    /// <summary>The role named <paramref name="name"/> (any case) in its canonical spelling, or null when it is none of the three.</summary>
    public static string? Parse(string? name) => All.FirstOrDefault(r => string.Equals(r, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>0, 1, 2 for Viewer, Operator, Admin; -1 for anything else.</summary>
    public static int Rank(string? role) => role is null ? -1 : All.ToList().IndexOf(role);

    /// <summary>True when <paramref name="user"/> holds <paramref name="role"/> or a higher one (its role claim).</summary>
    public static bool HasAtLeast(ClaimsPrincipal user, string role)
    {
        ArgumentNullException.ThrowIfNull(user);
        return user.Identity?.IsAuthenticated == true
            && user.FindAll(ClaimTypes.Role).Any(c => Rank(c.Value) >= Rank(role) && Rank(role) >= 0);
    }
}
