using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Runner.Tests.Load;

public sealed class SocketCompletionsTests
{
    [Theory]
    [InlineData("\"clients\": [\"lean\"]", true)]
    [InlineData("\"clients\": [\"lean\", \"dotnet\"]", false)]
    [InlineData("\"clients\": [\"dotnet\"]", false)]
    [InlineData("\"clients\": [\"lean\"], \"agents\": 2", false)]
    public void InlineFor_ScenarioClients_InlineOnlyWhenEveryClientIsLeanAndRunsHere(string clients, bool expected)
    {
        var scenario = ScenarioLoader.Parse($$"""
            { "name": "s", "host": "http://127.0.0.1:5090", "variants": ["AspNetHttpJson"], {{clients}}, "payloads": ["Int"], "levels": [1], "duration": "00:00:01" }
            """);

        Assert.Equal(expected, SocketCompletions.InlineFor(scenario));
    }

    [Fact]
    public async Task ReadToEndOnThread_ChildWritesThenExits_ReturnsAllItWrote()
    {
        using var child = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo("bash", ["-c", "seq 1 20000"]) { RedirectStandardOutput = true })!;

        var text = await SocketCompletions.ReadToEndOnThread(child.StandardOutput);

        await child.WaitForExitAsync();
        Assert.Equal(Enumerable.Range(1, 20000).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)), text.Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }
}
