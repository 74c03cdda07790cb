using System.Diagnostics;
using System.Text.Json;
using Dashboard.Data.Entities;
using Dashboard.Data.Runs;
using Dashboard.Data.Samples;
using Dashboard.Data.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Tests.Runs;

/// <summary>Runs left Running by a killed runner, found by the runner process recorded with them (real processes, real /proc).</summary>
public sealed class AbandonedRunsTests : IDisposable
{
    private readonly TempDatabase _database = new();

    public void Dispose() => _database.Dispose();

    [Fact]
    public void IsAlive_CurrentProcess_True()
    {
        var self = ProcessIdentity.Current();

        Assert.NotNull(self);
        Assert.Equal(Environment.ProcessId, self.Pid);
        Assert.True(self.IsAlive());
    }

    [Fact]
    public async Task IsAlive_ProcessKilled_False()
    {
        using var process = StartSleeper();
        var identity = ProcessIdentity.Of(process.Id);
        Assert.NotNull(identity);
        Assert.True(identity.IsAlive());

        process.Kill();
        await process.WaitForExitAsync();

        Assert.False(identity.IsAlive());
        Assert.Null(ProcessIdentity.Of(process.Id));
    }

    [Fact]
    public void IsAlive_SamePidOtherStartTime_False()
    {
        // What a recorded pid looks like once the kernel gave it to another process: same id, other start time.
        var self = ProcessIdentity.Current()!;

        Assert.False((self with { StartTicks = self.StartTicks - 1 }).IsAlive());
        Assert.False((self with { BootId = "another-boot" }).IsAlive());
    }

    [Fact]
    public async Task MarkAsync_RunnerKilled_MarksInterruptedWithReasonAndKeepsLevels()
    {
        using var process = StartSleeper();
        var runner = ProcessIdentity.Of(process.Id)!;
        var (runId, samples) = await SeedRunAsync(runner, levels: 2, samplesPerLevel: 300);
        process.Kill();
        await process.WaitForExitAsync();

        using var db = _database.NewContext();
        var marked = await AbandonedRuns.MarkAsync(db, CancellationToken.None);

        Assert.Equal([runId], marked.Select(r => r.Id));
        using var check = _database.NewContext();
        var run = await check.Runs.SingleAsync(r => r.Id == runId);
        Assert.Equal(RunStatus.Interrupted, run.Status);
        Assert.Equal(2, run.CompletedLevels);
        Assert.Null(run.ProgressText);
        Assert.Equal(TestData.Start.AddSeconds(10), run.EndedUtc);
        Assert.Equal(
            $"the runner (process {runner.Pid}) ended without finishing the run (killed or crashed) after 2 of 5 levels; it was at AspNetHttpJson × dotnet × Int, repetition 1, 3 clients; the levels stored before are kept with their samples",
            run.Error);
        Assert.Equal(samples, await check.Samples.CountAsync());
    }

    [Fact]
    public async Task MarkAsync_RunnerStillRunning_LeavesTheRunRunning()
    {
        using var process = StartSleeper();
        try
        {
            var (runId, _) = await SeedRunAsync(ProcessIdentity.Of(process.Id)!, levels: 1, samplesPerLevel: 10);

            using var db = _database.NewContext();
            Assert.Empty(await AbandonedRuns.MarkAsync(db, CancellationToken.None));
            Assert.Equal(RunStatus.Running, (await db.Runs.SingleAsync(r => r.Id == runId)).Status);
        }
        finally
        {
            process.Kill();
            await process.WaitForExitAsync();
        }
    }

    [Fact]
    public async Task MarkAsync_KilledRunnerOfAnotherMachine_LeftForThatMachine()
    {
        // A shared PostgreSQL database: the run's runner ran on another machine; its pid says nothing here.
        using var process = StartSleeper();
        var runner = ProcessIdentity.Of(process.Id)! with { MachineId = "another-machine" };
        process.Kill();
        await process.WaitForExitAsync();
        var (runId, _) = await SeedRunAsync(runner, levels: 1, samplesPerLevel: 10);

        using var db = _database.NewContext();
        Assert.Empty(await AbandonedRuns.MarkAsync(db, CancellationToken.None));
        Assert.Equal(RunStatus.Running, (await db.Runs.SingleAsync(r => r.Id == runId)).Status);
        Assert.False(runner.IsOnThisMachine());
        Assert.True((runner with { MachineId = null }).IsOnThisMachine()); // recorded before machine ids: judged here, as before
    }

    [Fact]
    public void Current_RecordsThisMachine()
    {
        var self = ProcessIdentity.Current()!;

        Assert.Equal(File.ReadAllText("/etc/machine-id").Trim(), self.MachineId);
        Assert.True(self.IsOnThisMachine());
    }

    [Fact]
    public async Task MarkAsync_RunWithoutRecordedRunner_LeftAlone()
    {
        // A dashboard's own row records its runner under another property; only the dashboard judges it.
        using (var db = _database.Open())
        {
            var run = TestData.Run();
            run.EnvironmentJson = """{"dashboardRunner":{"runnerRunId":null,"runnerPid":999999}}""";
            db.Runs.Add(run);
            await db.SaveChangesAsync();
        }

        using var check = _database.NewContext();
        Assert.Empty(await AbandonedRuns.MarkAsync(check, CancellationToken.None));
        Assert.Equal(RunStatus.Running, (await check.Runs.SingleAsync()).Status);
    }

    private static Process StartSleeper() => Process.Start(new ProcessStartInfo("sleep", "60") { UseShellExecute = false })!;

    private async Task<(int RunId, int Samples)> SeedRunAsync(ProcessIdentity runner, int levels, int samplesPerLevel)
    {
        int runId;
        using (var db = _database.Open())
        {
            var run = TestData.Run();
            run.TotalLevels = 5;
            run.StartedUtc = TestData.Start;
            run.ProgressText = "AspNetHttpJson × dotnet × Int, repetition 1, 3 clients";
            run.EnvironmentJson = JsonSerializer.Serialize(new Dictionary<string, object> { ["machineName"] = "m", [AbandonedRuns.RunnerProcessProperty] = runner }, JsonSerializerOptions.Web);
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            runId = run.Id;
        }

        using var store = new SampleStore(_database.FilePath);
        for (var i = 0; i < levels; i++)
        {
            var level = TestData.Level(new RunEntity { ScenarioName = "", ScenarioJson = "" }, clients: i + 1);
            level.Run = null;
            level.RunId = runId;
            store.AppendLevel(level, TestData.Samples(samplesPerLevel, seed: i));
        }

        return (runId, levels * samplesPerLevel);
    }
}
