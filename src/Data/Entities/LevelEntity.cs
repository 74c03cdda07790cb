namespace Dashboard.Data.Entities;

/// <summary>
/// Aggregates of one level: one concurrency step of one cell
/// (variant × client × payload × repetition), computed by the runner from the raw samples
/// (docs/statistics.md). Warm-up requests are excluded from every figure here.
/// </summary>
public class LevelEntity
{
    /// <summary>Primary key, assigned by the database; the level id of its samples.</summary>
    public long Id { get; set; }

    /// <summary>The run this level belongs to. Deleting the run deletes the level and its samples.</summary>
    public int RunId { get; set; }

    /// <summary>The run, when loaded.</summary>
    public RunEntity? Run { get; set; }

    /// <summary>Endpoint variant name, e.g. <c>AspNetHttpJson</c> (docs/service-contract.md).</summary>
    public required string Variant { get; set; }

    /// <summary>Client technology id, e.g. <c>java</c> (docs/driver-protocol.md, "Client technologies").</summary>
    public required string Client { get; set; }

    /// <summary>Payload case id, e.g. <c>IntArray1000</c> (docs/service-contract.md).</summary>
    public required string Payload { get; set; }

    /// <summary>Zero-based repetition of the cell.</summary>
    public int Repetition { get; set; }

    /// <summary>The concurrency level: number of closed-loop clients.</summary>
    public int Clients { get; set; }

    /// <summary>When the first client started (UTC).</summary>
    public DateTime StartedUtc { get; set; }

    /// <summary>When the last client ended (UTC).</summary>
    public DateTime EndedUtc { get; set; }

    /// <summary>Measured requests (warm-up excluded), successful or not.</summary>
    public long Requests { get; set; }

    /// <summary>Measured requests that failed, of any kind (sum of the kinds below).</summary>
    public long Errors { get; set; }

    /// <summary>Measured requests that timed out.</summary>
    public long TimeoutErrors { get; set; }

    /// <summary>Measured requests answered with a fault or a wrong echo.</summary>
    public long FaultErrors { get; set; }

    /// <summary>Measured requests whose connection failed.</summary>
    public long ConnectionErrors { get; set; }

    /// <summary>Measured requests refused for their credentials.</summary>
    public long AuthenticationErrors { get; set; }

    /// <summary>Measured requests that failed otherwise.</summary>
    public long OtherErrors { get; set; }

    /// <summary>Measured requests whose reply parsed but was not what the payload case expects.</summary>
    public long WrongReplyErrors { get; set; }

    /// <summary>Mean request bytes on the wire over the measured successful requests, or null when the client could not count them.</summary>
    public double? MeanRequestBytes { get; set; }

    /// <summary>Mean response bytes on the wire over the measured successful requests, or null when the client could not count them.</summary>
    public double? MeanResponseBytes { get; set; }

    /// <summary>Throughput in req/s: completed requests ÷ (end of the last client − start of the first).</summary>
    public double ThroughputRps { get; set; }

    /// <summary>Mean response time in ms over the successful measured requests. This and the percentiles below are 0 when none succeeded (<see cref="Errors"/> == <see cref="Requests"/>).</summary>
    public double MeanMs { get; set; }

    /// <summary>Median response time in ms.</summary>
    public double P50Ms { get; set; }

    /// <summary>90th percentile of response time in ms.</summary>
    public double P90Ms { get; set; }

    /// <summary>95th percentile of response time in ms (0 when none succeeded, as the others); null in levels stored before it was kept.</summary>
    public double? P95Ms { get; set; }

    /// <summary>99th percentile of response time in ms.</summary>
    public double P99Ms { get; set; }

    /// <summary>99.9th percentile of response time in ms.</summary>
    public double P999Ms { get; set; }

    /// <summary>Largest response time in ms.</summary>
    public double MaxMs { get; set; }

    /// <summary>Mean CPU % (0–100, all cores) of the load generator during the level, or null if not measured.</summary>
    public double? GeneratorCpuPercent { get; set; }

    /// <summary>
    /// True when the level ran to its end; false when it was cut (run cancelled, runner or driver failed during it):
    /// a partial level keeps its samples but is left out of rankings and comparisons unless asked for (docs/statistics.md).
    /// Levels stored before this field existed are complete.
    /// </summary>
    public bool Complete { get; set; } = true;

    /// <summary>Why the level is partial ("cancelled after 6.5 of 8 s"), or null when complete.</summary>
    public string? PartialReason { get; set; }

    /// <summary>
    /// Whether the steady-state warm-up reached steady state before measuring (CoV of the per-second throughput over the
    /// last k windows under the threshold, docs/statistics.md); null when the scenario's <c>steadyState</c> is off.
    /// False: the level was measured when the time bound ran out, before steady state (flagged).
    /// </summary>
    public bool? SteadyStateReached { get; set; }

    /// <summary>Length of the steady-state warm-up before this level in s (windows run before measuring); null when off.</summary>
    public double? SteadyStateWarmupSeconds { get; set; }

    /// <summary>CoV (fraction) of the per-second throughput over the last k warm-up windows when the warm-up ended; null when off or fewer than 2 windows.</summary>
    public double? SteadyStateCoefficientOfVariation { get; set; }

    /// <summary>How busy the cores the generator may use were during the level, by any process, % (0–100, <c>/proc/stat</c>); null where not measured. Above the generator's own CPU on a shared machine.</summary>
    public double? GeneratorCoresBusyPercent { get; set; }

    /// <summary>
    /// Server CPU (the host process and its JVM, user + system) over the level's window, % (0–100) of the cores the host
    /// may use: from the host's cumulative counters read at the window's two ends (<c>GET /cpu</c>, docs/statistics.md);
    /// in levels stored before those counters, the mean of the host's once-a-second readings during the level. Null when
    /// not measured (<see cref="ServerCpuMissingReason"/> says why).
    /// </summary>
    public double? ServerCpuPercent { get; set; }

    /// <summary>Length of the window the level's CPU figures are over, s (wall time between the two readings); null in levels stored before.</summary>
    public double? CpuWindowSeconds { get; set; }

    /// <summary>Server CPU (host process + JVM, user + system) over the window ÷ requests served in it, µs; null when not measured.</summary>
    public double? ServerCpuMicrosPerRequest { get; set; }

    /// <summary>Why the server figures are empty (the host restarted during the window, it does not answer <c>GET /cpu</c>); null when measured.</summary>
    public string? ServerCpuMissingReason { get; set; }

    /// <summary>The machine's busy share over the window (the server's machine; /proc/stat: all cores, busy ÷ busy + idle + steal), %; null when not measured.</summary>
    public double? MachineBusyPercent { get; set; }

    /// <summary>Steal time over the window, % of the machine's time (the larger of generator's and server's machine); null when not measured.</summary>
    public double? StealPercent { get; set; }

    /// <summary>CPU used on the machine by processes that are not the benchmark's over the window, in cores (busy − host − JVM − runner − drivers; the larger of the two machines when remote); null when not measured.</summary>
    public double? OthersCpuCores { get; set; }

    /// <summary>
    /// True when others used more than 0.10 of a core or steal exceeded 2 % over the window (<see cref="Statistics.QuietMachine"/>):
    /// the level was measured on a machine that was not quiet; null when not measured (levels stored before, agents).
    /// </summary>
    public bool? Disturbed { get; set; }

    /// <summary>
    /// What bound the level (docs/statistics.md): <c>Generator</c> (the runner and driver processes used at least 90 %
    /// of the cores they may use, or those cores were 90 % busy: this is not the server's capacity), <c>Server</c> (the server's CPU at least 90 % of its
    /// cores), <c>Neither</c>; null when CPU was not measured. Stored as the member's name.
    /// </summary>
    public LevelBound? Bound { get; set; }

    /// <summary>Generator CPU per measured request in µs (runner + drivers, user + system, ÷ requests): what the client technology costs; null when not measured.</summary>
    public double? GeneratorCpuMicrosPerRequest { get; set; }

    /// <summary>
    /// Length of the measured window in s: from the start of the first measured request to the end of the last (warm-up
    /// excluded; the denominator of <see cref="ThroughputRps"/>); null in levels stored before it was kept.
    /// </summary>
    public double? WindowSeconds { get; set; }

    /// <summary>
    /// The launch (from 1) this level repetition ran in (scenario field <c>launches</c>, docs/statistics.md, "Launches"):
    /// each launch starts fresh driver processes and, where the runner can, a fresh service host; null in levels stored before.
    /// </summary>
    public int? Launch { get; set; }

    /// <summary>
    /// Process id of the service host that served the level, as the host reported it (<c>GET /healthz</c>); null when the
    /// host did not report it. Two launches with the same id shared the host process.
    /// </summary>
    public int? HostProcessId { get; set; }

    /// <summary>
    /// The one core the runner, its drivers and the host's processes were pinned to from the level's warm-up to its
    /// window's end (scenario <c>placement: "shared-core"</c>, 1-client levels; docs/statistics.md, "Placement: one client
    /// on one core"); null: the scheduler placed them freely (or stored before the field).
    /// </summary>
    public int? SharedCore { get; set; }

    /// <summary>
    /// Smallest rowid of this level's rows in <c>Samples</c>, or null while it has none.
    /// Maintained by <see cref="Samples.SampleStore"/>; do not set it by hand.
    /// </summary>
    public long? FirstSampleId { get; set; }

    /// <summary>
    /// Largest rowid of this level's rows in <c>Samples</c>, or null while it has none.
    /// Maintained by <see cref="Samples.SampleStore"/>; do not set it by hand.
    /// </summary>
    public long? LastSampleId { get; set; }

    /// <summary>
    /// Warm-up requests of the level (stored as samples, excluded from every figure here); null in levels stored before
    /// it was recorded (<see cref="Results.LevelSummaries"/> fills it from the samples).
    /// </summary>
    public long? WarmupRequests { get; set; }

    /// <summary>
    /// The level's measured requests over time (<see cref="Results.LevelTimeSeries"/>, JSON), computed from its raw
    /// samples when the level is stored; null in levels stored before (filled from the samples on first read).
    /// </summary>
    public string? TimeSeriesJson { get; set; }

    /// <summary>
    /// The level's load agents (docs/agents.md, "A level over several agents"), JSON of
    /// <see cref="Agents.LevelAgentShare"/>: each agent's share of the clients, what it completed and failed, its generator
    /// CPU %, clock offset and actual start; null for a level the runner generated itself.
    /// </summary>
    public string? AgentsJson { get; set; }

    /// <summary>
    /// The start skew bound over the level's agents in ms (latest − earliest actual start on the database's clock plus the
    /// two largest clock-offset uncertainties; <see cref="Agents.LevelBarrier.SkewBoundMs"/>); null without agents.
    /// </summary>
    public double? StartSkewBoundMs { get; set; }

    /// <summary>
    /// Open levels (scenario <c>workload: "open"</c>): the arrival rate in req/s the schedule kept, also the level's value
    /// in <see cref="Clients"/>; null for closed levels (docs/statistics.md, "Closed and open workloads").
    /// </summary>
    public int? TargetRateRps { get; set; }

    /// <summary>Open levels: requests (warm-up included) that started more than the late-start threshold (10 ms) after their intended start; null for closed levels.</summary>
    public long? LateStarts { get; set; }

    /// <summary>Open levels: scheduled requests that never started (no free connection until 1 s past the schedule's end); null for closed levels.</summary>
    public long? DroppedRequests { get; set; }

    /// <summary>Open levels: connections the level opened to keep its rate (at most the scenario's <c>maxConnections</c>); null for closed levels.</summary>
    public int? Connections { get; set; }

    /// <summary>
    /// Open levels: p99 of the measured successful requests' service time in ms, from their actual start (what a closed
    /// measurement would report; the level's <see cref="P99Ms"/> counts from the intended start); null for closed levels.
    /// </summary>
    public double? ServiceP99Ms { get; set; }
}
