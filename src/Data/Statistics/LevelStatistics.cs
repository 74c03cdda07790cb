using System.Globalization;
using Dashboard.Data.Agents;
using Dashboard.Data.Measurement;
using Dashboard.Data.Results;

namespace Dashboard.Data.Statistics;

/// <summary>
/// Every figure of a level, each declared once (<see cref="LevelStatistic"/>), in the order of the levels CSV's columns:
/// the levels CSV (<see cref="Export.LevelsCsv"/>: the runner's <c>--levels-csv</c> and <c>GET /api/runs/{id}/levels.csv</c>),
/// the run page's per-level table and its header tooltips, and the runner's mapping of a level's raw-sample statistics
/// onto its stored row (<see cref="LevelFigures"/>) loop over <see cref="All"/>. Definitions are the thesis's (ch. 7.2.2):
/// throughput = completed requests ÷ (end of the last request − start of the first), response times over the successful
/// measured requests, warm-up excluded (docs/statistics.md).
/// </summary>
/// <remarks>
/// Adding a statistic: compute it in <see cref="LatencyStatistics"/> (from the raw samples), store it in a column of
/// <see cref="Entities.LevelEntity"/> (with a migration), and declare it here (docs/architecture.md, "How to add").
/// Readers of the CSV go by the header's names: a new column goes where it belongs.
/// </remarks>
public static class LevelStatistics
{
    private const string Ms = "ms";

    /// <summary>Every declaration, in the levels CSV's column order (the per-level table shows those with a title, in this order).</summary>
    public static IReadOnlyList<LevelStatistic> All { get; } =
    [
        new("variant", "", "Endpoint variant (docs/service-contract.md)")
        {
            Column = "variant", PerLevel = r => r.Level.Variant, Title = "Variant", ConsoleTitle = "variant", Aggregated = a => a.Variant, Numeric = false, NoWrap = true, Key = true,
        },
        new("client", "", "Client technology (docs/driver-protocol.md)")
        {
            Column = "client", PerLevel = r => r.Level.Client, Title = "Client", ConsoleTitle = "client", Aggregated = a => a.Client, Numeric = false, Key = true,
        },
        new("payload", "", "Payload case (docs/service-contract.md)")
        {
            Column = "payload", PerLevel = r => r.Level.Payload, Title = "Payload", ConsoleTitle = "payload", Aggregated = a => a.Payload, Numeric = false, NoWrap = true, Key = true,
        },
        new("concurrency level", "", "Closed-loop clients of the level, or an open level's arrival rate in req/s (target_rate_rps set)")
        {
            Column = "level", PerLevel = r => r.Level.Clients, Title = "Clients", ConsoleTitle = "clients", Aggregated = a => a.Clients,
        },
        new("repetitions", "", "Repetitions of the level counted (complete ones; partial ones only when asked for)")
        {
            Title = "Reps", Aggregated = a => a.Repetitions,
        },
        new("requests", "", "Measured requests, warm-up excluded, successful or not (summed over repetitions in the table)")
        {
            Column = "requests", PerLevel = r => r.Level.Requests, Title = "Requests", ConsoleTitle = "requests", Aggregated = a => a.Requests, Format = "N0", ConsoleFormat = "0",
            Store = (l, s) => l.Requests = s.Requests,
        },
        new("errors", "", "Measured requests that failed, of any kind (summed over repetitions in the table)")
        {
            Column = "errors", PerLevel = r => r.Level.Errors, Title = "Errors", ConsoleTitle = "errors", Aggregated = a => a.Errors, Format = "N0", ConsoleFormat = "0",
            Store = (l, s) => l.Errors = s.Errors,
        },
        new("throughput", "req/s", "Completed requests ÷ (end of the last − start of the first measured request) (thesis ch. 7.2.2); mean over repetitions [95 % interval from 3]")
        {
            Column = "throughput_rps", PerLevel = r => r.Level.ThroughputRps, Title = "Throughput (req/s)", ConsoleTitle = "throughput req/s", ConsoleFormat = "0.0", Aggregated = a => a.ThroughputRps.Mean,
            Display = a => WithInterval(a.ThroughputRps, "0.0"), NoWrap = true, Store = (l, s) => l.ThroughputRps = s.ThroughputRps,
        },
        new("mean response time", Ms, "Sum of the successful requests' response times ÷ their number (thesis ch. 7.2.2); mean over repetitions [95 % interval from 3]; — when none succeeded")
        {
            Column = "mean_ms", PerLevel = r => Timed(r, r.Level.MeanMs), Title = "Mean (ms)", ConsoleTitle = "mean ms", ConsoleFormat = "0.000", Aggregated = a => a.MeanMs.Mean,
            Display = a => a.MeanMs.N == 0 ? "—" : WithInterval(a.MeanMs, "0.000"), NoWrap = true, Store = (l, s) => l.MeanMs = LevelFigures.OrZero(s.MeanMs),
        },
        new("median response time", Ms, "50th percentile of the successful requests' response times, nearest rank; mean over repetitions")
        {
            Column = "p50_ms", PerLevel = r => Timed(r, r.Level.P50Ms), Title = "p50 (ms)", ConsoleTitle = "p50 ms", Aggregated = a => a.P50Ms, Format = "0.000",
            Store = (l, s) => l.P50Ms = LevelFigures.OrZero(s.P50Ms),
        },
        new("p90 response time", Ms, "90th percentile of the successful requests' response times, nearest rank; mean over repetitions")
        {
            Column = "p90_ms", PerLevel = r => Timed(r, r.Level.P90Ms), Title = "p90 (ms)", ConsoleTitle = "p90 ms", Aggregated = a => a.P90Ms, Format = "0.000", Hidden = true,
            Store = (l, s) => l.P90Ms = LevelFigures.OrZero(s.P90Ms),
        },
        new("p95 response time", Ms, "95th percentile of the successful requests' response times, nearest rank; mean over repetitions; empty in levels stored before it was kept")
        {
            Column = "p95_ms", PerLevel = r => r.Timed ? r.Level.P95Ms : null, Title = "p95 (ms)", ConsoleTitle = "p95 ms", Aggregated = a => MeanOverAnswered(a, l => l.P95Ms),
            Format = "0.000", Hidden = true, Store = (l, s) => l.P95Ms = LevelFigures.OrZero(s.P95Ms),
        },
        new("p99 response time", Ms, "99th percentile of the successful requests' response times, nearest rank; mean over repetitions")
        {
            Column = "p99_ms", PerLevel = r => Timed(r, r.Level.P99Ms), Title = "p99 (ms)", ConsoleTitle = "p99 ms", Aggregated = a => a.P99Ms, Format = "0.000",
            Store = (l, s) => l.P99Ms = LevelFigures.OrZero(s.P99Ms),
        },
        new("p99.9 response time", Ms, "99.9th percentile of the successful requests' response times, nearest rank; mean over repetitions")
        {
            Column = "p999_ms", PerLevel = r => Timed(r, r.Level.P999Ms), Title = "p99.9 (ms)", ConsoleTitle = "p99.9 ms", Aggregated = a => a.P999Ms, Format = "0.000", Hidden = true,
            Store = (l, s) => l.P999Ms = LevelFigures.OrZero(s.P999Ms),
        },
        new("longest response time", Ms, "Largest response time of a successful request; mean of the repetitions' maxima")
        {
            Column = "max_ms", PerLevel = r => Timed(r, r.Level.MaxMs), Title = "Max (ms)", ConsoleTitle = "max ms", Aggregated = a => a.MaxMs, Format = "0.000",
            Store = (l, s) => l.MaxMs = LevelFigures.OrZero(s.MaxMs),
        },
        new("repetition", "", "Which repetition of the cell the row is (from 1)")
        {
            Column = "repetition", PerLevel = r => r.Level.Repetition, ConsoleTitle = "rep",
        },
        new("generator CPU", "%", "CPU of the load generator's processes (runner + drivers, user + system from /proc at the window's two ends), % of the cores they may use; mean over repetitions")
        {
            Column = "generator_cpu_percent", PerLevel = r => r.Level.GeneratorCpuPercent, Title = "Generator CPU (%)", ConsoleTitle = "gen CPU %", Aggregated = a => a.GeneratorCpuPercent, Format = "0",
        },
        new("wrong replies", "", "Replies that parsed but were not what the payload case expects")
        {
            Column = "wrong_replies", PerLevel = r => r.Level.WrongReplyErrors, Store = (l, s) => l.WrongReplyErrors = s.ErrorsByKind.GetValueOrDefault(SampleOutcome.WrongReply),
        },
        new("request bytes", "bytes", "Mean request bytes on the wire over the successful measured requests (seed 002); empty when the client could not count them")
        {
            Column = "mean_request_bytes", PerLevel = r => r.Level.MeanRequestBytes, Title = "Request (B)", ConsoleTitle = "req B", ConsoleFormat = "0", Aggregated = a => a.MeanRequestBytes, Format = "N0", Hidden = true,
            Store = (l, s) => l.MeanRequestBytes = s.MeanRequestBytes,
        },
        new("response bytes", "bytes", "Mean response bytes on the wire over the successful measured requests; empty when the client could not count them")
        {
            Column = "mean_response_bytes", PerLevel = r => r.Level.MeanResponseBytes, Title = "Response (B)", ConsoleTitle = "resp B", ConsoleFormat = "0", Aggregated = a => a.MeanResponseBytes, Format = "N0", Hidden = true,
            Store = (l, s) => l.MeanResponseBytes = s.MeanResponseBytes,
        },
        new("security mode", "", "The variant's security mode (WCF's term: None, Transport, Message, …) from the variant catalogue")
        {
            Column = "security_mode", PerLevel = r => ResultsClassification.SecurityMode(r.Level.Variant), Title = "Security mode", Aggregated = a => a.SecurityMode,
            Numeric = false, Hidden = true,
        },
        new("payload class", "", "The payload's dataset class: Small, Large (thesis ch. 6.2.1), Whitepaper or Book")
        {
            Column = "payload_class", PerLevel = r => ResultsClassification.PayloadClass(r.Level.Payload),
        },
        new("topology", "", "Where the host ran: same-machine, emulated-lan or remote (docs/topologies.md)")
        {
            Column = "topology", PerLevel = r => r.Topology,
        },
        new("link rate", "Mbit/s", "The emulated link's rate; empty unless emulated-lan")
        {
            Column = "link_rate_mbps", PerLevel = r => r.LinkRateMbps,
        },
        new("throughput interval, low", "req/s", "Lower end of the 95 % interval of the cell's throughput over its complete repetitions (log scale); empty below 3")
        {
            Column = "throughput_ci95_low", PerLevel = r => r.Complete is { ThroughputRps.HasInterval: true } a ? a.ThroughputRps.Low95 : null,
        },
        new("throughput interval, high", "req/s", "Upper end of that interval")
        {
            Column = "throughput_ci95_high", PerLevel = r => r.Complete is { ThroughputRps.HasInterval: true } a ? a.ThroughputRps.High95 : null,
        },
        new("mean response time interval, low", Ms, "Lower end of the 95 % interval of the cell's mean response time over its complete repetitions (log scale); empty below 3")
        {
            Column = "mean_ms_ci95_low", PerLevel = r => r.Complete is { MeanMs.HasInterval: true } a ? a.MeanMs.Low95 : null,
        },
        new("mean response time interval, high", Ms, "Upper end of that interval")
        {
            Column = "mean_ms_ci95_high", PerLevel = r => r.Complete is { MeanMs.HasInterval: true } a ? a.MeanMs.High95 : null,
        },
        new("complete", "", "False when the level was cut (run cancelled, runner or driver failed): its samples are kept, it is left out of intervals, rankings and comparisons")
        {
            Column = "complete", PerLevel = r => r.Level.Complete,
        },
        new("partial reason", "", "Why the level is partial; empty when complete")
        {
            Column = "partial_reason", PerLevel = r => r.Level.PartialReason,
        },
        new("steady state reached", "", "Whether the steady-state warm-up reached steady state before measuring; empty when steadyState is off")
        {
            Column = "steady_state_reached", PerLevel = r => r.Level.SteadyStateReached,
        },
        new("steady-state warm-up", "s", "Length of the steady-state warm-up before the level")
        {
            Column = "steady_state_warmup_s", PerLevel = r => r.Level.SteadyStateWarmupSeconds,
        },
        new("steady-state CoV", "", "CoV (fraction) of the per-second throughput over the last warm-up windows when the warm-up ended")
        {
            Column = "steady_state_cov", PerLevel = r => r.Level.SteadyStateCoefficientOfVariation,
        },
        new("server CPU", "%", "CPU of the server's processes (host + JVM, user + system) over the level's window, % of the cores the host may use: from the host's counters at the window's two ends (GET /cpu); in levels stored before, the host's once-a-second readings")
        {
            Column = "server_cpu_percent", PerLevel = r => r.Level.ServerCpuPercent,
        },
        new("bound", "", "What bound the level: Generator, Server, Machine or Neither (docs/statistics.md)")
        {
            Column = "bound", PerLevel = r => r.Level.Bound?.ToString(),
        },
        new("generator CPU per request", "µs", "Generator (client) CPU (runner + drivers, user + system, over the level's window) ÷ requests served in it: what the client technology costs; mean over repetitions [95 % interval from 3]")
        {
            Column = "generator_cpu_us_per_request", PerLevel = r => r.Level.GeneratorCpuMicrosPerRequest, Title = "Client CPU (µs/req)",
            Aggregated = a => a.GeneratorCpuPerRequest?.Mean, Display = a => a.GeneratorCpuPerRequest is { } e ? WithInterval(e, "0.0") : "", NoWrap = true,
        },
        new("throughput CoV", "", "Coefficient of variation (fraction) of the cell's throughput over its complete repetitions; empty below 2")
        {
            Column = "throughput_cov", PerLevel = r => r.Complete?.ThroughputRps.CoefficientOfVariation,
        },
        new("mean response time CoV", "", "Coefficient of variation (fraction) of the cell's mean response time over its complete repetitions; empty below 2")
        {
            Column = "mean_ms_cov", PerLevel = r => r.Complete?.MeanMs.CoefficientOfVariation,
        },
        new("throughput precision", "", "Relative half-width of the 95 % interval of the cell's throughput (0.02 = ±2 %): what a precision target (scenario field precision) is checked against; empty below 3 complete repetitions")
        {
            Column = "throughput_precision", PerLevel = r => r.Complete?.ThroughputRps.RelativeHalfWidth95, Title = "Precision",
            Aggregated = a => a.ThroughputRps.RelativeHalfWidth95, Display = a => Results.LevelPrecision.Of(a).Cell, Hidden = true, NoWrap = true,
            Tooltip = a => Results.LevelPrecision.Of(a).Text,
        },
        new("server CPU precision", "", "Relative half-width of the 95 % interval of the cell's server CPU per request (0.02 = ±2 %); empty below 3 complete repetitions or without server CPU")
        {
            Column = "server_cpu_precision", PerLevel = r => r.Complete?.ServerCpuPerRequest?.RelativeHalfWidth95,
        },
        new("generator cores busy", "%", "How busy the cores the generator may use were, by any process (/proc/stat); above the generator's own CPU on a shared machine")
        {
            Column = "generator_cores_busy_percent", PerLevel = r => r.Level.GeneratorCoresBusyPercent,
        },
        new("CPU window", "s", "Length of the window the level's CPU figures are over: from the reading at its start to the one at its end (docs/statistics.md)")
        {
            Column = "cpu_window_s", PerLevel = r => r.Level.CpuWindowSeconds,
        },
        new("server CPU per request", "µs", "Server CPU (host + JVM, user + system: /proc/<pid>/stat at the window's two ends, through the host's GET /cpu) ÷ requests served in the window; mean over repetitions [95 % interval from 3]")
        {
            Column = "server_cpu_us_per_request", PerLevel = r => r.Level.ServerCpuMicrosPerRequest, Title = "Server CPU (µs/req)",
            Aggregated = a => a.ServerCpuPerRequest?.Mean, Display = a => a.ServerCpuPerRequest is { } e ? WithInterval(e, "0.0") : "", NoWrap = true,
            Tooltip = a => a.Levels.Select(l => l.ServerCpuMissingReason).FirstOrDefault(m => m is not null),
        },
        new("server CPU per request interval, low", "µs", "Lower end of the 95 % interval of the cell's server CPU per request over its complete repetitions (log scale); empty below 3")
        {
            Column = "server_cpu_us_per_request_ci95_low", PerLevel = r => r.Complete?.ServerCpuPerRequest is { HasInterval: true } e ? e.Low95 : null,
        },
        new("server CPU per request interval, high", "µs", "Upper end of that interval")
        {
            Column = "server_cpu_us_per_request_ci95_high", PerLevel = r => r.Complete?.ServerCpuPerRequest is { HasInterval: true } e ? e.High95 : null,
        },
        new("server CPU missing", "", "Why the level's server CPU figures are empty (the host restarted during the window, or it does not answer GET /cpu); empty when measured")
        {
            Column = "server_cpu_missing_reason", PerLevel = r => r.Level.ServerCpuMissingReason,
        },
        new("machine busy", "%", "The machine's busy share over the window (/proc/stat, all cores: busy ÷ busy + idle + steal; the server's machine)")
        {
            Column = "machine_busy_percent", PerLevel = r => r.Level.MachineBusyPercent, Title = "Machine busy (%)", Aggregated = a => a.MachineBusyPercent, Format = "0", Hidden = true,
        },
        new("steal", "%", "Steal time over the window, % of the machine's time (a virtual machine's cores waiting for the hypervisor)")
        {
            Column = "steal_percent", PerLevel = r => r.Level.StealPercent,
        },
        new("others' CPU", "cores", "CPU used on the machine by processes that are not the benchmark's over the window, in cores: busy − (host + JVM + runner + drivers), less the counters' resolution")
        {
            Column = "others_cpu_cores", PerLevel = r => r.Level.OthersCpuCores, Title = "Others (cores)", Aggregated = a => a.OthersCpuCores, Format = "0.00", Hidden = true,
        },
        new("disturbed", "", "True when others used more than 0.10 of a core or steal exceeded 2 % over the window (QuietMachine): not a quiet machine (docs/statistics.md); in the table, the repetitions so flagged")
        {
            Column = "disturbed", PerLevel = r => r.Level.Disturbed, Title = "Disturbed", Aggregated = a => a.DisturbedRepetitions, Numeric = false, NoWrap = true,
            Display = a => a.CheckedRepetitions == 0 ? "" : a.DisturbedRepetitions == 0 ? "no" : string.Create(CultureInfo.InvariantCulture, $"{a.DisturbedRepetitions} of {a.CheckedRepetitions}"),
            Tooltip = a => a.CheckedRepetitions == 0 ? null : string.Join("\n", a.Levels.Where(l => l.Disturbed is not null)
                .Select(l => $"repetition {l.Repetition}: {QuietMachine.Describe(l.OthersCpuCores, l.StealPercent, l.MachineBusyPercent)}")),
        },
        new("measured window", "s", "Length of the measured window: start of the first to end of the last measured request, warm-up excluded (the throughput's denominator); mean over repetitions; empty in levels stored before it was kept")
        {
            Column = "window_s", PerLevel = r => r.Level.WindowSeconds, Title = "Window (s)",
            Aggregated = a => MeanOf(a, l => l.WindowSeconds), Format = "0.00", Hidden = true, Store = (l, s) => l.WindowSeconds = s.WindowUs / 1_000_000.0,
        },
        new("warm-up end", "", "How each repetition's warm-up ended: at steady state (the CoV rule met) or at its cap (measured before steady state); empty when steadyState is off")
        {
            Title = "Warm-up end", Aggregated = WarmupEnd, Numeric = false, Hidden = true, NoWrap = true,
        },
        new("launch", "", "The launch (from 1) the level repetition ran in: fresh driver processes and, where the runner can, a fresh service host (docs/statistics.md, \"Launches\"); empty in levels stored before")
        {
            Column = "launch", PerLevel = r => r.Level.Launch, Title = "Launches", Aggregated = a => Launches(a), Hidden = true,
        },
        new("host process", "", "Process id of the service host that served the level (GET /healthz); the same id in two launches: they shared the host process")
        {
            Column = "host_pid", PerLevel = r => r.Level.HostProcessId,
        },
        new("shared core", "", "Placement \"shared-core\" (1-client levels): the one core the runner, its drivers and the host were pinned to from the level's warm-up to its window's end (docs/statistics.md, \"Placement: one client on one core\"); empty: placed freely by the scheduler")
        {
            Column = "shared_core", PerLevel = r => r.Level.SharedCore,
        },
        new("target rate", "req/s", "Open levels (workload \"open\"): the arrival rate the schedule kept, also the level's value; empty for closed levels (docs/statistics.md, \"Closed and open workloads\")")
        {
            Column = "target_rate_rps", PerLevel = r => r.Level.TargetRateRps,
        },
        new("late starts", "", "Open levels: requests that started more than 10 ms after their intended start (no free connection in time, or the generator behind); sum over repetitions in the table; empty for closed levels")
        {
            Column = "late_starts", PerLevel = r => r.Level.LateStarts, Title = "Late starts", Aggregated = a => SumOf(a, l => l.LateStarts), Format = "N0", Hidden = true,
        },
        new("dropped requests", "", "Open levels: scheduled requests that never started (no free connection until 1 s past the schedule's end); sum over repetitions in the table; empty for closed levels")
        {
            Column = "dropped_requests", PerLevel = r => r.Level.DroppedRequests, Title = "Dropped", Aggregated = a => SumOf(a, l => l.DroppedRequests), Format = "N0", Hidden = true,
        },
        new("connections", "", "Open levels: connections opened to keep the rate (at most maxConnections); empty for closed levels")
        {
            Column = "connections", PerLevel = r => r.Level.Connections,
        },
        new("service p99", Ms, "Open levels: p99 of the service time, from each request's actual start (what coordinated omission would report; p99 counts from the intended start); empty for closed levels")
        {
            Column = "service_p99_ms", PerLevel = r => r.Level.ServiceP99Ms, Title = "Service p99 (ms)", Aggregated = a => MeanOf(a, l => l.ServiceP99Ms), Format = "0.00", Hidden = true,
        },
        new("agents", "", "The level's split over load agents (agent-1 10, agent-2 10); empty when the runner generated it (docs/agents.md)")
        {
            Column = "agents", PerLevel = r => LevelAgentShare.Describe(LevelAgentShare.FromJson(r.Level.AgentsJson)),
        },
        new("start skew bound", Ms, "How far apart the agents started at most; empty without agents")
        {
            Column = "start_skew_bound_ms", PerLevel = r => r.Level.StartSkewBoundMs,
        },
        new("timeouts", "", "Measured requests that timed out") { Store = (l, s) => l.TimeoutErrors = s.ErrorsByKind.GetValueOrDefault(SampleOutcome.Timeout) },
        new("faults", "", "Measured requests answered with a fault") { Store = (l, s) => l.FaultErrors = s.ErrorsByKind.GetValueOrDefault(SampleOutcome.Fault) },
        new("connection errors", "", "Measured requests whose connection failed") { Store = (l, s) => l.ConnectionErrors = s.ErrorsByKind.GetValueOrDefault(SampleOutcome.Connection) },
        new("authentication errors", "", "Measured requests refused for their credentials") { Store = (l, s) => l.AuthenticationErrors = s.ErrorsByKind.GetValueOrDefault(SampleOutcome.Authentication) },
        new("other errors", "", "Measured requests that failed otherwise") { Store = (l, s) => l.OtherErrors = s.ErrorsByKind.GetValueOrDefault(SampleOutcome.Other) },
    ];

    /// <summary>The levels CSV's columns, in order.</summary>
    public static IReadOnlyList<LevelStatistic> Columns { get; } = [.. All.Where(s => s.Column is not null)];

    /// <summary>The per-level table's columns, in order.</summary>
    public static IReadOnlyList<LevelStatistic> Table { get; } = [.. All.Where(s => s.Title is not null)];

    /// <summary>The runner's console table's columns, in order.</summary>
    public static IReadOnlyList<LevelStatistic> Console { get; } = [.. All.Where(s => s.ConsoleTitle is not null)];

    /// <summary>The levels CSV's header line (without the line end).</summary>
    public static string Header { get; } = string.Join(',', Columns.Select(s => s.Column));

    /// <summary>
    /// The mean of <paramref name="estimate"/> in <paramref name="format"/> (invariant culture), followed by its 95 % interval when
    /// it has one (<see cref="Estimate.HasInterval"/>: from 3 repetitions), e.g. <c>812.4 [790.1, 834.7]</c>.
    /// </summary>
    public static string WithInterval(Estimate estimate, string format) =>
        estimate.HasInterval
            ? string.Create(CultureInfo.InvariantCulture, $"{estimate.Mean.ToString(format, CultureInfo.InvariantCulture)} [{estimate.Low95.ToString(format, CultureInfo.InvariantCulture)}, {estimate.High95.ToString(format, CultureInfo.InvariantCulture)}]")
            : estimate.Mean.ToString(format, CultureInfo.InvariantCulture);

    /// <summary>
    /// The mean of <paramref name="value"/> over the repetitions of <paramref name="level"/> where a request succeeded (those
    /// with response times) and that have it; null when none does: how the table aggregates a response-time statistic.
    /// </summary>
    public static double? MeanOverAnswered(LevelAggregate level, Func<Entities.LevelEntity, double?> value)
    {
        ArgumentNullException.ThrowIfNull(level);
        ArgumentNullException.ThrowIfNull(value);
        var values = level.Levels.Where(l => l.Requests > l.Errors).Select(value).Where(v => v is not null).Select(v => v!.Value).ToList();
        return values.Count == 0 ? null : values.Average();
    }

    /// <summary>
    /// How the warm-ups of <paramref name="level"/>'s repetitions ended: <c>steady</c> (all reached steady state), <c>cap</c>
    /// (none did: measured at the warm-up's cap), <c>steady 2, cap 1</c> when mixed; null when no repetition had a steady-state warm-up.
    /// </summary>
    public static string? WarmupEnd(LevelAggregate level)
    {
        ArgumentNullException.ThrowIfNull(level);
        var steady = level.Levels.Count(l => l.SteadyStateReached == true);
        var cap = level.Levels.Count(l => l.SteadyStateReached == false);
        return (steady, cap) switch
        {
            (0, 0) => null,
            (_, 0) => "steady",
            (0, _) => "cap",
            _ => string.Create(CultureInfo.InvariantCulture, $"steady {steady}, cap {cap}"),
        };
    }

    /// <summary>How many distinct launches <paramref name="level"/>'s repetitions ran in; null when none recorded its launch.</summary>
    public static int? Launches(LevelAggregate level)
    {
        ArgumentNullException.ThrowIfNull(level);
        var launches = level.Levels.Where(l => l.Launch is not null).Select(l => l.Launch).Distinct().Count();
        return launches == 0 ? null : launches;
    }

    private static long? SumOf(LevelAggregate level, Func<Entities.LevelEntity, long?> value)
    {
        var values = level.Levels.Select(value).Where(v => v is not null).ToList();
        return values.Count == 0 ? null : values.Sum(v => v!.Value);
    }

    private static double? MeanOf(LevelAggregate level, Func<Entities.LevelEntity, double?> value)
    {
        var values = level.Levels.Select(value).Where(v => v is not null).Select(v => v!.Value).ToList();
        return values.Count == 0 ? null : values.Average();
    }

    // A level where no measured request succeeded has no response time: stored as 0 (SQLite has no NaN), written empty.
    private static double? Timed(LevelRow row, double value) => row.Timed ? value : null;
}
