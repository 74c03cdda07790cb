using Dashboard.Service.Contracts.Variants;
using Dashboard.Web.Hosts;
using Microsoft.AspNetCore.Components;

namespace Dashboard.Web.Components.Pages;

/// <summary>The known service hosts, their health, what each says at <c>GET /endpoints</c>; add a remote host.</summary>
public sealed partial class Hosts : IDisposable
{
    [Inject] public required HostRegistry Registry { get; init; }

    [Inject] public required HostClient Client { get; init; }

    [SupplyParameterFromQuery(Name = "address")] public string? Address { get; set; }

    private HostRegistry HostsList => Registry;

    private string NewAddress { get; set; } = "";

    private string? AddProblem { get; set; }

    private Uri? Selected { get; set; }

    private IReadOnlyList<HostEndpoint>? Endpoints { get; set; }

    private string? EndpointProblem { get; set; }

    /// <inheritdoc />
    protected override async Task OnInitializedAsync()
    {
        Registry.Changed += OnChanged;
        var first = Address is not null && Uri.TryCreate(Address, UriKind.Absolute, out var uri) ? uri : Registry.LocalAddress;
        await ShowEndpointsAsync(Registry.Find(first)?.Address ?? Registry.LocalAddress);
    }

    private void Add()
    {
        if (Registry.TryAdd(NewAddress, out var problem))
        {
            NewAddress = "";
            AddProblem = null;
        }
        else
        {
            AddProblem = problem;
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
