using System.Globalization;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Data.Agents;
using Dashboard.Web.Agents;
using Dashboard.Web.Components.Time;
using Dashboard.Web.Hosts;
using Dashboard.Web.Runs;
using Dashboard.Web.Scenarios;
using Dashboard.Web.Storage;
using Microsoft.AspNetCore.Components;
using MudBlazor;

namespace Dashboard.Web.Components.Pages;

/// <summary>
/// The scenario editor: variants by stack and group (unavailable ones disabled with their reason), clients with the
/// pairs that run and the ones skipped (<see cref="ScenarioCells"/>), payloads, levels, workload bound, warm-up and
/// repetitions; the load agents (PostgreSQL mode: this machine or agents picked from those online; SQLite mode: one line
/// saying why there are none); validated on every change, each error shown at its field in the page's terms; a duration
/// estimate, a warning when the chosen host is down; queue now or at a time in the browser's zone (stored in UTC).
/// </summary>
public sealed partial class NewRun : IDisposable
{
    private readonly HashSet<string> _touched = new(StringComparer.Ordinal);
    private string? _presetFile;
    private bool _busy;
    private bool _pickAgents;
    private DurationEstimator _estimator = DurationEstimator.Default;

    [Inject] public required QueueService Queue { get; init; }

    [Inject] public required ScenarioPresets PresetSource { get; init; }

    [Inject] public required HostRegistry Hosts { get; init; }

    [Inject] public required RunSummaries Summaries { get; init; }

    [Inject] public required BrowserClock Clock { get; init; }

    [Inject] public required ISnackbar Snackbar { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    [Inject] public required AgentDirectory AgentSource { get; init; }

    // The clients that can run open levels, from the validator's own list (the text said "dotnet and wcf" after lean could too).
    private static string RatesHelp { get; } =
        $"whole numbers of requests per second, separated by commas or spaces; {string.Join(", ", ClientTechnology.All.Where(c => Workload.OpenCapableClients.Contains(c.Id)).Select(c => c.Id))} clients only";

    private static string ScenarioDocumentSweep { get; } = string.Join(", ", ScenarioDocument.ThesisSweep);

    private static IReadOnlyList<(string Label, Func<EndpointVariant, bool> Predicate)> VariantGroups { get; } =
    [
        ("unsecure", v => !v.IsSecure),
        ("secure", v => v.IsSecure),
        ("local IPC", v => v.IsLocalIpc),
        ("network", v => !v.IsLocalIpc),
        ("binary", v => v.IsBinary),
        ("text", v => !v.IsBinary),
    ];

    private ScenarioDraft Draft { get; set; } = new() { Name = "new scenario" };

    private IReadOnlyList<ScenarioPreset> Presets { get; set; } = [];

    private string? PresetProblem { get; set; }

    private IReadOnlyDictionary<string, List<string>> Errors { get; set; } = new Dictionary<string, List<string>>();

    private bool Submitted { get; set; }

    private DateTime? RunDate { get; set; }

    private TimeSpan? RunTime { get; set; }

    private string? ScheduleProblem { get; set; }

    /// <summary>Every registered agent (PostgreSQL mode), as last read.</summary>
    private IReadOnlyList<AgentInfo> RegisteredAgents { get; set; } = [];

    /// <summary>Why the agents could not be read, or null.</summary>
    private string? AgentsProblem { get; set; }

    /// <summary>What picking agents changed in the form (workload switched to a duration, steady state off).</summary>
    private IReadOnlyList<string> AgentNotes { get; set; } = [];

    /// <summary>"These load agents" is chosen (possibly with none ticked yet), or the draft names agents.</summary>
    private bool PickingAgents => _pickAgents || Draft.Agents is not null;

    /// <summary>The agents offered: every online agent, then those the draft names that are not online, by name.</summary>
    private IReadOnlyList<(string Name, AgentInfo? Info)> AgentRows
    {
        get
        {
            var online = RegisteredAgents.Where(a => a.State == AgentState.Online).Select(a => (a.Name, (AgentInfo?)a));
            var named = (Draft.Agents?.Names ?? []).Where(n => !RegisteredAgents.Any(a => a.Name == n && a.State == AgentState.Online))
                .Select(n => (n, RegisteredAgents.FirstOrDefault(a => a.Name == n)));
            return [.. online.Concat(named).OrderBy(r => r.Item1, StringComparer.Ordinal)];
        }
    }

    /// <summary>Registered agents neither online nor named by the draft.</summary>
    private int NotOnline => RegisteredAgents.Count(a => a.State != AgentState.Online && Draft.Agents?.Names?.Contains(a.Name) != true);

    /// <summary>Why the runner would refuse the agents now (not online, a client technology missing), one sentence each.</summary>
    private IReadOnlyList<string> AgentWarnings => AgentsProblem is null ? AgentReadiness.Warnings(Draft.Agents, Draft.Clients, RegisteredAgents) : [];

    private string Json => ScenarioLoader.ToJson(Draft.ToDocument());

    private IEnumerable<EndpointVariant> ChosenVariants => VariantCatalogue.All.Where(v => Draft.Variants.Contains(v.Name));

    private IEnumerable<ClientTechnology> ChosenClients => ClientTechnology.All.Where(c => Draft.Clients.Contains(c.Id));

    private ScenarioCells Cells => ScenarioCells.Of(Draft.Variants, Draft.Clients);

    private DurationFigure Estimate => _estimator.Estimate(Draft.ToDocument());

    private string Summary
    {
        get
        {
            // The list the workload uses: an open draft's levels are its rates (its client counts stay, unread, for a switch back).
            var levels = Draft.Open ? Draft.ParseRates().Rates.Count : Draft.ParseLevels().Levels.Count;
            var unit = Draft.Open ? (levels == 1 ? "rate" : "rates") : levels == 1 ? "level" : "levels";
            var cells = Cells.Runnable.Count * Draft.Payloads.Count;
            var runs = cells * levels * Math.Max(0, Draft.Repetitions) * Math.Max(0, Draft.Launches);
            var launches = Draft.Launches == 1 ? "" : string.Create(CultureInfo.InvariantCulture, $" × {Draft.Launches} launches");
            return string.Create(CultureInfo.InvariantCulture,
                $"{cells} {(cells == 1 ? "cell" : "cells")} (variant × client × payload) × {levels} {unit} × {Draft.Repetitions} {(Draft.Repetitions == 1 ? "repetition" : "repetitions")}{launches} = {runs} level runs");
        }
    }

    /// <summary>A warning when the chosen host is known to be down (or not known at all), else null.</summary>
    private string? HostWarning
    {
        get
        {
            if (!Uri.TryCreate(Draft.Host?.Trim(), UriKind.Absolute, out var address))
            {
                return null;
            }

            var host = Hosts.Find(address);
            return host switch
            {
                null => $"{address.Authority} is not a known host: it is checked only when the run starts. Add it under Hosts to see its health here.",
                { Health: HostHealth.Down } => $"The host {address.Authority} is down" +
                    (host.CheckedUtc is { } at ? $" (last check {Clock.TimeText(at)}" + (host.Detail is { } d ? $": {d})" : ")") : "") +
                    ". A run queued now fails unless it comes back first.",
                _ => null,
            };
        }
    }

    private string? ScheduleText =>
        RunDate is { } date && RunTime is { } time
            ? string.Create(CultureInfo.InvariantCulture, $"{date.Date.Add(time):yyyy-MM-dd HH:mm} in your time")
            : null;

    /// <inheritdoc />
    protected override async Task OnInitializedAsync()
    {
        Presets = PresetSource.Load();
        Draft.Host = Hosts.LocalAddress.GetLeftPart(UriPartial.Authority);
        Hosts.Changed += OnHostsChanged;
        Validate();
        if (AgentSource.Enabled)
        {
            await LoadAgentsAsync();
        }

        await Clock.LoadAsync();
        _estimator = new DurationEstimator(await Summaries.ThroughputsAsync(CancellationToken.None));
    }

    private List<string> ErrorsFor(string field) =>
        (Submitted || _touched.Contains(field)) && Errors.TryGetValue(field, out var list) ? list : [];

    private bool Has(string field) => ErrorsFor(field).Count > 0;

    private void Set(Action assign, string field)
    {
        assign();
        Touch(field);
    }

    private void Touch(string field)
    {
        _touched.Add(field);
        Validate();
    }

    private void Validate()
    {
        var errors = Draft.Validate();
        // The runner refuses agents in SQLite mode whatever happens before the run starts: refuse them here too.
        if (AgentReadiness.StorageProblem(Draft.Agents, AgentSource.Enabled) is { } storage)
        {
            var all = errors.ToDictionary(kv => kv.Key, kv => kv.Value, StringComparer.Ordinal);
            all.TryAdd("agents", []);
            all["agents"].Add($"{ScenarioDraft.FieldLabel("agents")}: {storage}");
            errors = all;
        }

        Errors = errors;
    }

    private async Task LoadAgentsAsync()
    {
        try
        {
            RegisteredAgents = await AgentSource.ListAsync(CancellationToken.None);
            AgentsProblem = null;
        }
        catch (Npgsql.NpgsqlException e)
        {
            AgentsProblem = e.Message;
        }
    }

    private bool IsPicked(string name) => Draft.Agents?.Names?.Contains(name) == true;

    // What switching to the open workload changed to fit it (bound, steady state), shown under the choice.
    private IReadOnlyList<string> WorkloadNotes { get; set; } = [];

    private void SetOpen(bool open)
    {
        WorkloadNotes = Draft.SetOpen(open);
        Touch(open ? "rates" : "levels");
        Touch("clients");
    }

    private void SetUseAgents(bool use)
    {
        _pickAgents = use;
        if (!use)
        {
            Draft.SetAgents(null);
            AgentNotes = [];
        }

        Touch("agents");
    }

    private void ToggleAgent(string name, bool on)
    {
        var names = (Draft.Agents?.Names ?? []).Where(n => n != name).ToList();
        if (on)
        {
            names.Add(name);
        }

        _pickAgents = true;
        AgentNotes = [.. AgentNotes.Concat(Draft.SetAgents(names)).Distinct(StringComparer.Ordinal)];
        Touch("agents");
    }

    /// <summary>The addresses of the hosts a run may target (the local host and the registered ones), for the chips under the host field.</summary>
    private IEnumerable<string> HostChoices => Hosts.All.Select(h => h.Address.GetLeftPart(UriPartial.Authority)).Distinct(StringComparer.Ordinal);

    private void Toggle(List<string> list, string id, bool on, string field)
    {
        if (on)
        {
            if (!list.Contains(id))
            {
                list.Add(id);
            }
        }
        else
        {
            list.Remove(id);
        }

        Touch(field);
    }

    private void SelectVariants(Func<EndpointVariant, bool> predicate)
    {
        Draft.Variants.Clear();
        Draft.Variants.AddRange(VariantCatalogue.All.Where(v => v.IsAvailable && predicate(v)).Select(v => v.Name));
        Touch("variants");
    }

    private void SelectPayloads(DatasetClass dataset)
    {
        foreach (var p in PayloadCatalogue.All.Where(p => p.Dataset == dataset && !Draft.Payloads.Contains(p.Id)))
        {
            Draft.Payloads.Add(p.Id);
        }

        Touch("payloads");
    }

    private void SetLevels(string levels)
    {
        Draft.LevelsText = levels;
        Touch("levels");
    }

    // The emulated link's rates offered: the thesis's 100 Mbit/s LAN and 1 Gbit/s, and a preset's own rate when it has another.
    private IEnumerable<int> LinkRates => new[] { Topology.DefaultLinkRateMbps, 1000 }
        .Concat(Draft.LinkRateMbps is { } rate ? [rate] : []).Distinct().Order();

    private static string RateLabel(int mbps) => Topology.FormatRate(mbps) + (mbps == Topology.DefaultLinkRateMbps ? " (the thesis's LAN)" : "");

    private void SetTopology(string topology)
    {
        Draft.Topology = topology;
        // The link rate and host cores belong to emulated-lan only (the validator rejects them elsewhere).
        Draft.LinkRateMbps = topology == Topology.EmulatedLan ? Draft.LinkRateMbps ?? Topology.DefaultLinkRateMbps : null;
        Draft.HostCores = topology == Topology.EmulatedLan ? Draft.HostCores : null;
        Touch("topology");
    }

    private void SetSteadyState(bool on)
    {
        Draft.SteadyState = on ? Draft.SteadyState ?? SteadyStateSettings.Defaults : null;
        Touch("steadyState");
    }

    private void SetBound(WorkloadBound bound)
    {
        Draft.Bound = bound;
        Touch(bound == WorkloadBound.Requests ? "requestsPerClient" : "duration");
    }

    private void LoadPreset(string? fileName)
    {
        _presetFile = fileName;
        PresetProblem = null;
        var preset = Presets.FirstOrDefault(p => p.FileName == fileName);
        if (preset is null)
        {
            return;
        }

        // Load what the file says, even when the loader refuses it, so the problems show at their fields.
        var document = preset.Scenario ?? preset.Document;
        if (preset.Problem is not null)
        {
            PresetProblem = $"{preset.FileName}: {preset.Problem}";
        }

        if (document is not null)
        {
            // A preset aimed at this machine runs on the dashboard's local host, as Home queues it.
            if (Uri.TryCreate(document.Host, UriKind.Absolute, out var host) && host.IsLoopback)
            {
                document = document with { Host = Hosts.LocalAddress.GetLeftPart(UriPartial.Authority) };
            }

            Draft = ScenarioDraft.From(document);
            _pickAgents = false;
            AgentNotes = [];
            WorkloadNotes = [];
            Submitted = true;
            Validate();
        }
    }

    private async Task ScheduleAsync()
    {
        ScheduleProblem = null;
        if (RunDate is not { } date || RunTime is not { } time)
        {
            ScheduleProblem = "Choose a date and a time.";
            return;
        }

        var utc = await Clock.ToUtcAsync(date.Date.Add(time));
        if (utc <= DateTime.UtcNow)
        {
            ScheduleProblem = $"{date.Date.Add(time):yyyy-MM-dd HH:mm} ({Clock.ZoneText}) has passed; choose a later time or queue now.";
            return;
        }

        await QueueAsync(utc);
    }

    private async Task QueueAsync(DateTime? atUtc)
    {
        Submitted = true;
        Validate();
        if (Errors.Count > 0)
        {
            Snackbar.Add($"The scenario is refused: {Errors.First().Value[0]}", Severity.Error);
            return;
        }

        _busy = true;
        try
        {
            var run = await Queue.EnqueueAsync(ScenarioLoader.Valid(Draft.ToDocument()), atUtc, CancellationToken.None);
            Navigation.NavigateTo($"runs/{run.Id}");
        }
        catch (ScenarioException e)
        {
            Snackbar.Add($"The scenario is refused: {ScenarioDraft.FieldLabel(e.Field)}: {e.Message[(e.Message.IndexOf(": ", StringComparison.Ordinal) + 2)..]}", Severity.Error);
        }
        finally
        {
            _busy = false;
        }
    }

    private void OnHostsChanged() => _ = InvokeAsync(StateHasChanged);

    /// <inheritdoc />
    public void Dispose() => Hosts.Changed -= OnHostsChanged;

    private static string StackTitle(string stack) => stack switch
    {
        VariantCatalogue.AspNet => "ASP.NET Core (Kestrel)",
        VariantCatalogue.Metro => "JAX-WS RI Metro (+ WSS4J)",
        VariantCatalogue.Ice => "ZeroC Ice 3.7",
        VariantCatalogue.CoreWcf => "CoreWCF",
        _ => stack,
    };
}
