namespace Dashboard.Data.Entities;

/// <summary>
/// One reading of the service host's <c>GET /resources</c> (and the generator's own CPU) during a run.
/// </summary>
public class ResourceSampleEntity
{
    /// <summary>Primary key, assigned by the database.</summary>
    public long Id { get; set; }

    /// <summary>The run this reading belongs to. Deleting the run deletes its readings.</summary>
    public int RunId { get; set; }

    /// <summary>The run, when loaded.</summary>
    public RunEntity? Run { get; set; }

    /// <summary>Time of the reading in ms since the run started.</summary>
    public long OffsetMs { get; set; }

    /// <summary>CPU % of the whole server machine, 0–100 over all cores.</summary>
    public double MachineCpuPercent { get; set; }

    /// <summary>Available memory of the server machine in MB.</summary>
    public double AvailableMemoryMb { get; set; }

    /// <summary>CPU % of the service process, 0–100 over all cores.</summary>
    public double ProcessCpuPercent { get; set; }

    /// <summary>Working set of the service process in MB.</summary>
    public double WorkingSetMb { get; set; }

    /// <summary>Managed (GC) heap of the service process in MB.</summary>
    public double GcHeapMb { get; set; }

    /// <summary>Number of threads of the service process.</summary>
    public int ThreadCount { get; set; }

    /// <summary>CPU % of the JVM service process (metro, ice), 0–100 over all cores, or null when it was not running.</summary>
    public double? JvmCpuPercent { get; set; }

    /// <summary>Resident memory of the JVM service process in MB, or null when it was not running.</summary>
    public double? JvmResidentMb { get; set; }

    /// <summary>CPU % of the load generator, 0–100 over all cores, or null if not measured.</summary>
    public double? GeneratorCpuPercent { get; set; }
}
