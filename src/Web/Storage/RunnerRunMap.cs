using System.Collections.Concurrent;

namespace Dashboard.Web.Storage;

/// <summary>Dashboard run id → the runner's own run id, for runs in progress (see <see cref="RunnerLink"/>).</summary>
public sealed class RunnerRunMap
{
    private readonly ConcurrentDictionary<int, int> _map = new();

    /// <summary>Remembers that run <paramref name="dashboardRunId"/> is stored by the runner as <paramref name="runnerRunId"/>.</summary>
    public void Add(int dashboardRunId, int runnerRunId) => _map[dashboardRunId] = runnerRunId;

    /// <summary>Forgets the run.</summary>
    public void Remove(int dashboardRunId) => _map.TryRemove(dashboardRunId, out _);

    /// <summary>The runner's id of a run in progress.</summary>
    public bool TryGetRunnerRun(int dashboardRunId, out int runnerRunId) => _map.TryGetValue(dashboardRunId, out runnerRunId);

    /// <summary>The runner's ids of all runs in progress.</summary>
    public int[] RunnerRunIds() => [.. _map.Values];
}
