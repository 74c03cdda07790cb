namespace Dashboard.Service.Host.Resources;

/// <summary>The process id of the running JVM service, shared between its supervisor and the resource monitor.</summary>
public sealed class JvmProcessInfo
{
    private int _processId;

    /// <summary>The JVM's process id while it runs, else null.</summary>
    public int? ProcessId
    {
        get
        {
            var pid = Volatile.Read(ref _processId);
            return pid == 0 ? null : pid;
        }

        set => Volatile.Write(ref _processId, value ?? 0);
    }
}
