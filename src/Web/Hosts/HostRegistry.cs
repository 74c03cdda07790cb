using System.Collections.Concurrent;
using System.Text.Json;
using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Hosts;

/// <summary>
/// The service hosts the dashboard knows: the local one, and remote ones a user added by address (kept in
/// <c>hosts.json</c> in the data folder), each with its last health check.
/// </summary>
public sealed class HostRegistry
{
    private readonly ConcurrentDictionary<string, HostStatus> _hosts = new(StringComparer.OrdinalIgnoreCase);
    private readonly string _file;
    private readonly Lock _fileGate = new();

    /// <summary>Loads the added hosts and registers the local one.</summary>
    public HostRegistry(IOptions<DashboardOptions> dashboard, IOptions<LocalHostOptions> local)
    {
        ArgumentNullException.ThrowIfNull(dashboard);
        ArgumentNullException.ThrowIfNull(local);
        LocalAddress = Normalize(local.Value.Address);
        _file = Path.Combine(dashboard.Value.DataFolderPath, "hosts.json");
        _hosts[LocalAddress.AbsoluteUri] = new HostStatus(LocalAddress, true, HostHealth.Unknown, null, null);
        if (File.Exists(_file))
        {
            foreach (var address in JsonSerializer.Deserialize<string[]>(File.ReadAllText(_file)) ?? [])
            {
                if (Uri.TryCreate(address, UriKind.Absolute, out var uri))
                {
                    _hosts.TryAdd(Normalize(uri).AbsoluteUri, new HostStatus(Normalize(uri), false, HostHealth.Unknown, null, null));
                }
            }
        }
    }

    /// <summary>Raised after a host's status changed or a host was added or removed.</summary>
    public event Action? Changed;

    /// <summary>The local host's address.</summary>
    public Uri LocalAddress { get; }

    /// <summary>Every known host, local first.</summary>
    public IReadOnlyList<HostStatus> All =>
        [.. _hosts.Values.OrderByDescending(h => h.IsLocal).ThenBy(h => h.Address.AbsoluteUri, StringComparer.Ordinal)];

    /// <summary>The status of the host at <paramref name="address"/>, or null when it is not known.</summary>
    public HostStatus? Find(Uri address) => _hosts.GetValueOrDefault(Normalize(address).AbsoluteUri);

    /// <summary>Adds a remote host; false with a reason when the address is not an absolute http(s) address.</summary>
    public bool TryAdd(string address, out string? problem)
    {
        if (!Uri.TryCreate(address?.Trim(), UriKind.Absolute, out var uri) || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps))
        {
            problem = $"'{address}' is not an absolute http:// or https:// address, e.g. http://bench-server:5090";
            return false;
        }

        problem = null;
        uri = Normalize(uri);
        if (_hosts.TryAdd(uri.AbsoluteUri, new HostStatus(uri, false, HostHealth.Unknown, null, null)))
        {
            Save();
            Changed?.Invoke();
        }

        return true;
    }

    /// <summary>
    /// Forgets the remote host at <paramref name="address"/> (and drops it from <c>hosts.json</c>); false with a reason
    /// for the local host, which the dashboard starts itself, and for an address it does not know.
    /// </summary>
    public bool TryRemove(Uri address, out string? problem)
    {
        ArgumentNullException.ThrowIfNull(address);
        var key = Normalize(address).AbsoluteUri;
        if (key == LocalAddress.AbsoluteUri)
        {
            problem = "the local service host is started by the dashboard itself and cannot be removed (Dashboard:StartLocalHost, Dashboard:LocalHost:Address)";
            return false;
        }

        if (!_hosts.TryRemove(key, out _))
        {
            problem = $"{address} is not a known host";
            return false;
        }

        problem = null;
        Save();
        Changed?.Invoke();
        return true;
    }

    /// <summary>Records a poll result.</summary>
    public void Report(Uri address, HostHealth health, string? detail)
    {
        var key = Normalize(address).AbsoluteUri;
        // TryUpdate: a host removed while it was being polled stays removed.
        if (_hosts.TryGetValue(key, out var old) && _hosts.TryUpdate(key, old with { Health = health, Detail = detail, CheckedUtc = DateTime.UtcNow }, old))
        {
            Changed?.Invoke(); // also when only the time of the check changed: pages show it
        }
    }

    private static Uri Normalize(Uri address) => new(address.GetLeftPart(UriPartial.Authority) + "/");

    private void Save()
    {
        lock (_fileGate)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(_file)!);
            var remote = _hosts.Values.Where(h => !h.IsLocal).Select(h => h.Address.AbsoluteUri).Order(StringComparer.Ordinal).ToArray();
            File.WriteAllText(_file, JsonSerializer.Serialize(remote));
        }
    }
}
