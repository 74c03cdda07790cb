using System.Diagnostics;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Tests.Properties;
using FsCheck;
using FsCheck.Fluent;

namespace Dashboard.Runner.Tests.CommandLine;

/// <summary>
/// Issue #14, part 1, through the real runner executable: generated scenario files (tests/Shared/Properties) are either
/// refused (exit 2, one line on stderr naming the field, no stack trace, no database) or accepted; an accepted one names
/// a host that refuses connections, so it ends at once with exit 3 and stores nothing either. A failure prints its
/// replay seed (<see cref="PropertyRuns"/>).
/// </summary>
public sealed class RunCommandPropertyTests : IDisposable
{
    private const int Cases = 20;
    private readonly string _directory = Directory.CreateTempSubdirectory("runner-cli-property-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void Run_GeneratedScenarioFiles_RefusedInOneLineOrAcceptedWithoutStackTraces()
    {
        var host = $"http://127.0.0.1:{JsonHttpServer.FreePort()}";
        var outcomes = new List<int>();
        var n = 0;
        Prop.ForAll(ScenarioInputs.Documents(host).ToArbitrary(), async input =>
        {
            var folder = Directory.CreateDirectory(Path.Combine(_directory, $"case{++n}")).FullName;
            var scenario = Path.Combine(folder, "scenario.json");
            var database = Path.Combine(folder, "results.db");
            await File.WriteAllBytesAsync(scenario, input.Utf8);
            var expected = Expected(scenario);

            var (exit, stdout, stderr) = await RunAsync(folder, scenario, database);
            lock (outcomes)
            {
                outcomes.Add(exit);
            }

            Assert.DoesNotContain("   at ", stdout + stderr, StringComparison.Ordinal);
            Assert.DoesNotContain("Unhandled exception", stdout + stderr, StringComparison.Ordinal);
            var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            Assert.False(File.Exists(database), $"exit {exit} left a database: {stderr}");
            if (expected is not null)
            {
                Assert.True(exit == 2, $"refused by the loader ({expected.Message}) but the runner exited {exit}: {stderr}");
                var line = Assert.Single(lines);
                Assert.StartsWith("error: invalid scenario scenario.json: ", line, StringComparison.Ordinal);
                Assert.Contains(expected.Field + ": ", line, StringComparison.Ordinal);
            }
            else
            {
                Assert.True(exit == 3, $"an accepted scenario against a closed port should exit 3, not {exit}: {stderr}");
                Assert.Contains("is not reachable", Assert.Single(lines), StringComparison.Ordinal);
            }
        }).Check(PropertyRuns.Config(Cases));

        Assert.Equal(Cases, outcomes.Count);
        Assert.Contains(2, outcomes);
    }

    /// <summary>What the loader says of the file, read the way the runner reads it: null when accepted.</summary>
    private static ScenarioException? Expected(string path)
    {
        try
        {
            ScenarioLoader.Load(path);
            return null;
        }
        catch (ScenarioException e)
        {
            return e;
        }
    }

    private static async Task<(int Exit, string Stdout, string Stderr)> RunAsync(string folder, string scenario, string database)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true };
        // Its own TMPDIR: the runner's machine-wide benchmark lock cannot collide with other tests' runners.
        start.Environment["TMPDIR"] = folder;
        foreach (var argument in new[] { Path.Combine(AppContext.BaseDirectory, "Dashboard.Runner.dll"), "run", "--scenario", scenario, "--db", database })
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"the runner did not end within 60 s on {scenario}");
        }

        return (process.ExitCode, await stdout, await stderr);
    }
}
