using System.Collections.Immutable;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Service.Host.Control;

/// <summary>
/// What <c>GET /endpoints</c> answers: the endpoints each stack serves right now, replaced whole by the stack
/// when it starts, restarts or stops. Thread-safe (an immutable map swapped atomically).
/// </summary>
public sealed class EndpointRegistry
{
    private ImmutableDictionary<string, ImmutableArray<HostEndpoint>> _byStack = ImmutableDictionary<string, ImmutableArray<HostEndpoint>>.Empty;
    private ImmutableDictionary<string, string> _status = ImmutableDictionary<string, string>.Empty;

    /// <summary>Every endpoint served now, in catalogue order.</summary>
    public IReadOnlyList<HostEndpoint> All
    {
        get
        {
            var order = VariantCatalogue.All.Select((v, i) => (v.Name, i)).ToDictionary(x => x.Name, x => x.i);
            return _byStack.Values.SelectMany(e => e).OrderBy(e => order.GetValueOrDefault(e.Name, int.MaxValue)).ToArray();
        }
    }

    /// <summary>Each process group's state for <c>/healthz</c>: <c>aspnet</c> and <c>jvm</c> → <c>up</c>, <c>starting</c>, <c>down: reason</c>, <c>disabled</c>.</summary>
    public IReadOnlyDictionary<string, string> Status => _status;

    /// <summary>
    /// The component versions each process group reported of itself (the JVM service in its <c>ready</c> line): group →
    /// component → version; a group that has not reported (starting, disabled) is absent. Served by <c>GET /versions</c>.
    /// </summary>
    public IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> Versions => _versions;

    private ImmutableDictionary<string, IReadOnlyDictionary<string, string>> _versions = ImmutableDictionary<string, IReadOnlyDictionary<string, string>>.Empty;

    /// <summary>Records what <paramref name="group"/> reported of its component versions (replaces an earlier report).</summary>
    public void SetVersions(string group, IReadOnlyDictionary<string, string> versions) =>
        ImmutableInterlocked.Update(ref _versions, d => d.SetItem(group, versions));

    /// <summary>Replaces the endpoints of <paramref name="group"/> (e.g. <c>aspnet</c>, <c>jvm</c>) and its state.</summary>
    public void Set(string group, IEnumerable<HostEndpoint> endpoints, string status)
    {
        var list = endpoints.ToImmutableArray();
        ImmutableInterlocked.Update(ref _byStack, d => d.SetItem(group, list));
        ImmutableInterlocked.Update(ref _status, d => d.SetItem(group, status));
    }
}
