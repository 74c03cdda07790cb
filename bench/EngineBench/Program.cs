using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using Dashboard.Bench;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

// engine-floor: ClosedLoopEngine with a null in-process client (calls/s per core of CPU used).
// recording: the dotnet driver on one endpoint, full sample recording (the engine) vs counting only (a bare loop), side by side.
var mode = args.Length > 0 ? args[0] : "engine-floor";
switch (mode)
{
    case "engine-floor":
        await EngineFloor.RunAsync(clients: args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 2);
        break;
    case "recording":
        await Recording.RunAsync(new Uri(args.Length > 1 ? args[1] : "http://localhost:5090"), clients: args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 10);
        break;
    default:
        Console.Error.WriteLine("usage: engine-floor [clients] | recording [host] [clients]");
        return 2;
}

return 0;

namespace Dashboard.Bench
{
    internal static class EngineFloor
    {
        public static async Task RunAsync(int clients)
        {
            var plan = new LevelPlan(clients, 0, 2_000_000, null);
            await ClosedLoopEngine.RunLevelAsync(new NullFactory(), plan with { RequestsPerClient = 100_000 }, CancellationToken.None);
            using var process = Process.GetCurrentProcess();
            for (var round = 0; round < 3; round++)
            {
                var cpu = process.TotalProcessorTime;
                var watch = Stopwatch.StartNew();
                var result = await ClosedLoopEngine.RunLevelAsync(new NullFactory(), plan, CancellationToken.None);
                watch.Stop();
                process.Refresh();
                var cpuSeconds = (process.TotalProcessorTime - cpu).TotalSeconds;
                var calls = result.Samples.Length;
                Console.WriteLine(FormattableString.Invariant(
                    $"engine-floor clients={clients}: {calls:N0} calls in {watch.Elapsed.TotalSeconds:0.000} s wall, {cpuSeconds:0.000} s CPU: {calls / watch.Elapsed.TotalSeconds:N0} calls/s, {calls / cpuSeconds:N0} calls/s per core"));
            }
        }

        private sealed class NullFactory : ILoadClientFactory, ILoadClient
        {
            public ILoadClient CreateClient(int clientIndex) => new NullFactory();

            public ValueTask OpenAsync(CancellationToken cancellationToken) => ValueTask.CompletedTask;

            public ValueTask<CallResult> CallAsync(CancellationToken cancellationToken) => ValueTask.FromResult(new CallResult(SampleOutcome.Success));

            public ValueTask DisposeAsync() => ValueTask.CompletedTask;
        }
    }

    internal static class Recording
    {
        public static async Task RunAsync(Uri host, int clients)
        {
            using var http = new HttpClient();
            var endpoints = await http.GetFromJsonAsync<HostEndpoint[]>(new Uri(host, "/endpoints"), JsonSerializerOptions.Web);
            var endpoint = endpoints!.Single(e => e.Name == "AspNetHttpJson");
            PayloadCatalogue.TryGet("Int", out var payload);
            var driver = new DotNetDriver();
            var duration = TimeSpan.FromSeconds(5);
            for (var round = 0; round < 3; round++)
            {
                await using var factory = driver.CreateFactory(endpoint, payload!);
                var recorded = await ClosedLoopEngine.RunLevelAsync(factory, new LevelPlan(clients, 100, null, duration), CancellationToken.None);
                var recordedRps = recorded.Samples.Count(s => !s.IsWarmup) / duration.TotalSeconds;
                var counted = await CountOnlyAsync(factory, clients, duration);
                var countedRps = counted / duration.TotalSeconds;
                Console.WriteLine(FormattableString.Invariant(
                    $"recording clients={clients}: full recording {recordedRps:N0} req/s, counting only {countedRps:N0} req/s, ratio {recordedRps / countedRps:0.000}"));
            }
        }

        /// <summary>The same closed loop without timestamps or samples: each client counts its successful calls.</summary>
        private static async Task<long> CountOnlyAsync(ILoadClientFactory factory, int clients, TimeSpan duration)
        {
            var loadClients = Enumerable.Range(0, clients).Select(factory.CreateClient).ToArray();
            await Task.WhenAll(loadClients.Select(c => c.OpenAsync(CancellationToken.None).AsTask()));
            for (var i = 0; i < 100; i++)
            {
                await Task.WhenAll(loadClients.Select(c => c.CallAsync(CancellationToken.None).AsTask()));
            }

            var deadline = Stopwatch.GetTimestamp() + (long)(duration.TotalSeconds * Stopwatch.Frequency);
            var counts = await Task.WhenAll(loadClients.Select(c => Task.Run(async () =>
            {
                long count = 0;
                while (Stopwatch.GetTimestamp() < deadline)
                {
                    if ((await c.CallAsync(CancellationToken.None)).Outcome == SampleOutcome.Success)
                    {
                        count++;
                    }
                }

                return count;
            })));
            foreach (var c in loadClients)
            {
                await c.DisposeAsync();
            }

            return counts.Sum();
        }
    }
}
