using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;
using FluentValidation;

namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// The rules a scenario document must meet. Property names in errors are the JSON field names
/// (e.g. <c>levels[2]</c>) so a message can be shown at the field it concerns.
/// </summary>
public sealed class ScenarioValidator : AbstractValidator<ScenarioDocument>
{
    /// <summary>Most concurrent clients in one level: each is its own worker and channel on the load machine.</summary>
    public const int MaxLevel = 1000;

    /// <summary>Most measured requests one client may send in one level.</summary>
    public const int MaxRequestsPerClient = 1_000_000;

    /// <summary>Longest measured time per level.</summary>
    public static readonly TimeSpan MaxDuration = TimeSpan.FromHours(1);

    /// <summary>Creates the validator.</summary>
    public ScenarioValidator()
    {
        // Every rule is null-safe: JSON null is a value a document may hold for any list or text field.
        RuleFor(s => s.Name).NotEmpty().WithMessage("a scenario needs a name")
            .MaximumLength(200).WithMessage("at most 200 characters")
            .Must(n => n is null || !ScenarioText.HasControlCharacter(n)).WithMessage("a name is one line without control characters (newline, tab, NUL)")
            .Must(n => n is null || ScenarioText.IndexOfUnpairedSurrogate(n) < 0).WithMessage("not valid Unicode (an unpaired surrogate)")
            .OverridePropertyName("name");

        RuleFor(s => s.Host).Must(BeAnHttpAddress)
            .WithMessage(s => string.IsNullOrWhiteSpace(s.Host)
                ? "a scenario needs the base address of a service host, e.g. http://localhost:5090"
                : $"'{ScenarioText.Shown(s.Host)}' is not an absolute http:// or https:// address")
            .OverridePropertyName("host");

        RuleFor(s => s.Variants).NotEmpty().WithMessage(s => s.Variants is null ? "null; expected an array of endpoint variant ids" : "choose at least one endpoint variant")
            .OverridePropertyName("variants");
        RuleForEach(s => s.Variants).Must(v => v is not null && VariantCatalogue.TryGet(v, out _))
            .WithMessage((_, v) => v is null
                ? "null; expected an endpoint variant id"
                : $"unknown endpoint variant '{ScenarioText.Shown(v)}'; known: {string.Join(", ", VariantCatalogue.All.Select(x => x.Name))}")
            .When(s => s.Variants is not null)
            .OverridePropertyName("variants");
        RuleForEach(s => s.Variants).Must(v => !VariantCatalogue.TryGet(v, out var variant) || variant.IsAvailable)
            .WithMessage((_, v) => VariantCatalogue.TryGet(v, out var variant) ? $"variant '{v}' is {variant.UnavailableReason}" : "")
            .When(s => s.Variants is not null)
            .OverridePropertyName("variants");
        RuleFor(s => s.Variants).Must(NotRepeat).WithMessage("a variant is listed twice").OverridePropertyName("variants");

        RuleFor(s => s.Clients).NotEmpty().WithMessage(s => s.Clients is null ? "null; expected an array of client technology ids" : "choose at least one client technology")
            .OverridePropertyName("clients");
        RuleForEach(s => s.Clients).Must(c => c is not null && ClientTechnology.All.Any(t => t.Id == c))
            .WithMessage((_, c) => c is null
                ? "null; expected a client technology id"
                : $"unknown client technology '{ScenarioText.Shown(c)}'; known: {string.Join(", ", ClientTechnology.All.Select(t => t.Id))}")
            .When(s => s.Clients is not null)
            .OverridePropertyName("clients");
        RuleFor(s => s.Clients).Must(NotRepeat).WithMessage("a client technology is listed twice").OverridePropertyName("clients");
        RuleFor(s => s).Custom(CheckCombinations);

        RuleFor(s => s.Payloads).NotEmpty().WithMessage(s => s.Payloads is null ? "null; expected an array of payload ids" : "choose at least one payload case")
            .OverridePropertyName("payloads");
        RuleForEach(s => s.Payloads).Must(p => p is not null && PayloadCatalogue.TryGet(p, out _))
            .WithMessage((_, p) => p is null
                ? "null; expected a payload id"
                : $"unknown payload id '{ScenarioText.Shown(p)}'; known: {string.Join(", ", PayloadCatalogue.Ids)}")
            .When(s => s.Payloads is not null)
            .OverridePropertyName("payloads");
        RuleFor(s => s.Payloads).Must(NotRepeat).WithMessage("a payload case is listed twice").OverridePropertyName("payloads");

        RuleFor(s => s.Levels).NotEmpty().When(s => !s.IsOpen).WithMessage(s => s.Levels is null ? "null; expected an array of concurrency levels (or leave the field out for the thesis sweep)" : "give at least one concurrency level")
            .OverridePropertyName("levels");
        RuleForEach(s => s.Levels).InclusiveBetween(1, MaxLevel)
            .WithMessage((_, l) => $"{l} is out of range; a level is 1..{MaxLevel} concurrent clients")
            .When(s => s.Levels is not null && !s.IsOpen)
            .OverridePropertyName("levels");
        RuleFor(s => s.Levels).Must(NotRepeat).When(s => !s.IsOpen).WithMessage("a level is listed twice").OverridePropertyName("levels");
        AddWorkloadRules();

        RuleFor(s => s).Must(s => s.RequestsPerClient.HasValue != s.Duration.HasValue)
            .WithMessage("give exactly one of requestsPerClient and duration").OverridePropertyName("requestsPerClient");
        RuleFor(s => s.RequestsPerClient).InclusiveBetween(1, MaxRequestsPerClient)
            .When(s => s.RequestsPerClient.HasValue)
            .WithMessage(s => $"{s.RequestsPerClient} is out of range; 1..{MaxRequestsPerClient} requests per client")
            .OverridePropertyName("requestsPerClient");
        RuleFor(s => s.Duration).Must(d => d > TimeSpan.Zero && d <= MaxDuration)
            .When(s => s.Duration.HasValue)
            .WithMessage(s => $"{s.Duration} is out of range; more than 0 and at most {MaxDuration}")
            .OverridePropertyName("duration");

        RuleFor(s => s.Warmup).InclusiveBetween(0, 100_000)
            .WithMessage(s => $"{s.Warmup} is out of range; 0..100000 warm-up requests per client").OverridePropertyName("warmup");
        RuleFor(s => s.CredentialProfile).Must(BeAProfileName)
            .WithMessage(s => $"'{s.CredentialProfile}' is not a credential profile name (1..100 letters, digits, '-', '_' or '.'); the host's default profile is 'bench'")
            .OverridePropertyName("credentialProfile");
        RuleFor(s => s.Agents).Must(a => a is null || a.ValidationError() is null)
            .WithMessage(s => s.Agents?.ValidationError() ?? "")
            .OverridePropertyName("agents");
        RuleFor(s => s.RequestsPerClient).Must(r => r is null).When(s => s.Agents is not null)
            .WithMessage("levels over load agents are timed (the agents start together at an agreed instant and stop together): give duration instead of requestsPerClient")
            .OverridePropertyName("requestsPerClient");

        RuleFor(s => s.SteadyState).Must(s => s is null).When(s => s.Agents is not null)
            .WithMessage("the steady-state warm-up is detected by one generator; over load agents use warmup (requests per client) instead")
            .OverridePropertyName("steadyState");

        RuleFor(s => s.Agents).Must(a => a is null).When(s => s.Topology == Topology.EmulatedLan)
            .WithMessage($"load agents generate load from their own machines; topology '{Topology.EmulatedLan}' runs its host in a namespace only this machine reaches")
            .OverridePropertyName("agents");

        RuleFor(s => s.Topology).Must(t => t is not null && Topology.All.Contains(t))
            .WithMessage(s => $"'{ScenarioText.Shown(s.Topology ?? "null")}' is not a topology; give one of {string.Join(", ", Topology.All)}")
            .OverridePropertyName("topology");
        RuleFor(s => s.LinkRateMbps).Must(r => r is null).When(s => s.Topology != Topology.EmulatedLan)
            .WithMessage(s => $"a link rate is set only for topology '{Topology.EmulatedLan}' (this scenario's topology is '{ScenarioText.Shown(s.Topology ?? "null")}')")
            .OverridePropertyName("linkRateMbps");
        RuleFor(s => s.LinkRateMbps).InclusiveBetween(1, Topology.MaxLinkRateMbps).When(s => s.LinkRateMbps.HasValue && s.Topology == Topology.EmulatedLan)
            .WithMessage(s => $"{s.LinkRateMbps} is out of range; 1..{Topology.MaxLinkRateMbps} Mbit/s (100 is the thesis's LAN, 1000 is 1 Gbit/s)")
            .OverridePropertyName("linkRateMbps");
        RuleFor(s => s.HostCores).Must(c => c is null).When(s => s.Topology != Topology.EmulatedLan)
            .WithMessage(s => $"host cores are set only for topology '{Topology.EmulatedLan}' (this scenario's topology is '{ScenarioText.Shown(s.Topology ?? "null")}')")
            .OverridePropertyName("hostCores");
        RuleFor(s => s.HostCores).InclusiveBetween(1, 1024).When(s => s.HostCores.HasValue && s.Topology == Topology.EmulatedLan)
            .WithMessage(s => $"{s.HostCores} is out of range; at least 1 core for the host (and at least one left for the generator)")
            .OverridePropertyName("hostCores");
        RuleFor(s => s.Placement).Must(p => p is null || Placement.All.Contains(p))
            .WithMessage(s => $"'{ScenarioText.Shown(s.Placement ?? "null")}' is not a placement; give one of {string.Join(", ", Placement.All)}")
            .OverridePropertyName("placement");
        RuleFor(s => s.Placement).Must(_ => false).When(s => s.Placement == Placement.SharedCore && s.Topology != Topology.SameMachine)
            .WithMessage(s => $"placement '{Placement.SharedCore}' pins the host's processes to the generator's core, which the runner can do only on its own machine: give topology '{Topology.SameMachine}' (this scenario's is '{ScenarioText.Shown(s.Topology ?? "null")}')")
            .OverridePropertyName("placement");
        RuleFor(s => s.Placement).Must(_ => false).When(s => s.Placement == Placement.SharedCore && s.Agents is not null)
            .WithMessage($"placement '{Placement.SharedCore}' pins the runner's own load generator; load agents generate the load elsewhere: leave agents out or use placement '{Placement.Free}'")
            .OverridePropertyName("placement");
        RuleFor(s => s.Placement).Must(_ => false).When(s => s.Placement == Placement.SharedCore && s.IsOpen)
            .WithMessage($"placement '{Placement.SharedCore}' applies to closed levels of one client (one request outstanding at a time); an open level's requests overlap: use placement '{Placement.Free}'")
            .OverridePropertyName("placement");
        RuleFor(s => s.Placement).Must(_ => false).When(s => s.Placement == Placement.SharedCore && !s.IsOpen && !s.LevelValues.Contains(1))
            .WithMessage(s => $"placement '{Placement.SharedCore}' applies to levels of one client, and this scenario has none (levels {string.Join(", ", s.LevelValues)})")
            .OverridePropertyName("placement");
        RuleFor(s => s).Custom(CheckOnMachineOnly);
        RuleFor(s => s.Repetitions).InclusiveBetween(1, 100)
            .WithMessage(s => $"{s.Repetitions} is out of range; 1..100 repetitions").OverridePropertyName("repetitions");
        RuleFor(s => s.Launches).InclusiveBetween(1, 20).When(s => s.Launches.HasValue)
            .WithMessage(s => $"{s.Launches} is out of range; 1..20 launches").OverridePropertyName("launches");
        AddPrecisionRules();
        RuleFor(s => s.SteadyState!.Windows).InclusiveBetween(2, 100).When(s => s.SteadyState is not null)
            .WithMessage(s => $"{s.SteadyState!.Windows} is out of range; 2..100 windows").OverridePropertyName("steadyState.windows");
        RuleFor(s => s.SteadyState!.MaxCoefficientOfVariation).Must(c => c > 0 && c <= 1).When(s => s.SteadyState is not null)
            .WithMessage(s => $"{s.SteadyState!.MaxCoefficientOfVariation} is out of range; a fraction more than 0 and at most 1 (0.02 = 2 %)").OverridePropertyName("steadyState.maxCov");
        RuleFor(s => s.SteadyState!.Window).Must(w => w >= TimeSpan.FromMilliseconds(100) && w <= TimeSpan.FromMinutes(1)).When(s => s.SteadyState is not null)
            .WithMessage(s => $"{s.SteadyState!.Window} is out of range; 00:00:00.1..00:01:00").OverridePropertyName("steadyState.window");
        RuleFor(s => s.SteadyState!).Must(s => s.MaxWarmup >= s.Window * s.Windows && s.MaxWarmup <= TimeSpan.FromMinutes(10)).When(s => s.SteadyState is not null)
            .WithMessage(s => $"{s.SteadyState!.MaxWarmup} is out of range; at least windows × window ({s.SteadyState!.Window * s.SteadyState!.Windows}) and at most 00:10:00").OverridePropertyName("steadyState.maxWarmup");
    }

    /// <summary>The precision target's fields (docs/statistics.md, "Precision target") and what they need: one launch.</summary>
    private void AddPrecisionRules()
    {
        const string OnlyWithTarget = "is a cap of the precision target only: set precision (e.g. 0.02 for ±2 %) or remove it";
        RuleFor(s => s.Precision).Must(p => p is >= PrecisionTarget.Finest and <= PrecisionTarget.Coarsest).When(s => s.Precision.HasValue)
            .WithMessage(s => string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"{s.Precision} is out of range; a fraction from {PrecisionTarget.Finest} to {PrecisionTarget.Coarsest} (0.02 = the 95 % interval within ±2 % of the mean)"))
            .OverridePropertyName("precision");
        RuleFor(s => s.Precision).Must(p => p is null).When(s => s.Launches is > 1)
            .WithMessage(s => $"a precision target adds repetitions within one launch, but this scenario has {s.Launches} launches, whose interval is over the launches' means: use launches or precision, not both")
            .OverridePropertyName("precision");
        RuleFor(s => s.MaxRepetitions).Must((s, m) => m >= Math.Max(s.Repetitions, Estimate3) && m <= PrecisionTarget.MostRepetitions)
            .When(s => s.MaxRepetitions.HasValue && s.Precision.HasValue)
            .WithMessage(s => $"{s.MaxRepetitions} is out of range; {Math.Max(s.Repetitions, Estimate3)}..{PrecisionTarget.MostRepetitions} (at least the planned repetitions and the 3 an interval needs)")
            .OverridePropertyName("maxRepetitions");
        RuleFor(s => s.MaxRepetitions).Must(m => m is null).When(s => !s.Precision.HasValue).WithMessage(OnlyWithTarget).OverridePropertyName("maxRepetitions");
        RuleFor(s => s.PrecisionTimeLimit).Must(t => t >= TimeSpan.FromSeconds(1) && t <= PrecisionTarget.LongestTimeLimit)
            .When(s => s.PrecisionTimeLimit.HasValue && s.Precision.HasValue)
            .WithMessage(s => $"{s.PrecisionTimeLimit} is out of range; 00:00:01..12:00:00")
            .OverridePropertyName("precisionTimeLimit");
        RuleFor(s => s.PrecisionTimeLimit).Must(t => t is null).When(s => !s.Precision.HasValue).WithMessage(OnlyWithTarget).OverridePropertyName("precisionTimeLimit");
    }

    private const int Estimate3 = 3;

    /// <summary>
    /// The open workload's fields (docs/statistics.md, "Closed and open workloads"): its rates, p99 target and pool bound,
    /// and what an open level cannot be combined with (a request count, load agents, a client in a process of its own).
    /// </summary>
    private void AddWorkloadRules()
    {
        const string OnlyOpen = "is a field of open workloads only (workload \"open\"); this scenario's workload is closed";
        RuleFor(s => s.Workload).Must(w => w is null || Workload.All.Contains(w))
            .WithMessage(s => $"'{ScenarioText.Shown(s.Workload ?? "")}' is not a workload; give \"closed\" (levels are client counts, the default) or \"open\" (levels are arrival rates)")
            .OverridePropertyName("workload");

        RuleFor(s => s.Rates).NotEmpty().When(s => s.IsOpen)
            .WithMessage(s => s.Rates is null ? "an open workload needs its arrival rates, e.g. [500, 1000, 2000] requests/s" : "give at least one arrival rate")
            .OverridePropertyName("rates");
        RuleForEach(s => s.Rates).InclusiveBetween(1, Workload.MaxRate)
            .WithMessage((_, r) => $"{r} is out of range; a rate is 1..{Workload.MaxRate} requests/s")
            .When(s => s.Rates is not null && s.IsOpen)
            .OverridePropertyName("rates");
        RuleFor(s => s.Rates).Must(NotRepeat).When(s => s.IsOpen).WithMessage("a rate is listed twice").OverridePropertyName("rates");
        RuleFor(s => s.Rates).Must(r => r is null).When(s => !s.IsOpen)
            .WithMessage($"{OnlyOpen}: give client counts in levels, or set workload to \"open\"").OverridePropertyName("rates");

        RuleFor(s => s.P99TargetMs).Must(t => t is > 0 and <= 3_600_000).When(s => s.P99TargetMs.HasValue && s.IsOpen)
            .WithMessage(s => $"{s.P99TargetMs} is out of range; a p99 target is more than 0 and at most 3600000 ms")
            .OverridePropertyName("p99TargetMs");
        RuleFor(s => s.P99TargetMs).Must(t => t is null).When(s => !s.IsOpen)
            .WithMessage(OnlyOpen).OverridePropertyName("p99TargetMs");

        RuleFor(s => s.MaxConnections).InclusiveBetween(1, Workload.MaxConnectionsLimit).When(s => s.MaxConnections.HasValue && s.IsOpen)
            .WithMessage(s => $"{s.MaxConnections} is out of range; 1..{Workload.MaxConnectionsLimit} connections")
            .OverridePropertyName("maxConnections");
        RuleFor(s => s.MaxConnections).Must(c => c is null).When(s => !s.IsOpen)
            .WithMessage($"{OnlyOpen} (a closed level's connections are its clients)").OverridePropertyName("maxConnections");

        RuleFor(s => s.RequestsPerClient).Must(r => r is null).When(s => s.IsOpen)
            .WithMessage("open levels are timed (their requests follow a schedule, not a count per client): give duration instead of requestsPerClient")
            .OverridePropertyName("requestsPerClient");
        RuleFor(s => s.Agents).Must(a => a is null).When(s => s.IsOpen)
            .WithMessage("load agents run closed levels only: the open schedule is kept by the runner's own process; leave agents out")
            .OverridePropertyName("agents");
        RuleFor(s => s).Custom(CheckOpenClients);
    }

    private static void CheckOpenClients(ScenarioDocument scenario, ValidationContext<ScenarioDocument> context)
    {
        if (!scenario.IsOpen || scenario.Clients is null)
        {
            return;
        }

        for (var i = 0; i < scenario.Clients.Count; i++)
        {
            if (scenario.Clients[i] is { } id && ClientTechnology.All.Any(t => t.Id == id) && !Workload.OpenCapableClients.Contains(id))
            {
                context.AddFailure($"clients[{i}]",
                    $"the {id} client runs closed loops in a driver process of its own (docs/driver-protocol.md has no arrival schedule), so it cannot run open levels; use an in-process client ({string.Join(", ", Workload.OpenCapableClients.Where(c => ClientTechnology.All.Any(t => t.Id == c)))}) or workload \"closed\"");
            }
        }
    }

    private static bool BeAnHttpAddress(string? host) =>
        Uri.TryCreate(host, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps);

    private static bool BeAProfileName(string? name) =>
        name is { Length: > 0 and <= 100 } && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.');

    private static bool NotRepeat<T>(IReadOnlyList<T>? items) => items is null || items.Distinct().Count() == items.Count;

    private static void CheckOnMachineOnly(ScenarioDocument scenario, ValidationContext<ScenarioDocument> context)
    {
        if (scenario.Variants is null || !Topology.IsCrossMachine(scenario.Topology))
        {
            return;
        }

        for (var i = 0; i < scenario.Variants.Count; i++)
        {
            if (scenario.Variants[i] is { } name && VariantCatalogue.TryGet(name, out var variant) && variant.IsLocalIpc)
            {
                context.AddFailure($"variants[{i}]",
                    $"'{name}' is a Unix-socket variant: on-machine only (as the thesis's named pipes were), and topology '{scenario.Topology}' is cross-machine; run it with topology '{Topology.SameMachine}'");
            }
        }
    }

    private static void CheckCombinations(ScenarioDocument scenario, ValidationContext<ScenarioDocument> context)
    {
        // A mixed scenario runs every variant with every chosen client that can call it (ScenarioCells); it is refused
        // only when no pair works. Unknown ids are reported at their own fields.
        var cells = ScenarioCells.Of(scenario.Variants, scenario.Clients);
        if (cells.Runnable.Count == 0 && cells.Skipped.Count > 0)
        {
            var pairs = cells.Skipped.GroupBy(p => p.Client)
                .Select(g => $"the {g.Key} client cannot call {string.Join(", ", g.Select(p => p.Variant))} ({g.First().Reason})");
            context.AddFailure("clients", $"no chosen client can call any chosen variant: {string.Join("; ", pairs)}");
        }
    }
}
