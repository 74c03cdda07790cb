using Dashboard.Data.Measurement;

namespace Dashboard.Data.Entities;

/// <summary>
/// One row of the <c>Samples</c> table, for queries only: rows are written by
/// <see cref="Samples.SampleStore"/>, never through EF Core (<see cref="ResultsDbContext"/>
/// refuses to save them). Same fields and units as <see cref="Sample"/>.
/// </summary>
public class SampleEntity
{
    /// <summary>The row's rowid.</summary>
    public long Id { get; set; }

    /// <summary>The level this sample belongs to (<see cref="LevelEntity.Id"/>).</summary>
    public long LevelId { get; set; }

    /// <summary>Zero-based index of the client that sent the request.</summary>
    public int ClientIndex { get; set; }

    /// <summary>Start of the request in µs since the start of its level.</summary>
    public long StartOffsetUs { get; set; }

    /// <summary>Response time in µs.</summary>
    public long LatencyUs { get; set; }

    /// <summary>How the request ended; stored as its integer value.</summary>
    public SampleOutcome Outcome { get; set; }

    /// <summary>True for warm-up requests.</summary>
    public bool IsWarmup { get; set; }

    /// <summary>Request bytes on the wire, or -1 when the client could not count them.</summary>
    public int RequestBytes { get; set; }

    /// <summary>Response bytes on the wire, or -1 when the client could not count them.</summary>
    public int ResponseBytes { get; set; }

    /// <summary>The load agent that sent the request (docs/agents.md), or null when the runner itself sent it.</summary>
    public string? Agent { get; set; }
}
