using Dashboard.Data;
using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Execution;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Tests.RealProcesses;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Runner.Tests.Execution;

/// <summary>Faults on real sockets: the host killed mid-run, a variant whose endpoint refuses connections.</summary>
public sealed class RealHostFaultTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("fault-tests-").FullName;

    private string DatabasePath => Path.Combine(_directory, "results.db");

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task RunAsync_HostKilledDuringALevel_FailsWithTheReasonAndKeepsTheSamples()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var endpoints = await host.GetEndpointsAsync();
        var scenario = Scenario(host) with { Variants = ["AspNetHttpJson", "AspNetHttpXml"], Levels = [1, 4], RequestsPerClient = null, Duration = TimeSpan.FromSeconds(2) };
        // The host is killed from inside the 4-client level, after its 40th measured success: some requests got through, the rest cannot.
        var driver = new KillingDriver(new DotNetDriver(TimeSpan.FromSeconds(5)), clients: 4, afterSuccesses: 40, () => ServiceHostProcess.Signal(host.ProcessId, 9));
        // The scenario's cell order (no shuffle): the kill happens in the first cell, the second cannot connect.
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([driver]), _ => { }) { ShuffleCells = false };

        var run = await executor.RunAsync(scenario, endpoints, CancellationToken.None);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("1 of 2 cells failed (2 of 4 levels done): AspNetHttpXml × dotnet × Int failed", run.Error, StringComparison.Ordinal);
        Assert.Contains("cannot connect to AspNetHttpXml", run.Error, StringComparison.Ordinal);
        using var db = ResultsDatabase.Open(DatabasePath);
        var levels = await db.Levels.OrderBy(l => l.Id).ToListAsync();
        Assert.Equal(2, levels.Count);
        Assert.Equal(0, levels[0].Errors);
        Assert.True(levels[1].ConnectionErrors > 0, "requests after the kill are connection errors");
        Assert.True(levels[1].Requests > levels[1].Errors, "requests before the kill succeeded");
        Assert.Equal(levels.Sum(l => l.Requests + (l.Clients * scenario.Warmup)), await db.Samples.CountAsync());
        Assert.Equal(levels[1].ConnectionErrors, await db.Samples.CountAsync(s => s.Outcome == SampleOutcome.Connection));
    }

    [Fact]
    public async Task RunAsync_OneVariantRefusesConnections_ThatCellFailsAndTheOthersRun()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var endpoints = (await host.GetEndpointsAsync())
            .Select(e => e.Name == "AspNetHttpXml" ? e with { Address = $"http://127.0.0.1:{Support.JsonHttpServer.FreePort()}/" } : e)
            .ToArray();
        var scenario = Scenario(host) with { Variants = ["AspNetHttpXml", "AspNetHttpJson"] };
        var executor = new BenchmarkExecutor(DatabasePath, new ClientDriverRegistry([new DotNetDriver()]), _ => { });

        var run = await executor.RunAsync(scenario, endpoints, CancellationToken.None);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.StartsWith("1 of 2 cells failed", run.Error, StringComparison.Ordinal);
        Assert.Contains("cannot connect to AspNetHttpXml", run.Error, StringComparison.Ordinal);
        using var db = ResultsDatabase.Open(DatabasePath);
        var level = await db.Levels.SingleAsync();
        Assert.Equal("AspNetHttpJson", level.Variant);
        Assert.Equal(50, level.Requests);
        Assert.Equal(0, level.Errors);
        Assert.True(level.MeanRequestBytes > 100, $"request bytes {level.MeanRequestBytes}");
    }

    /// <summary>The dotnet driver, with a hook that runs once after a number of successful calls in a level of a given size.</summary>
    private sealed class KillingDriver(DotNetDriver inner, int clients, int afterSuccesses, Action kill) : InProcessClientDriver
    {
        private int _successes;

        public override string ClientId => inner.ClientId;

        private int Clients => clients;

        /// <summary>Counts a success; runs the hook on the one that reaches the threshold.</summary>
        private void Succeeded()
        {
            if (Interlocked.Increment(ref _successes) == afterSuccesses)
            {
                kill();
            }
        }

        public override ILoadClientFactory CreateFactory(Service.Contracts.Variants.HostEndpoint endpoint, Service.Contracts.Payloads.PayloadCase payload, ClientSecurity? security = null) =>
            new Factory(inner.CreateFactory(endpoint, payload, security), this);

        private sealed class Factory(ILoadClientFactory inner, KillingDriver owner) : ILoadClientFactory
        {
            private int _created;

            public ILoadClient CreateClient(int clientIndex)
            {
                _created = clientIndex + 1;
                return new Client(inner.CreateClient(clientIndex), owner, this);
            }

            public bool InTargetLevel => _created == owner.Clients;

            public ValueTask DisposeAsync() => inner.DisposeAsync();
        }

        private sealed class Client(ILoadClient inner, KillingDriver owner, Factory factory) : ILoadClient
        {
            public ValueTask OpenAsync(CancellationToken cancellationToken) => inner.OpenAsync(cancellationToken);

            public async ValueTask<CallResult> CallAsync(CancellationToken cancellationToken)
            {
                var result = await inner.CallAsync(cancellationToken);
                if (factory.InTargetLevel && result.Outcome == SampleOutcome.Success)
                {
                    owner.Succeeded();
                }

                return result;
            }

            public ValueTask DisposeAsync() => inner.DisposeAsync();
        }
    }

    private static ScenarioDocument Scenario(ServiceHostProcess host) => new()
    {
        Name = "fault test",
        Host = host.ControlAddress.ToString(),
        Variants = ["AspNetHttpJson"],
        Clients = ["dotnet"],
        Payloads = ["Int"],
        Levels = [1],
        RequestsPerClient = 50,
        Warmup = 2,
    };
}
