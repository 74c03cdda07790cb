using Dashboard.Data.Entities;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Samples;

/// <summary>One provider's way of writing raw samples, behind <see cref="SampleStore"/> (which documents the contract).</summary>
internal interface ISampleWriter : IDisposable
{
    /// <summary>See <see cref="SampleStore.Append"/>.</summary>
    long Append(long levelId, ReadOnlySpan<Sample> samples, string? agent = null);

    /// <summary>See <see cref="SampleStore.AppendLevel(LevelEntity, ReadOnlySpan{Sample}, bool)"/>; the level is already checked and its summaries filled.</summary>
    long AppendLevel(LevelEntity level, ReadOnlySpan<Sample> samples, bool onlyWhileRunning);
}
