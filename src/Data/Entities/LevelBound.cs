namespace Dashboard.Data.Entities;

/// <summary>What limited a level's throughput (docs/statistics.md, "What bound each level"). Stored as the member's name.</summary>
public enum LevelBound
{
    /// <summary>Neither the generator nor the server used 90 % of its cores.</summary>
    Neither,

    /// <summary>The load generator (runner + driver processes) used at least 90 % of the cores it may use: the generator was the limit, this is not the server's capacity.</summary>
    Generator,

    /// <summary>The server used at least 90 % of its cores (and the generator did not).</summary>
    Server,

    /// <summary>
    /// Generator and server share cores (same machine, overlapping CPU affinity), those cores were at least 90 % busy,
    /// and neither used 90 % alone: the machine was the limit for both together (with whatever else ran on it). The
    /// figure is the on-machine capacity of this client and server together, not the server's alone.
    /// </summary>
    Machine,
}
