using Dashboard.Data.Agents;
using Dashboard.Web.Agents;
using Dashboard.Web.Options;
using Microsoft.AspNetCore.Components;
using Microsoft.Extensions.Options;
using MudBlazor;

namespace Dashboard.Web.Components.Pages;

/// <summary>The load agents (docs/agents.md) with their state, cores, technologies, clock offset and last heartbeat; reloaded every <see cref="AgentsOptions.PageRefresh"/>.</summary>
public sealed partial class Agents : IDisposable
{
    private readonly CancellationTokenSource _stop = new();

    [Inject] public required AgentDirectory Directory { get; init; }

    [Inject] public required LocalAgent Local { get; init; }

    [Inject] public required IOptions<AgentsOptions> Options { get; init; }

    private IReadOnlyList<AgentInfo>? List { get; set; }

    private string? Problem { get; set; }

    /// <inheritdoc />
    protected override async Task OnInitializedAsync()
    {
        if (!Directory.Enabled)
        {
            return;
        }

        await LoadAsync();
        _ = RefreshAsync();
    }

    private async Task RefreshAsync()
    {
        using var timer = new PeriodicTimer(Options.Value.PageRefresh);
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token))
            {
                await LoadAsync();
                await InvokeAsync(StateHasChanged);
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private async Task LoadAsync()
    {
        try
        {
            List = await Directory.ListAsync(_stop.Token);
            Problem = null;
        }
        catch (Npgsql.NpgsqlException e)
        {
            Problem = e.Message;
        }
    }

    internal static Color ColorOf(AgentState state) => state switch
    {
        AgentState.Online => Color.Success,
        AgentState.Stale => Color.Warning,
        _ => Color.Default,
    };

    /// <inheritdoc />
    public void Dispose()
    {
        _stop.Cancel();
        _stop.Dispose();
    }
}
