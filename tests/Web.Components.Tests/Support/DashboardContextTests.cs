using Hangfire;
using Hangfire.Logging;
using Microsoft.Extensions.DependencyInjection;

namespace Dashboard.Web.Components.Tests.Support;

/// <summary>
/// The test context itself: several contexts live and die in one test process, in parallel, while Hangfire keeps its
/// log provider in a process-wide static (Hangfire.AspNetCore points it at the logger factory of whichever service
/// provider configured Hangfire last).
/// </summary>
public sealed class DashboardContextTests
{
    [Fact]
    public async Task Disposed_AnotherContextStillCreatesHangfireFilters()
    {
        // A context that configured Hangfire (resolving the job client does) and was then disposed.
        var gone = new DashboardContext();
        Assert.NotNull(gone.Services.GetRequiredService<IBackgroundJobClient>());
        await gone.DisposeAndDeleteAsync();

        // What BackgroundJobFactory does when another test queues its first run: creates BenchmarkJob's filter attributes,
        // whose constructors ask Hangfire's current log provider for a logger. On the CI of 2026-11-28 that logger factory
        // was a disposed context's, and the queueing test failed (ObjectDisposedException inside the attribute's constructor).
        var logger = LogProvider.GetLogger("Dashboard.Web.Components.Tests");
        Assert.NotNull(logger);
        Assert.Equal(0, new AutomaticRetryAttribute { Attempts = 0 }.Attempts);
    }
}
