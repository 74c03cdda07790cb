using System.Globalization;
using System.Net;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Web.Hosts;
using Dashboard.Web.Runs;
using Dashboard.Web.Scenarios;
using Microsoft.AspNetCore.Components;
using Radzen;

namespace Dashboard.Web.Components.Shared;

/// <summary>
/// The presets of DESIGN.md §9 with "Queue" buttons: one click queues a preset file through the same queue service
/// the API uses and opens its run page (several parts: the compare page of their runs). A preset the scenario
/// validator refuses (e.g. secure variants until issue #12 lands) shows the reason and a disabled button.
/// </summary>
public sealed partial class PresetList
{
    private bool _busy;

    [Inject] public required ScenarioPresets Presets { get; init; }

    [Inject] public required QueueService Queue { get; init; }

    [Inject] public required HostRegistry Hosts { get; init; }

    [Inject] public required NavigationManager Navigation { get; init; }

    [Inject] public required NotificationService Notifications { get; init; }

    private IReadOnlyList<PresetGroup> Groups { get; set; } = [];

    /// <inheritdoc />
    protected override void OnInitialized() => Groups = Presets.Groups();

    private async Task QueueAsync(IReadOnlyList<ScenarioPreset> parts, PresetGroup group)
    {
        _busy = true;
        try
        {
            var ids = new List<int>();
            foreach (var part in parts)
            {
                var run = await Queue.EnqueueAsync(OnLocalHost(part.Scenario!), null, CancellationToken.None);
                ids.Add(run.Id);
            }

            // One-client presets are read at every level; the thesis sweeps from 20 clients on (the run page's default).
            var view = group.RankingFromClients < RunViewFromClients ? "?levels=all" : "";
            Navigation.NavigateTo(ids.Count == 1 ? $"runs/{ids[0]}{view}" : $"compare?runs={string.Join(',', ids)}{view.Replace('?', '&')}");
        }
        catch (ScenarioException e)
        {
            Notifications.Notify(NotificationSeverity.Error, "Preset refused", e.Message, 8000);
        }
        finally
        {
            _busy = false;
        }
    }

    private static int RunViewFromClients => Charts.RunView.ThesisFromClients;

    /// <summary>
    /// The preset as queued: a preset aimed at this machine (a loopback host) runs against the dashboard's local
    /// service host, wherever that is configured; a remote host is kept.
    /// </summary>
    private ScenarioDocument OnLocalHost(ScenarioDocument scenario) =>
        Uri.TryCreate(scenario.Host, UriKind.Absolute, out var host) && (host.IsLoopback || IPAddress.TryParse(host.Host, out var ip) && IPAddress.IsLoopback(ip))
            ? scenario with { Host = Hosts.LocalAddress.GetLeftPart(UriPartial.Authority) }
            : scenario;

    private static string Minutes(TimeSpan duration) =>
        duration <= TimeSpan.Zero ? "? min"
        : duration < TimeSpan.FromHours(2) ? string.Create(CultureInfo.InvariantCulture, $"{Math.Ceiling(duration.TotalMinutes):0} min")
        : string.Create(CultureInfo.InvariantCulture, $"{duration.TotalHours:0.#} h");
}
