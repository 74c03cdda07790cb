using System.Diagnostics;
using Npgsql;

namespace Dashboard.Data.Agents;

/// <summary>
/// An agent's clock against the database server's: offset = server time − local time, estimated Cristian-style from
/// round trips to <c>SELECT clock_timestamp()</c> (the server's clock when the statement runs; <c>now()</c> would be the
/// start of its transaction): the server's reading is taken to fall at the midpoint of the round trip, and of several
/// round trips the one with the smallest round-trip time is kept (the least queueing, so the tightest bound). The true
/// offset lies within ± <see cref="UncertaintyMs"/> (half that round trip) of <see cref="OffsetMs"/>
/// (Cristian, "Probabilistic clock synchronization", Distributed Computing 3, 1989).
/// </summary>
/// <param name="OffsetMs">Server clock − local clock, ms: local time + offset = server time.</param>
/// <param name="UncertaintyMs">Half the smallest round-trip time, ms: the bound on the offset's error.</param>
/// <param name="RoundTrips">Round trips measured.</param>
public sealed record ClockOffset(double OffsetMs, double UncertaintyMs, int RoundTrips)
{
    /// <summary>Round trips of one measurement by default.</summary>
    public const int DefaultRoundTrips = 12;

    /// <summary>Measures the offset over <paramref name="roundTrips"/> round trips on <paramref name="connection"/> (open).</summary>
    /// <exception cref="NpgsqlException">The database does not answer.</exception>
    public static async Task<ClockOffset> MeasureAsync(NpgsqlConnection connection, CancellationToken cancellationToken, int roundTrips = DefaultRoundTrips)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentOutOfRangeException.ThrowIfLessThan(roundTrips, 1);
        await using var command = new NpgsqlCommand("SELECT clock_timestamp()", connection);
        await command.PrepareAsync(cancellationToken);
        var bestRtt = double.MaxValue;
        var bestOffset = 0.0;
        for (var i = 0; i < roundTrips; i++)
        {
            var sent = DateTime.UtcNow;
            var started = Stopwatch.GetTimestamp();
            var server = (DateTime)(await command.ExecuteScalarAsync(cancellationToken))!;
            var rtt = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
            if (rtt < bestRtt)
            {
                bestRtt = rtt;
                var midpoint = sent.AddMilliseconds(rtt / 2);
                bestOffset = (server.ToUniversalTime() - midpoint).TotalMilliseconds;
            }
        }

        return new ClockOffset(bestOffset, bestRtt / 2, roundTrips);
    }
}
