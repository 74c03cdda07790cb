using System.Diagnostics;
using System.Globalization;
using Dashboard.Data.Entities;
using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Scenarios;

namespace Dashboard.Runner.Execution;

/// <summary>
/// The extra repetitions of a precision target (scenario field <c>precision</c>; docs/statistics.md, "Precision target";
/// BenchmarkDotNet adds iterations until its MaxRelativeError is met): after the planned repetitions, each round gives
/// one more repetition to every level whose throughput or server CPU per request has not reached the target
/// (<see cref="LevelPrecision.Meets"/>), in a random order from the run's seed, until every level has reached it, the
/// level has <c>maxRepetitions</c>, or <c>precisionTimeLimit</c> has passed (counted from the first call).
/// </summary>
/// <param name="scenario">The validated scenario (its caps).</param>
/// <param name="target">The relative half-width to reach (0.02 = ±2 %).</param>
/// <param name="seed">The run's order seed; null: rounds run in the scenario's order.</param>
/// <param name="shuffle">False: the scenario's order (tests that need a known order).</param>
public sealed class PrecisionRounds(ScenarioDocument scenario, double target, int? seed, bool shuffle = true)
{
    private readonly int maxRepetitions = scenario.MaxRepetitions ?? PrecisionTarget.DefaultMaxRepetitions;
    private readonly TimeSpan timeLimit = scenario.PrecisionTimeLimit ?? PrecisionTarget.DefaultTimeLimit;
    private readonly Random random = new(unchecked((seed ?? 0) * 31 + 17));
    private readonly Stopwatch clock = new();
    private int rounds;

    /// <summary>True once <c>precisionTimeLimit</c> has passed since the first <see cref="NextRound"/>.</summary>
    public bool TimeIsUp => clock.IsRunning && clock.Elapsed >= timeLimit;

    /// <summary>After the last round: one line for the run's log saying how many levels reached the target and why the others stopped; null before.</summary>
    public string? Outcome { get; private set; }

    /// <summary>
    /// The next round: the (cell, level) pairs of <paramref name="units"/> that have not reached the target in
    /// <paramref name="stored"/> (the run's stored levels so far) and may still get a repetition.
    /// </summary>
    /// <param name="stored">Every level stored for the run so far (partial ones are left out, as in <see cref="LevelAggregation"/>).</param>
    /// <param name="units">Each (cell, level) of the run once, the failed cells left out.</param>
    /// <param name="round">The pairs to run one more repetition of, in the round's order.</param>
    /// <param name="summary">A line for the run's log, e.g. "precision round 2: 3 of 8 levels not yet within ±2.0 %: one more repetition each".</param>
    /// <returns>False when no round is needed or allowed (then <see cref="Outcome"/> is set).</returns>
    public bool NextRound(IReadOnlyList<LevelEntity> stored, IReadOnlyList<(Cell Cell, int Clients)> units, out IReadOnlyList<(Cell Cell, int Clients)> round, out string summary)
    {
        ArgumentNullException.ThrowIfNull(stored);
        ArgumentNullException.ThrowIfNull(units);
        clock.Start();
        var byKey = LevelAggregation.Aggregate(stored).ToDictionary(a => (a.Variant, a.Client, a.Payload, a.Clients));
        LevelPrecision? Of((Cell Cell, int Clients) u) =>
            byKey.TryGetValue((u.Cell.Endpoint.Name, u.Cell.ClientId, u.Cell.Payload.Id, u.Clients), out var a) ? LevelPrecision.Of(a) : null;
        var unmet = units.Where(u => Of(u) is not { } p || !p.Meets(target)).ToList();
        var capped = unmet.Count(u => (Of(u)?.Repetitions ?? 0) >= maxRepetitions);
        (Cell Cell, int Clients)[] next = [.. unmet.Where(u => (Of(u)?.Repetitions ?? 0) < maxRepetitions)];
        var within = string.Create(CultureInfo.InvariantCulture, $"±{target * 100:0.0##} %");
        if (next.Length == 0 || TimeIsUp)
        {
            round = [];
            summary = "";
            var why = new List<string>();
            if (capped > 0)
            {
                why.Add(string.Create(CultureInfo.InvariantCulture, $"{capped} at the cap of {maxRepetitions} repetitions"));
            }

            if (next.Length > 0)
            {
                why.Add(string.Create(CultureInfo.InvariantCulture, $"{next.Length} stopped by the time limit of {timeLimit:hh\\:mm\\:ss}"));
            }

            Outcome = unmet.Count == 0
                ? $"precision target {within}: every level reached it ({units.Count} levels, {rounds} extra rounds)"
                : $"precision target {within}: {units.Count - unmet.Count} of {units.Count} levels reached it; not reached: {string.Join(", ", why)} (each level's figures say what it reached)";
            return false;
        }

        if (shuffle)
        {
            random.Shuffle(next);
        }

        rounds++;
        round = next;
        summary = string.Create(CultureInfo.InvariantCulture,
            $"precision round {rounds}: {unmet.Count} of {units.Count} levels not yet within {within}: one more repetition each for {next.Length}");
        return true;
    }
}
