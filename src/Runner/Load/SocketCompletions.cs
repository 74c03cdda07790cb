using Dashboard.Service.Contracts.Processes;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Runner.Load;

/// <summary>
/// Where the runner's socket continuations run. By default .NET's socket event thread hands every completion to the
/// thread pool; with inline completions (<see cref="Variable"/>) the event thread runs it itself, as wrk's event loop
/// does. That saves a thread hand-off per receive: measured 2026-11-27 on <c>AspNetHttpJson</c> + <c>Int</c> at 20
/// connections, about 29 µs of generator CPU per request with the hand-off and 19 µs without (wrk: 19 µs, same
/// machine, same minute; bench/README.md "Generator CPU and the JIT"). The runner turns it on only for runs whose every client is
/// the <c>lean</c> generator (<see cref="InlineFor"/>): the client technologies under test keep .NET's default, and
/// code on the event thread must never wait synchronously for other I/O (<see cref="ReadToEndOnThread"/>).
/// </summary>
public static class SocketCompletions
{
    /// <summary>The runtime's switch, read once when the first socket is used (System.Net.Sockets' SocketAsyncEngine).</summary>
    public const string Variable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>True when <paramref name="scenario"/> runs here (no load agents) and every one of its clients is <c>lean</c>.</summary>
    public static bool InlineFor(ScenarioDocument scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return scenario.Agents is null && scenario.Clients.Count > 0 && scenario.Clients.All(c => c == "lean");
    }

    /// <summary>
    /// Turns inline completions on for this process when <paramref name="inline"/> is true (through the environment, so
    /// the processes it starts inherit it: the emulated LAN's service host has it removed). Takes effect only if no socket
    /// has been used yet in this process; <see cref="IsInline"/> says whether it is on.
    /// </summary>
    public static void Configure(bool inline)
    {
        if (inline)
        {
            Environment.SetEnvironmentVariable(Variable, "1");
        }
    }

    /// <summary>True when this process's sockets complete inline (the variable is set to 1, as the runtime reads it).</summary>
    public static bool IsInline => Environment.GetEnvironmentVariable(Variable) == "1";

    /// <summary>
    /// Reads <paramref name="reader"/> to its end with blocking reads on a thread of its own. Use it instead of
    /// <c>ReadToEndAsync</c> where the caller then waits synchronously: with inline completions an awaited pipe read
    /// completes on the socket event thread, and a synchronous wait on that same thread would never end.
    /// </summary>
    /// <returns>The text, when the stream ends.</returns>
    public static Task<string> ReadToEndOnThread(StreamReader reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        return Task.Factory.StartNew(reader.ReadToEnd, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }
}

/// <summary>
/// The runner's runtime settings that change what a generator costs (environment JSON <c>generatorRuntime</c>).
/// </summary>
/// <param name="InlineSocketCompletions">True when socket continuations run on the event thread (<see cref="SocketCompletions"/>).</param>
/// <param name="TieredPgo">Whether tiered profile-guided optimisation is on (off in the runner's runtimeconfig: Dashboard.Runner.csproj).</param>
/// <param name="CallCountingDelayMs">
/// <c>DOTNET_TC_CallCountingDelayMs</c> as the runner was started with it, ms; null: the runtime's default (100 ms, and
/// restarted by every new tier-0 compilation, so a runner's start-up code is still being recompiled seconds into its
/// first levels). The dashboard, its local load agent and bench/ start the runner with 0 (<see cref="RunnerRuntime.Variables"/>).
/// </param>
public sealed record GeneratorRuntime(bool InlineSocketCompletions, bool TieredPgo, int? CallCountingDelayMs)
{
    /// <summary>This process's settings.</summary>
    public static GeneratorRuntime Current() => new(
        SocketCompletions.IsInline,
        AppContext.TryGetSwitch("System.Runtime.TieredPGO", out var pgo) ? pgo : true,
        int.TryParse(Environment.GetEnvironmentVariable(RunnerRuntime.CallCountingDelayVariable), out var delay) ? delay : null);
}
