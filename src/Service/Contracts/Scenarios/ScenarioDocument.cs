namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// The scenario document of README.md, "Scenario document": the same JSON shape in the UI, the API, the runner and presets.
/// Property names are camelCase in JSON; unknown fields are rejected by <see cref="ScenarioLoader"/>.
/// </summary>
public sealed record ScenarioDocument
{
    /// <summary>Shown in lists, charts and exports.</summary>
    public string Name { get; init; } = "";

    /// <summary>Base address of a service host, e.g. <c>http://localhost:5090</c>.</summary>
    public string Host { get; init; } = "";

    /// <summary>Endpoint variant ids (docs/service-contract.md), e.g. <c>AspNetHttpJson</c>.</summary>
    public IReadOnlyList<string> Variants { get; init; } = [];

    /// <summary>Client technology ids (docs/driver-protocol.md, "Client technologies"): <c>dotnet</c>, <c>java</c>, <c>node</c>, <c>wcf</c>.</summary>
    public IReadOnlyList<string> Clients { get; init; } = [];

    /// <summary>Payload case ids (docs/service-contract.md), e.g. <c>DoubleArray500</c>.</summary>
    public IReadOnlyList<string> Payloads { get; init; } = [];

    /// <summary>Concurrent clients per step; default the thesis sweep (ch. 7.3).</summary>
    public IReadOnlyList<int> Levels { get; init; } = ThesisSweep;

    /// <summary>
    /// The workload model (docs/statistics.md, "Closed and open workloads"): null (absent) or <c>"closed"</c> — each level
    /// is a number of clients that send back to back (<see cref="Levels"/>); <c>"open"</c> — each level is an arrival rate
    /// (<see cref="Rates"/>): requests start on a schedule whatever the server does, timed from their intended start.
    /// </summary>
    public string? Workload { get; init; }

    /// <summary>Arrival rates in requests/s, one level each (<c>workload: "open"</c> only; <see cref="Levels"/> is then not used).</summary>
    public IReadOnlyList<int>? Rates { get; init; }

    /// <summary>
    /// The 99th-percentile response-time target of an open sweep, in ms (<c>workload: "open"</c> only): the results name
    /// the highest rate whose corrected p99 meets it. Null: no target.
    /// </summary>
    public double? P99TargetMs { get; init; }

    /// <summary>
    /// The most concurrent connections (clients) an open level may open to keep its rate (<c>workload: "open"</c> only);
    /// null: <see cref="Scenarios.Workload.DefaultMaxConnections"/>. A request due while all are busy waits for one (a late start).
    /// </summary>
    public int? MaxConnections { get; init; }

    /// <summary>Measured requests each client sends per level. Exactly one of this and <see cref="Duration"/> is set.</summary>
    public int? RequestsPerClient { get; init; }

    /// <summary>Measured time per level (JSON <c>"hh:mm:ss"</c>). Exactly one of this and <see cref="RequestsPerClient"/> is set.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>Warm-up requests each client sends before measuring, per level: recorded, flagged, excluded from aggregates.</summary>
    public int Warmup { get; init; } = 5;

    /// <summary>
    /// How many times each level is run. Repetition r runs every cell once, the cells in a random order drawn from the
    /// run's recorded seed (docs/statistics.md). Confidence intervals need at least 3; presets use 3 or more.
    /// </summary>
    public int Repetitions { get; init; } = 1;

    /// <summary>
    /// Independent launches (docs/statistics.md, "Launches"; Georges et al., OOPSLA 2007; Kalibera &amp; Jones, ISMM 2013):
    /// each launch opens fresh clients (new driver processes) and runs <see cref="Repetitions"/> repetitions of every
    /// level of every cell, in a random order of cells and levels drawn from the run's seed. Intervals then come from the
    /// launches' means. Null (absent): 1. Presets' full forms use 3.
    /// </summary>
    public int? Launches { get; init; }

    /// <summary>
    /// A precision target (docs/statistics.md, "Precision target"; BenchmarkDotNet's MaxRelativeError): the relative
    /// half-width of the 95 % interval, a fraction (0.02 = ±2 %), that every level's throughput and (where the host reports
    /// CPU) server CPU per request should reach. After the planned <see cref="Repetitions"/>, levels that have not reached
    /// it get one more repetition per round, in a random order, until they do or a cap stops them
    /// (<see cref="MaxRepetitions"/>, <see cref="PrecisionTimeLimit"/>); each level says what it reached. Null (absent):
    /// no target. One launch only: with several, the interval is over launches' means, which repetitions cannot narrow.
    /// </summary>
    public double? Precision { get; init; }

    /// <summary>Most repetitions a level may get in pursuit of <see cref="Precision"/> (its planned ones included); null: <see cref="Scenarios.PrecisionTarget.DefaultMaxRepetitions"/>.</summary>
    public int? MaxRepetitions { get; init; }

    /// <summary>Longest time spent on extra repetitions for <see cref="Precision"/> (JSON <c>"hh:mm:ss"</c>), counted from the end of the planned ones; null: <see cref="Scenarios.PrecisionTarget.DefaultTimeLimit"/>.</summary>
    public TimeSpan? PrecisionTimeLimit { get; init; }

    /// <summary>
    /// Steady state before measuring each level: null (JSON <c>"off"</c> or absent) for only the <see cref="Warmup"/>
    /// requests, else the CoV rule of <see cref="SteadyStateSettings"/> (JSON <c>"defaults"</c> or an object).
    /// </summary>
    public SteadyStateSettings? SteadyState { get; init; }

    /// <summary>
    /// True: each repetition of a cell opens a fresh client (a new driver process for java and node, new clients for
    /// dotnet), so JIT and connection state do not carry over between repetitions (Georges et al. 2007: several
    /// invocations). False (default): a cell's client stays open for all its repetitions.
    /// </summary>
    public bool FreshClientPerRepetition { get; init; }

    /// <summary>
    /// The credential profile (docs/security.md) whose user name and password the Basic and UsernameToken variants are
    /// called with; the password stays in the host's <c>credentials.json</c>, never in a scenario. Default <c>bench</c>.
    /// </summary>
    public string CredentialProfile { get; init; } = Security.CredentialProfile.DefaultName;

    /// <summary>
    /// Where the host runs relative to the generator (docs/topologies.md): <c>same-machine</c> (default),
    /// <c>emulated-lan</c> (the runner starts a host in a network namespace of its own behind a shaped link; <see cref="Host"/>
    /// is then not used) or <c>remote</c> (the host at <see cref="Host"/> is on another machine). See <see cref="Topology"/>.
    /// </summary>
    public string Topology { get; init; } = Scenarios.Topology.SameMachine;

    /// <summary>
    /// Where the generator and the host may run during a level (<see cref="Scenarios.Placement"/>): null (absent) or
    /// <c>"free"</c> — anywhere; <c>"shared-core"</c> — closed levels of one client on one core shared by the runner, its
    /// drivers and the host (same-machine only), the other levels free. Each level records the core it was pinned to.
    /// </summary>
    public string? Placement { get; init; }

    /// <summary>The emulated link's rate in Mbit/s, both directions (<c>emulated-lan</c> only; default 100, the thesis's LAN; 1000 for 1 Gbit/s).</summary>
    public int? LinkRateMbps { get; init; }

    /// <summary>Cores given to the service host (<c>emulated-lan</c> only; default half of the machine's, at least 1); the generator gets the others.</summary>
    public int? HostCores { get; init; }

    /// <summary>
    /// Load agents that generate each level (docs/agents.md): a count or a list of names (<see cref="AgentSelection"/>);
    /// null (absent): the runner generates the load itself. Needs the PostgreSQL storage.
    /// </summary>
    public AgentSelection? Agents { get; init; }

    /// <summary>True when the levels are arrival rates (<c>workload: "open"</c>).</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool IsOpen => Workload == Scenarios.Workload.Open;

    /// <summary>The values of the levels: client counts (closed) or arrival rates in req/s (open); empty when the list is null.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public IReadOnlyList<int> LevelValues => (IsOpen ? Rates : Levels) ?? [];

    /// <summary>
    /// The thesis sweep (ch. 7.3): "from one to 50 with the interval of 10 threads and from 50 to 300 with the
    /// interval of 25 threads": 1, 10, 20, 30, 40, 50, 75, 100, ..., 300 (16 levels).
    /// </summary>
    public static IReadOnlyList<int> ThesisSweep { get; } =
        [1, 10, 20, 30, 40, 50, .. Enumerable.Range(3, 10).Select(i => i * 25)];
}
