using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Processes;

/// <summary>Dashboard:StopAtStdinEof (src/Web/Processes/ParentWatchService.cs) on the real dashboard executable.</summary>
public sealed class ParentWatchServiceTests
{
    [Fact]
    public async Task StopAtStdinEof_StandardInputEnds_DashboardStopsAndSaysWhy()
    {
        var app = await WebApp.StartAsync();
        try
        {
            var exited = await app.CloseStandardInputAsync(TimeSpan.FromSeconds(60));

            Assert.True(exited, "the dashboard still runs 60 s after its standard input ended\n" + app.Log);
            Assert.Contains("Standard input ended: the process that started the dashboard is gone; stopping", app.Log, StringComparison.Ordinal);
        }
        finally
        {
            var root = app.Root;
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }
}
