using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;

namespace Dashboard.Data.Tests.Support;

/// <summary>Builders of entities and samples for tests.</summary>
internal static class TestData
{
    public static readonly DateTime Start = new(2026, 11, 22, 10, 0, 0, DateTimeKind.Utc);

    public static RunEntity Run(string name = "scenario") => new()
    {
        ScenarioName = name,
        ScenarioJson = $$"""{"name":"{{name}}"}""",
        Status = RunStatus.Running,
        CreatedUtc = Start,
    };

    public static LevelEntity Level(RunEntity run, string variant = "TcpNoSec", int clients = 1, string client = "wcf", string payload = "Int") => new()
    {
        Run = run,
        Variant = variant,
        Client = client,
        Payload = payload,
        Clients = clients,
        StartedUtc = Start,
        EndedUtc = Start.AddSeconds(10),
    };

    /// <summary>
    /// <paramref name="count"/> samples cycling through every outcome, with every 7th a warm-up and
    /// extreme client indexes and times among them; <paramref name="seed"/> makes them differ per level.
    /// </summary>
    public static Sample[] Samples(int count, int seed = 0)
    {
        var outcomes = Enum.GetValues<SampleOutcome>();
        var samples = new Sample[count];
        for (var i = 0; i < count; i++)
        {
            var clientIndex = (i % 1000) switch
            {
                0 => int.MaxValue,
                1 => int.MinValue,
                2 => -1,
                _ => (i + seed) % 300,
            };
            var start = i % 997 == 0 ? long.MaxValue - i : (i * 131L) + seed;
            var latency = i % 991 == 0 ? long.MinValue + i : 100 + ((i * 7919L) % 1_000_000);
            samples[i] = new Sample(clientIndex, start, latency, outcomes[(i + seed) % outcomes.Length], IsWarmup: i % 7 == 3);
        }

        return samples;
    }
}
