namespace Dashboard.Service.Host.Control;

/// <summary>
/// A stack's state as <c>GET /healthz</c> says it: <see cref="Up"/>, <see cref="Starting"/> (also while the JVM service
/// restarts after it died), <see cref="Down"/> for good (with the reason), or <see cref="Disabled"/> (not configured).
/// </summary>
/// <param name="State">One of the four states.</param>
/// <param name="Reason">Why it is starting again or down; null when up, starting the first time, or disabled.</param>
public sealed record StackHealth(string State, string? Reason)
{
    /// <summary>Serving its endpoints.</summary>
    public const string Up = "up";

    /// <summary>Starting (or restarting): its endpoints come soon.</summary>
    public const string Starting = "starting";

    /// <summary>Down and not coming back by itself (not built, stopped, failed to start).</summary>
    public const string Down = "down";

    /// <summary>Not configured in this host.</summary>
    public const string Disabled = "disabled";

    /// <summary>The health of each stack from the registry's status lines (<c>up</c>, <c>starting</c>, <c>down: reason</c>, <c>down: ..., restarting</c>, <c>disabled</c>, <c>stopped</c>).</summary>
    public static IReadOnlyDictionary<string, StackHealth> Of(IReadOnlyDictionary<string, string> status)
    {
        ArgumentNullException.ThrowIfNull(status);
        return status.ToDictionary(s => s.Key, s => Parse(s.Value), StringComparer.Ordinal);
    }

    private static StackHealth Parse(string line) => line switch
    {
        Up or Starting or Disabled => new StackHealth(line, null),
        "stopped" => new StackHealth(Down, "stopped"),
        _ when line.EndsWith("restarting", StringComparison.Ordinal) => new StackHealth(Starting, ReasonOf(line)),
        _ => new StackHealth(Down, ReasonOf(line)),
    };

    private static string ReasonOf(string line) => line.StartsWith("down: ", StringComparison.Ordinal) ? line["down: ".Length..] : line;
}
