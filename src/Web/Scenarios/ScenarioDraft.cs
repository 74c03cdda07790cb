using System.Globalization;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Web.Scenarios;

/// <summary>How a level's measured part is bounded.</summary>
public enum WorkloadBound
{
    /// <summary>A number of measured requests per client.</summary>
    Requests,

    /// <summary>A measured time per level.</summary>
    Duration,
}

/// <summary>
/// The New run page's editable scenario: lists as sets, levels as text. <see cref="ToDocument"/> gives the
/// scenario document, and <see cref="Validate"/> the loader's field errors keyed by top-level JSON field.
/// </summary>
public sealed class ScenarioDraft
{
    /// <summary>Scenario name.</summary>
    public string Name { get; set; } = "";

    /// <summary>Service host base address.</summary>
    public string Host { get; set; } = "http://localhost:5090";

    /// <summary>Chosen variant ids, in catalogue order when turned into a document.</summary>
    public List<string> Variants { get; } = [];

    /// <summary>Chosen client ids.</summary>
    public List<string> Clients { get; } = [];

    /// <summary>Chosen payload ids.</summary>
    public List<string> Payloads { get; } = [];

    /// <summary>Concurrency levels as typed, comma- or space-separated.</summary>
    public string LevelsText { get; set; } = string.Join(", ", ScenarioDocument.ThesisSweep);

    /// <summary>Requests or duration.</summary>
    public WorkloadBound Bound { get; set; } = WorkloadBound.Requests;

    /// <summary>Measured requests per client per level.</summary>
    public int RequestsPerClient { get; set; } = 100;

    /// <summary>Measured seconds per level.</summary>
    public int DurationSeconds { get; set; } = 10;

    /// <summary>Warm-up requests per client per level.</summary>
    public int Warmup { get; set; } = 5;

    /// <summary>Repetitions of each level: 3 by default, the fewest for a confidence interval (docs/statistics.md).</summary>
    public int Repetitions { get; set; } = 3;

    /// <summary>Independent launches (fresh clients each, and a fresh service host when the host restarts on request; docs/statistics.md, "Launches"): 1 by default; written to the document only when not 1.</summary>
    public int Launches { get; set; } = 1;

    /// <summary>
    /// The precision target in percent (2 = the 95 % intervals within ±2 %; docs/statistics.md, "Precision target"), or
    /// null for none; written to the document as the fraction <c>precision</c>. Its caps keep the document's (or the defaults).
    /// </summary>
    public double? PrecisionPercent { get; set; }

    private int? MaxRepetitions { get; set; }

    private TimeSpan? PrecisionTimeLimit { get; set; }

    /// <summary>Steady state before each level (docs/statistics.md), or null for off; the page offers off or <see cref="SteadyStateSettings.Defaults"/> and keeps a document's own settings.</summary>
    public SteadyStateSettings? SteadyState { get; set; }

    /// <summary>A fresh client per repetition (docs/statistics.md).</summary>
    public bool FreshClientPerRepetition { get; set; }

    /// <summary>Placement <c>"shared-core"</c>: 1-client levels on one core shared by generator and host (<see cref="Dashboard.Service.Contracts.Scenarios.Placement"/>); false: placed freely.</summary>
    public bool SharedCore { get; set; }

    /// <summary>The credential profile the secure variants are called with (docs/security.md); kept from the document it was made from.</summary>
    public string CredentialProfile { get; set; } = Dashboard.Service.Contracts.Security.CredentialProfile.DefaultName;

    /// <summary>Where the host runs (docs/topologies.md): <c>same-machine</c> (default), <c>emulated-lan</c> or <c>remote</c>.</summary>
    public string Topology { get; set; } = Dashboard.Service.Contracts.Scenarios.Topology.SameMachine;

    /// <summary>The emulated link's rate in Mbit/s (emulated-lan only; the page sets 100 when emulated-lan is chosen, 1000 selectable), or null.</summary>
    public int? LinkRateMbps { get; set; }

    /// <summary>The host's cores (emulated-lan only), or null for half of the runner's cores.</summary>
    public int? HostCores { get; set; }

    /// <summary>
    /// The load agents that generate each level (docs/agents.md; the scenario field <c>agents</c>): null for this machine
    /// (the default), the page's pick as <see cref="AgentSelection.Named"/>, or a document's count kept as it was.
    /// </summary>
    public AgentSelection? Agents { get; set; }

    /// <summary>True: the levels are arrival rates (<c>workload: "open"</c>, <see cref="RatesText"/>); false: client counts (<see cref="LevelsText"/>).</summary>
    public bool Open { get; set; }

    /// <summary>The open workload's arrival rates in req/s, as typed (comma- or space-separated).</summary>
    public string RatesText { get; set; } = "500, 1000, 2000";

    /// <summary>The open sweep's p99 target in ms; null: none.</summary>
    public double? P99TargetMs { get; set; }

    /// <summary>The most connections an open level may open; null: the default (<see cref="Workload.DefaultMaxConnections"/>).</summary>
    public int? MaxConnections { get; set; }

    /// <summary>
    /// Switches the draft to the open (<paramref name="open"/> true) or closed workload. Open levels are timed (the
    /// validator's rule), so a requests-per-client bound becomes <see cref="WorkloadBound.Duration"/>; a steady-state
    /// warm-up stays (an open level warms up at its own rate until its median response time settles).
    /// </summary>
    /// <returns>What was changed to fit, one sentence each; empty when nothing was.</returns>
    public IReadOnlyList<string> SetOpen(bool open)
    {
        Open = open;
        var changes = new List<string>();
        if (!open)
        {
            return changes;
        }

        if (Bound == WorkloadBound.Requests)
        {
            Bound = WorkloadBound.Duration;
            changes.Add(string.Create(CultureInfo.InvariantCulture, $"Each level now runs for a measured time ({DurationSeconds} s): an open level's requests follow a schedule, not a count per client."));
        }

        return changes;
    }

    /// <summary>A draft holding <paramref name="document"/>.</summary>
    public static ScenarioDraft From(ScenarioDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var draft = new ScenarioDraft
        {
            Name = document.Name,
            Host = document.Host,
            LevelsText = string.Join(", ", document.Levels),
            Bound = document.Duration is null ? WorkloadBound.Requests : WorkloadBound.Duration,
            RequestsPerClient = document.RequestsPerClient ?? 100,
            DurationSeconds = (int)(document.Duration?.TotalSeconds ?? 10),
            Warmup = document.Warmup,
            Repetitions = document.Repetitions,
            Launches = document.Launches ?? 1,
            PrecisionPercent = document.Precision * 100,
            MaxRepetitions = document.MaxRepetitions,
            PrecisionTimeLimit = document.PrecisionTimeLimit,
            CredentialProfile = document.CredentialProfile,
            Topology = document.Topology,
            LinkRateMbps = document.LinkRateMbps,
            HostCores = document.HostCores,
            SteadyState = document.SteadyState,
            FreshClientPerRepetition = document.FreshClientPerRepetition,
            SharedCore = document.Placement == Dashboard.Service.Contracts.Scenarios.Placement.SharedCore,
            Agents = document.Agents,
            Open = document.IsOpen,
            RatesText = document.Rates is { Count: > 0 } rates ? string.Join(", ", rates) : "500, 1000, 2000",
            P99TargetMs = document.P99TargetMs,
            MaxConnections = document.MaxConnections,
        };
        draft.Variants.AddRange(document.Variants);
        draft.Clients.AddRange(document.Clients);
        draft.Payloads.AddRange(document.Payloads);
        return draft;
    }

    /// <summary>
    /// Sets <see cref="Agents"/> to <paramref name="names"/> (<see cref="AgentSelection.Named"/>, in the order given; null or
    /// empty: this machine) and makes the rest of the draft fit it: levels over agents are timed and have no steady-state
    /// warm-up (the scenario validator's rules), so a requests-per-client workload becomes <see cref="WorkloadBound.Duration"/>
    /// (<see cref="DurationSeconds"/> as it was) and steady state is turned off. The topology is left alone: emulated-lan
    /// with agents stays refused at <c>agents</c>.
    /// </summary>
    /// <returns>What was changed to fit, one sentence each, for a note beside the choice; empty when nothing was.</returns>
    public IReadOnlyList<string> SetAgents(IReadOnlyList<string>? names)
    {
        Agents = names is { Count: > 0 } ? AgentSelection.Named([.. names]) : null;
        var changes = new List<string>();
        if (Agents is null)
        {
            return changes;
        }

        if (Bound == WorkloadBound.Requests)
        {
            Bound = WorkloadBound.Duration;
            changes.Add(string.Create(CultureInfo.InvariantCulture,
                $"Each level now runs for a measured time ({DurationSeconds} s) instead of {RequestsPerClient} requests per client: the agents start together at an agreed instant and stop together."));
        }

        if (SteadyState is not null)
        {
            SteadyState = null;
            changes.Add("The steady-state warm-up is off: one generator detects it; over agents the warm-up requests per client warm up instead.");
        }

        return changes;
    }

    /// <summary>
    /// The levels text parsed. The problem names every entry that is not a whole number or is outside 1…<see
    /// cref="ScenarioValidator.MaxLevel"/> (issue #36: "ten, -5, 2.5" named only "ten"); null when all are levels.
    /// </summary>
    public (IReadOnlyList<int> Levels, string? Problem) ParseLevels()
    {
        var parts = LevelsText.Split([',', ' ', ';'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var levels = new List<int>();
        var problems = new List<(int Index, string Text)>();
        for (var i = 0; i < parts.Length; i++)
        {
            if (!int.TryParse(parts[i], NumberStyles.Integer, CultureInfo.InvariantCulture, out var level))
            {
                problems.Add((i, $"'{parts[i]}' is not a whole number of concurrent clients"));
                continue;
            }

            if (level is < 1 or > ScenarioValidator.MaxLevel)
            {
                problems.Add((i, $"{level} is out of range; a level is 1..{ScenarioValidator.MaxLevel} concurrent clients"));
            }

            levels.Add(level);
        }

        if (problems.Count == 0)
        {
            return (levels, null);
        }

        // Only whole numbers out of range: the validator says so at the field, in the same words.
        if (problems.All(p => int.TryParse(parts[p.Index], NumberStyles.Integer, CultureInfo.InvariantCulture, out _)))
        {
            return (levels, null);
        }

        return (levels, string.Join("; ", problems.Select(p => $"{FieldLabel($"levels[{p.Index}]")}: {p.Text}")));
    }

    /// <summary>
    /// The rates text parsed; the problem names every entry that is not a whole number (out-of-range ones are the
    /// validator's, at <c>rates[i]</c>); null when all are numbers.
    /// </summary>
    public (IReadOnlyList<int> Rates, string? Problem) ParseRates()
    {
        var parts = RatesText.Split([',', ' ', ';'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var rates = new List<int>();
        var problems = new List<string>();
        for (var i = 0; i < parts.Length; i++)
        {
            if (int.TryParse(parts[i], NumberStyles.Integer, CultureInfo.InvariantCulture, out var rate))
            {
                rates.Add(rate);
            }
            else
            {
                problems.Add($"{FieldLabel($"rates[{i}]")}: '{parts[i]}' is not a whole number of requests per second");
            }
        }

        return (rates, problems.Count == 0 ? null : string.Join("; ", problems));
    }

    /// <summary>The scenario document of this draft (not validated).</summary>
    public ScenarioDocument ToDocument() => new()
    {
        Name = Name.Trim(),
        Host = Host.Trim(),
        Variants = [.. Variants],
        Clients = [.. Clients],
        Payloads = [.. Payloads],
        Levels = ParseLevels().Levels,
        Workload = Open ? Dashboard.Service.Contracts.Scenarios.Workload.Open : null,
        Rates = Open ? ParseRates().Rates : null,
        P99TargetMs = Open ? P99TargetMs : null,
        MaxConnections = Open ? MaxConnections : null,
        RequestsPerClient = Bound == WorkloadBound.Requests ? RequestsPerClient : null,
        Duration = Bound == WorkloadBound.Duration ? TimeSpan.FromSeconds(DurationSeconds) : null,
        Warmup = Warmup,
        Repetitions = Repetitions,
        Launches = Launches == 1 ? null : Launches,
        Precision = PrecisionPercent / 100,
        MaxRepetitions = PrecisionPercent is null ? null : MaxRepetitions,
        PrecisionTimeLimit = PrecisionPercent is null ? null : PrecisionTimeLimit,
        CredentialProfile = CredentialProfile,
        Topology = Topology,
        LinkRateMbps = LinkRateMbps,
        HostCores = HostCores,
        SteadyState = SteadyState,
        FreshClientPerRepetition = FreshClientPerRepetition,
        Placement = SharedCore ? Dashboard.Service.Contracts.Scenarios.Placement.SharedCore : null,
        Agents = Agents,
    };

    /// <summary>
    /// Every problem the scenario loader finds, keyed by top-level JSON field (<c>levels</c> for <c>levels[2]</c>); each
    /// message starts with the field as the page labels it ("Concurrency level 3: 0 is out of range; …"). Empty when
    /// the draft is valid.
    /// </summary>
    public IReadOnlyDictionary<string, List<string>> Validate()
    {
        var problems = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        // Only the list the workload uses is parsed: an open draft keeps its levels text for a switch back, unread.
        var levelsProblem = Open ? null : ParseLevels().Problem;
        if (levelsProblem is not null)
        {
            problems["levels"] = [levelsProblem];
        }

        var ratesProblem = Open ? ParseRates().Problem : null;
        if (ratesProblem is not null)
        {
            problems["rates"] = [ratesProblem];
        }

        try
        {
            ScenarioLoader.Validate(ToDocument());
        }
        catch (ScenarioException e)
        {
            foreach (var (field, message) in e.Problems.Count > 0 ? e.Problems : [(e.Field, e.Message)])
            {
                var key = TopLevel(field);
                if ((key == "levels" && levelsProblem is not null) || (key == "rates" && ratesProblem is not null))
                {
                    continue; // the text did not parse; the loader saw only the entries before the bad one
                }

                if (!problems.TryGetValue(key, out var list))
                {
                    problems[key] = list = [];
                }

                list.Add($"{FieldLabel(field)}: {message}");
            }
        }

        return problems;
    }

    /// <summary>
    /// A scenario field as the New run page labels it: <c>levels[2]</c> → "Concurrency level 3",
    /// <c>requestsPerClient</c> → "Requests per client"; an unknown field is returned as is.
    /// </summary>
    public static string FieldLabel(string field)
    {
        ArgumentNullException.ThrowIfNull(field);
        var top = TopLevel(field);
        var index = field.Length > top.Length + 2 && field[top.Length] == '[' && int.TryParse(field.AsSpan(top.Length + 1, field.Length - top.Length - 2), NumberStyles.Integer, CultureInfo.InvariantCulture, out var i)
            ? i + 1
            : (int?)null;
        return (top, index) switch
        {
            ("levels", { } n) => $"Concurrency level {n}",
            ("levels", null) => "Concurrency levels",
            ("variants", { } n) => $"Endpoint variant {n}",
            ("variants", null) => "Endpoint variants",
            ("clients", { } n) => $"Client technology {n}",
            ("clients", null) => "Client technologies",
            ("rates", { } n) => $"Arrival rate {n}",
            ("rates", null) => "Arrival rates",
            ("workload", _) => "Workload",
            ("p99TargetMs", _) => "p99 target",
            ("maxConnections", _) => "Most connections",
            ("payloads", { } n) => $"Payload {n}",
            ("payloads", null) => "Payloads",
            ("name", _) => "Name",
            ("host", _) => "Service host",
            ("requestsPerClient", _) => "Requests per client",
            ("duration", _) => "Measured time per level",
            ("warmup", _) => "Warm-up requests per client",
            ("repetitions", _) => "Repetitions",
            ("launches", _) => "Launches",
            ("precision", _) => "Precision target",
            ("maxRepetitions", _) => "Precision target (most repetitions)",
            ("precisionTimeLimit", _) => "Precision target (time limit)",
            ("credentialProfile", _) => "Credential profile",
            ("topology", _) => "Topology",
            ("linkRateMbps", _) => "Link rate",
            ("hostCores", _) => "Host cores",
            ("steadyState", _) => "Steady state",
            ("freshClientPerRepetition", _) => "Fresh client per repetition",
            ("placement", _) => "One client on one core",
            ("agents", _) => "Load agents",
            ("scenario", _) => "Scenario",
            _ => field,
        };
    }

    private static string TopLevel(string field)
    {
        var cut = field.IndexOfAny(['[', '.']);
        return cut > 0 ? field[..cut] : field;
    }
}
