namespace Dashboard.Service.Contracts.Progress;

/// <summary>
/// Exit codes of the runner's command line (<c>run</c> and <c>agent</c>): the runner returns them and the dashboard reads
/// them (with the <c>run-ended</c> event) to end the run; one type for both sides.
/// </summary>
public static class ExitCodes
{
    /// <summary>The run completed.</summary>
    public const int Success = 0;

    /// <summary>The run started but failed (e.g. a client could not connect); its samples so far are stored.</summary>
    public const int RunFailed = 1;

    /// <summary>The scenario was refused (malformed, unknown field or id, impossible combination); nothing was stored.</summary>
    public const int InvalidScenario = 2;

    /// <summary>The service host could not be reached or did not describe itself; nothing was stored.</summary>
    public const int HostUnavailable = 3;

    /// <summary>Another benchmark is running on this machine (docs/architecture.md: one at a time); nothing was stored.</summary>
    public const int MachineBusy = 4;

    /// <summary>agent: the database cannot be reached, or stopped answering while the agent ran (docs/agents.md); the reason is on stderr.</summary>
    public const int DatabaseUnavailable = 5;

    /// <summary>agent: its arguments were refused (no connection string, or the name is taken by an online agent); the reason names the option.</summary>
    public const int AgentRefused = 6;

    /// <summary>The run was cancelled (Ctrl+C); its samples so far are stored.</summary>
    public const int Cancelled = 130;
}
