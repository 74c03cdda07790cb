using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Data.Claims;

/// <summary>What the claims of a run were computed with, per run: its topology, the server's cores and clock rate.</summary>
/// <param name="RunId">The run.</param>
/// <param name="Topology">From the scenario's <c>topology</c> field; <see cref="ClaimCatalogue.SameMachine"/> when it has none.</param>
/// <param name="Cores">Logical cores of the server: the cores its host was pinned to (emulated-lan), else the machine's (CPU % of all the server's cores are converted with it).</param>
/// <param name="CoresSource">Where <paramref name="Cores"/> comes from.</param>
/// <param name="Clock">The clock rate the MCycles are computed with, and its source; null when not known.</param>
public sealed record RunFacts(int RunId, string Topology, int Cores, string CoresSource, CpuClock? Clock);

/// <summary>The input of the claims engine for a run or a set of runs.</summary>
/// <param name="Levels">Every level, with its topology and server facts.</param>
/// <param name="Runs">Per run, what the facts were computed with.</param>
public sealed record ClaimInputs(IReadOnlyList<ClaimLevel> Levels, IReadOnlyList<RunFacts> Runs);
