using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Variants;
using Dashboard.Web.Hosts;
using Dashboard.Web.Runs;
using Dashboard.Web.Scenarios;
using Microsoft.AspNetCore.Components;
using Radzen;

namespace Dashboard.Web.Components.Pages;

/// <summary>
/// The scenario editor: variants by stack and group (unavailable ones disabled with their reason), clients with the
/// impossible client × variant pairs shown, payloads, levels, workload bound, warm-up and repetitions; validated by
/// the scenario loader on every change, each error shown at its field; queue now or at a time.
/// </summary>
public sealed partial class NewRun
{
    private readonly HashSet<string> _touched = new(StringComparer.Ordinal);

    [Inject] public required QueueService Queue { get; init; }

    [Inject] public required ScenarioPresets PresetSource { get; init; }

    [Inject] public required HostRegistry Hosts { get; init; }

    [Inject] public required NotificationService Notifications { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

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

    private DateTime? RunAt { get; set; }

    private string Json => ScenarioLoader.ToJson(Draft.ToDocument());

    private IEnumerable<EndpointVariant> ChosenVariants => VariantCatalogue.All.Where(v => Draft.Variants.Contains(v.Name));

    private IEnumerable<ClientTechnology> ChosenClients => ClientTechnology.All.Where(c => Draft.Clients.Contains(c.Id));

    private string Summary
    {
        get
        {
            var (levels, _) = Draft.ParseLevels();
            var cells = ChosenVariants.Sum(v => ChosenClients.Count(c => c.Supports(v))) * Draft.Payloads.Count;
            return $"{cells} cell(s) × {levels.Count} level(s) × {Draft.Repetitions} repetition(s) = {cells * levels.Count * Draft.Repetitions} level runs";
        }
    }

    /// <inheritdoc />
    protected override void OnInitialized()
    {
        Presets = PresetSource.Load();
        Draft.Host = Hosts.LocalAddress.GetLeftPart(UriPartial.Authority);
        Validate();
    }

    private List<string> ErrorsFor(string field) =>
        (Submitted || _touched.Contains(field)) && Errors.TryGetValue(field, out var list) ? list : [];

    private void Touch(string field)
    {
        _touched.Add(field);
        Validate();
    }

    private void Validate() => Errors = Draft.Validate();

    private void Toggle(List<string> list, string id, ChangeEventArgs e, string field)
    {
        if (e.Value is true)
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

    private void SetBound(WorkloadBound bound)
    {
        Draft.Bound = bound;
        Touch(bound == WorkloadBound.Requests ? "requestsPerClient" : "duration");
    }

    private void LoadPreset(ChangeEventArgs e)
    {
        PresetProblem = null;
        var preset = Presets.FirstOrDefault(p => p.FileName == e.Value as string);
        if (preset is null)
        {
            return;
        }

        ScenarioDocument? document = preset.Scenario;
        if (document is null)
        {
            try
            {
                // Load what the file says, even when the loader refuses it, so the problems show at their fields.
                document = System.Text.Json.JsonSerializer.Deserialize<ScenarioDocument>(preset.Json, ScenarioLoader.JsonOptions);
            }
            catch (System.Text.Json.JsonException)
            {
                document = null;
            }

            PresetProblem = $"{preset.FileName}: {preset.Problem}";
        }

        if (document is not null)
        {
            Draft = ScenarioDraft.From(document);
            Submitted = true;
            Validate();
        }
    }

    private async Task QueueAsync(DateTime? at)
    {
        Submitted = true;
        Validate();
        if (Errors.Count > 0)
        {
            Notifications.Notify(NotificationSeverity.Error, "Scenario refused", Errors.First().Value[0], 6000);
            return;
        }

        try
        {
            var run = await Queue.EnqueueAsync(Draft.ToDocument(), at is { } local ? DateTime.SpecifyKind(local, DateTimeKind.Utc) : null, CancellationToken.None);
            Navigation.NavigateTo($"runs/{run.Id}");
        }
        catch (ScenarioException e)
        {
            Notifications.Notify(NotificationSeverity.Error, "Scenario refused", e.Message, 6000);
        }
    }

    private static string StackTitle(string stack) => stack switch
    {
        VariantCatalogue.AspNet => "ASP.NET Core (Kestrel)",
        VariantCatalogue.Metro => "JAX-WS RI Metro (+ WSS4J)",
        VariantCatalogue.Ice => "ZeroC Ice 3.7",
        VariantCatalogue.CoreWcf => "CoreWCF",
        _ => stack,
    };
}
