using System.Globalization;
using Dashboard.Data.Samples;

namespace Dashboard.Bench;

/// <summary>Command line of the benchmark; see <see cref="Usage"/>.</summary>
internal sealed record BenchOptions(int Samples, int Batch, int Levels, int RowsPerStatement, bool Index, string? Directory)
{
    public const string Usage = """
        Inserts raw samples into a fresh results.db with SampleStore and prints samples/s.

        Options:
          --samples N              samples to insert (default 1000000)
          --batch N                samples per Append call, one transaction each (default 10000)
          --levels N               levels the samples are spread over, in order (default 10)
          --rows-per-statement N   rows per multi-row INSERT (default SampleStore.DefaultRowsPerStatement)
          --index                  also create an index on Samples(LevelId) first (the rejected design)
          --dir PATH               directory for the database file (default: a new temp directory, deleted after)
          --help                   show this text
        """;

    /// <summary>Parses <paramref name="args"/>; null when help was asked for.</summary>
    /// <exception cref="ArgumentException">An unknown option or a bad value.</exception>
    public static BenchOptions? Parse(string[] args)
    {
        var options = new BenchOptions(1_000_000, 10_000, 10, SampleStore.DefaultRowsPerStatement, Index: false, Directory: null);
        for (var i = 0; i < args.Length; i++)
        {
            string Value() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value.");
            int Positive() => int.TryParse(Value(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) && n > 0
                ? n
                : throw new ArgumentException($"{args[i - 1]} needs a positive integer, not '{args[i]}'.");

            options = args[i] switch
            {
                "--samples" => options with { Samples = Positive() },
                "--batch" => options with { Batch = Positive() },
                "--levels" => options with { Levels = Positive() },
                "--rows-per-statement" => options with { RowsPerStatement = Positive() },
                "--index" => options with { Index = true },
                "--dir" => options with { Directory = Value() },
                "--help" or "-h" => null,
                _ => throw new ArgumentException($"Unknown option '{args[i]}'."),
            };
            if (options is null)
            {
                return null;
            }
        }

        return options;
    }
}
