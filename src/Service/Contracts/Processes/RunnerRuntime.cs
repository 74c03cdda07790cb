namespace Dashboard.Service.Contracts.Processes;

/// <summary>
/// The environment a runner process is started with by the dashboard, its local load agent and bench/ (the runner
/// records what it got: environment JSON <c>generatorRuntime</c>). Tier-1 call counting from the first call
/// (<see cref="CallCountingDelayVariable"/> = 0), so that the JIT's background recompilation of the runner's start-up code
/// is over within the warm-up instead of running into the measured windows: with the runtime's default (100 ms, restarted
/// by every new tier-0 compilation) a profile of a lean level 18 s into a run showed the tiering thread using about half
/// of the runner's CPU. Measured 2026-11-27 (AspNetHttpJson + Int, lean, 20 clients, 6 s levels, machine shared with
/// builds, load 20–30, side by side): generator CPU 42–55 µs per request by default, 24–29 µs with this and tiered PGO off
/// (bench/README.md, "Generator CPU and the JIT").
/// </summary>
public static class RunnerRuntime
{
    /// <summary>The runtime's tiering call-counting delay, ms (.NET's <c>TC_CallCountingDelayMs</c>; read only from the environment).</summary>
    public const string CallCountingDelayVariable = "DOTNET_TC_CallCountingDelayMs";

    /// <summary>Variable → value to add to a runner process's environment.</summary>
    public static IReadOnlyDictionary<string, string> Variables { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        [CallCountingDelayVariable] = "0",
    };
}
