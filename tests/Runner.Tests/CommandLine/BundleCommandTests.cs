using System.Diagnostics;
using System.IO.Compression;
using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Runner.CommandLine;

namespace Dashboard.Runner.Tests.CommandLine;

/// <summary><c>Dashboard.Runner bundle</c>: a stored run written as a result bundle by the real runner executable.</summary>
public sealed class BundleCommandTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("bundle-command-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    private static async Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(params string[] arguments)
    {
        var start = new ProcessStartInfo(Path.Combine(AppContext.BaseDirectory, "Dashboard.Runner")) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
        return (process.ExitCode, await stdout, await stderr);
    }

    [Fact]
    public async Task Bundle_StoredRun_ZipWithTheScenarioAndTheRunnersReproduceCommand()
    {
        int id;
        using (var db = ResultsStore.Sqlite(DatabasePath).Open())
        {
            var run = new RunEntity { ScenarioName = "cli", ScenarioJson = """{"name":"cli"}""", Status = RunStatus.Completed, CreatedUtc = DateTime.UtcNow };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            id = run.Id;
        }

        var output = Path.Combine(_directory, "run.zip");
        var (exit, stdout, stderr) = await RunAsync("bundle", "--db", DatabasePath, "--run", $"{id}", "--out", output);

        Assert.True(exit == 0, stderr);
        Assert.Contains($"run {id} written to {output}", stdout, StringComparison.Ordinal);
        using var zip = ZipFile.OpenRead(output);
        using var scenario = new StreamReader(zip.GetEntry("scenario.json")!.Open());
        Assert.Equal("""{"name":"cli"}""", await scenario.ReadToEndAsync());
        using var manifest = new StreamReader(zip.GetEntry("manifest.json")!.Open());
        Assert.Contains("Dashboard.Runner run --scenario scenario.json", await manifest.ReadToEndAsync(), StringComparison.Ordinal);
        Assert.StartsWith("Dashboard.Runner run", BundleCommand.Reproduce, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bundle_UnknownRun_Exit2NamingTheRunAndNoFile()
    {
        using (ResultsStore.Sqlite(DatabasePath).Open())
        {
        }

        var output = Path.Combine(_directory, "none.zip");
        var (exit, _, stderr) = await RunAsync("bundle", "--db", DatabasePath, "--run", "42", "--out", output);

        Assert.Equal(2, exit);
        Assert.Contains("has no run 42", stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(output));
    }
}
