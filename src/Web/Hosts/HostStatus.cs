namespace Dashboard.Web.Hosts;

/// <summary>Health of a service host as last polled.</summary>
public enum HostHealth
{
    /// <summary>Not polled yet.</summary>
    Unknown,

    /// <summary><c>GET /healthz</c> answered 2xx.</summary>
    Up,

    /// <summary><c>GET /healthz</c> answered 503 "starting": a stack (e.g. the JVM service) is starting.</summary>
    Starting,

    /// <summary><c>GET /healthz</c> failed or answered an error.</summary>
    Down,
}

/// <summary>A known service host and its last health check.</summary>
/// <param name="Address">Base address of its control API.</param>
/// <param name="IsLocal">True for the host the dashboard starts itself.</param>
/// <param name="Health">Result of the last poll.</param>
/// <param name="Detail">One line about the last poll (the error when down).</param>
/// <param name="CheckedUtc">When it was last polled.</param>
public sealed record HostStatus(Uri Address, bool IsLocal, HostHealth Health, string? Detail, DateTime? CheckedUtc);
