using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Host;

/// <summary>
/// What the built service host writes on its console, started as the dashboard starts its local host (in its own folder,
/// whose appsettings.json names a control address and log levels): each lifetime event once (issue #36: the log repeated
/// "Application is shutting down..." 12 times and Kestrel's "Overriding address(es)" 10 times, once per variant server).
/// </summary>
public sealed class ServiceHostConsoleTests
{
    [Fact]
    public async Task Console_StartedInItsFolderThenStopped_EachLifetimeLineOnceNoOverridingWarning()
    {
        var host = await ServiceHostProcess.StartInItsFolderAsync();
        var endpoints = await host.GetEndpointsAsync();

        await host.DisposeAsync(); // SIGTERM: a clean stop

        var output = host.Output;
        var text = string.Join('\n', output);
        Assert.True(endpoints.Length > 10, $"{endpoints.Length} variants served; the host started with fewer than its aspnet and wcfbindings servers");
        Assert.Equal(1, Count(output, "Now listening on: "));
        Assert.Equal(1, Count(output, "Application started."));
        Assert.Equal(1, Count(output, "Application is shutting down..."));
        Assert.DoesNotContain("Overriding address(es)", text, StringComparison.Ordinal);
        // Each variant's server is said once, by the host, in its words.
        Assert.All(endpoints, e => Assert.Equal(1, Count(output, $"Variant {e.Name} listens on ")));
    }

    private static int Count(IReadOnlyList<string> lines, string text) => lines.Count(l => l.Contains(text, StringComparison.Ordinal));
}
