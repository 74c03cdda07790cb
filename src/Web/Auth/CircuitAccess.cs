using Microsoft.AspNetCore.Components.Authorization;
using MudBlazor;

namespace Dashboard.Web.Auth;

/// <summary>
/// The role check of an interactive page's own write buttons (cancel, run again, rename, annotate, delete, queue a preset):
/// the circuit calls services directly, not the API, so <see cref="AccessPolicy"/> does not see these clicks.
/// </summary>
public static class CircuitAccess
{
    /// <summary>
    /// True when the circuit's user holds <paramref name="role"/> or a higher one; else false and a snackbar says why.
    /// A null <paramref name="state"/> (a component rendered outside the app, as in component tests) is allowed.
    /// </summary>
    public static async Task<bool> AllowsAsync(Task<AuthenticationState>? state, string role, ISnackbar snackbar, string what)
    {
        ArgumentNullException.ThrowIfNull(snackbar);
        if (state is null || DashboardRoles.HasAtLeast((await state).User, role))
        {
            return true;
        }

        snackbar.Add($"Your role cannot {what}: it needs {role}.", Severity.Warning);
        return false;
    }
}
