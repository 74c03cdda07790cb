using Dashboard.Service.Contracts.Variants;
using Dashboard.Web.Components.Time;
using Dashboard.Web.Hosts;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Web;
using MudBlazor;

namespace Dashboard.Web.Components.Pages;

/// <summary>The known service hosts, their health and time of last check, what each lists at <c>GET /endpoints</c>; add a remote host with its control token, or remove one.</summary>
public sealed partial class Hosts : IDisposable
{
    [Inject] public required HostRegistry Registry { get; init; }

    [Inject] public required HostClient Client { get; init; }

    [Inject] public required BrowserClock Clock { get; init; }

    [Inject] public required IDialogService Dialogs { get; init; }

    [Inject] public required ISnackbar Snackbar { get; init; }

    /// <summary>The host whose endpoints are shown first (<c>?address=</c>); default the local one.</summary>
    [SupplyParameterFromQuery(Name = "address")] public string? Address { get; set; }

    private string NewAddress { get; set; } = "";

    // The control token of the host being added: sent to that host only, never shown again (docs/security.md).
    private string NewToken { get; set; } = "";

    private string? AddProblem { get; set; }

    private Uri? Selected { get; set; }

    private IReadOnlyList<HostEndpoint>? Endpoints { get; set; }

    private string? EndpointProblem { get; set; }

    /// <inheritdoc />
    protected override async Task OnInitializedAsync()
    {
        Registry.Changed += OnChanged;
        await Clock.LoadAsync();
        var first = Address is not null && Uri.TryCreate(Address, UriKind.Absolute, out var uri) ? uri : Registry.LocalAddress;
        await ShowEndpointsAsync(Registry.Find(first)?.Address ?? Registry.LocalAddress);
    }

    private void Add()
    {
        if (Registry.TryAdd(NewAddress, NewToken, out var problem))
        {
            NewAddress = "";
            NewToken = "";
            AddProblem = null;
        }
        else
        {
            AddProblem = problem;
        }
    }

    private void OnAddressKeyUp(KeyboardEventArgs e)
    {
        if (e.Key == "Enter")
        {
            Add();
        }
    }

    private async Task RemoveAsync(Uri address)
    {
        var confirmed = await Dialogs.ShowMessageBoxAsync("Remove host",
            $"Forget {address.Authority}? Its stored runs stay; scenarios that name it will not run until it is added again.",
            yesText: "Remove", cancelText: "Keep");
        if (confirmed != true)
        {
            return;
        }

        if (Registry.TryRemove(address, out var problem))
        {
            if (Selected == address)
            {
                Selected = null;
            }

            Snackbar.Add($"Removed {address.Authority}", Severity.Info);
        }
        else
        {
            Snackbar.Add(problem!, Severity.Error);
        }
    }

    private async Task ShowEndpointsAsync(Uri address)
    {
        Selected = address;
        Endpoints = null;
        EndpointProblem = null;
        try
        {
            Endpoints = await Client.GetEndpointsAsync(address, CancellationToken.None);
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException or System.Text.Json.JsonException)
        {
            EndpointProblem = e.Message;
        }
    }

    private void OnChanged() => _ = InvokeAsync(StateHasChanged);

    /// <inheritdoc />
    public void Dispose() => Registry.Changed -= OnChanged;
}
