using Hangfire.Dashboard;

namespace Dashboard.Web.Auth;

/// <summary>
/// Hangfire's dashboard (<c>/hangfire</c>, it can delete and re-queue jobs) for Admins only, and only from this machine
/// unless <c>Dashboard:Queue:DashboardRemoteAccess</c> is true.
/// </summary>
internal sealed class HangfireAdminFilter(bool remoteAccess) : IDashboardAuthorizationFilter
{
    private readonly LocalRequestsOnlyAuthorizationFilter _local = new();

    /// <inheritdoc />
    public bool Authorize(DashboardContext context)
    {
        var http = context.GetHttpContext();
        return DashboardRoles.HasAtLeast(http.User, DashboardRoles.Admin) && (remoteAccess || _local.Authorize(context));
    }
}
