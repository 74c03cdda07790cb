using Microsoft.AspNetCore.Components;
using Microsoft.JSInterop;

namespace Dashboard.Web.Charts;

/// <summary>The typed C# side of <c>wwwroot/js/charts.js</c> (the one JS module of the dashboard).</summary>
public sealed class ChartInterop(IJSRuntime js) : IAsyncDisposable
{
    private Task<IJSObjectReference>? _module;

    /// <summary>Draws (or redraws) <paramref name="spec"/> into <paramref name="element"/>.</summary>
    public async Task RenderAsync(ElementReference element, ChartSpec spec)
    {
        var module = await Module();
        await module.InvokeVoidAsync("render", element, spec);
    }

    /// <summary>
    /// Downloads the chart as an image in the paper style (white background, fonts of 14 px and more):
    /// <paramref name="format"/> <c>png</c> or <c>svg</c>, <paramref name="width"/> × <paramref name="height"/> px,
    /// through plotly's <c>toImage</c>.
    /// </summary>
    public async Task DownloadAsync(ElementReference element, string format, string fileName, int width, int height)
    {
        var module = await Module();
        await module.InvokeVoidAsync("download", element, format, fileName, width, height);
    }

    /// <summary>Frees plotly's resources of <paramref name="element"/>.</summary>
    public async Task PurgeAsync(ElementReference element)
    {
        if (_module is null)
        {
            return;
        }

        try
        {
            var module = await Module();
            await module.InvokeVoidAsync("purge", element);
        }
        catch (JSDisconnectedException)
        {
            // The circuit is gone; so is the element.
        }
        catch (TaskCanceledException)
        {
            // The page is closing: the circuit cancels its pending calls.
        }
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (_module is not null)
        {
            try
            {
                await (await _module).DisposeAsync();
            }
            catch (JSDisconnectedException)
            {
                // The circuit is gone.
            }
        }
    }

    private Task<IJSObjectReference> Module() =>
        _module ??= js.InvokeAsync<IJSObjectReference>("import", "./js/charts.js").AsTask();
}
