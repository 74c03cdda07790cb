using System.Collections.Concurrent;
using System.Net;
using System.Text.Json;
using Dashboard.Service.Contracts.Scenarios;
using Dashboard.Service.Contracts.Security;
using Dashboard.Web.Options;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Hosts;

/// <summary>
/// The service hosts the dashboard knows, which are the only hosts a run queued here may target (docs/security.md): the
/// local one, and remote ones registered by address with their control token (kept in <c>hosts.json</c> in the data
/// folder, mode 0600), each with its last health check. The tokens are sent to their hosts only: never in a
/// <see cref="HostStatus"/>, an API answer or a log line.
/// </summary>
public sealed class HostRegistry
{
    private readonly ConcurrentDictionary<string, HostStatus> _hosts = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<string, string> _tokens = new(StringComparer.OrdinalIgnoreCase);
    private readonly string _file;
    private readonly Lock _fileGate = new();
    private readonly LocalHostOptions _local;

    /// <summary>Loads the registered hosts and registers the local one.</summary>
    public HostRegistry(IOptions<DashboardOptions> dashboard, IOptions<LocalHostOptions> local)
    {
        ArgumentNullException.ThrowIfNull(dashboard);
        ArgumentNullException.ThrowIfNull(local);
        _local = local.Value;
        LocalAddress = Normalize(_local.Address);
        _file = Path.Combine(dashboard.Value.DataFolderPath, "hosts.json");
        _hosts[LocalAddress.AbsoluteUri] = new HostStatus(LocalAddress, true, HostHealth.Unknown, null, null);
        if (File.Exists(_file))
        {
            foreach (var (address, token) in ReadFile(File.ReadAllText(_file)))
            {
                if (Uri.TryCreate(address, UriKind.Absolute, out var uri) && _hosts.TryAdd(Normalize(uri).AbsoluteUri, new HostStatus(Normalize(uri), false, HostHealth.Unknown, null, null))
                    && !string.IsNullOrEmpty(token))
                {
                    _tokens[Normalize(uri).AbsoluteUri] = token;
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
    public HostStatus? Find(Uri address) => _hosts.GetValueOrDefault(Key(address));

    /// <summary>
    /// True when <paramref name="address"/> is a host a run may target: the local host (under any loopback name with its
    /// port: <c>localhost</c>, <c>127.0.0.1</c>, <c>[::1]</c>) or a registered one.
    /// </summary>
    public bool IsRegistered(Uri address) => _hosts.ContainsKey(Key(address));

    /// <summary>
    /// Refuses a scenario whose <c>host</c> is not a registered host (<see cref="IsRegistered"/>): what the dashboard
    /// queues (POST /api/runs, the New run page, presets, recurring runs, run again) may only load those. The runner's own
    /// command line is not bound by it.
    /// </summary>
    /// <exception cref="ScenarioException">Field <c>host</c>: not a registered service host.</exception>
    public void EnsureTarget(ScenarioDocument scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (!Uri.TryCreate(scenario.Host, UriKind.Absolute, out var address) || !IsRegistered(address))
        {
            throw new ScenarioException("host", $"'{scenario.Host}' is not a registered service host; an Admin registers hosts on the Hosts page");
        }
    }

    /// <summary>
    /// The control token to send to the host at <paramref name="address"/>: for the local host <c>Dashboard:LocalHost:ControlToken</c>,
    /// else the one it made in its security folder (read each time until it exists); for a registered host the token it was
    /// registered with; null for an unknown host or when the local host has made none yet.
    /// </summary>
    public string? ControlTokenFor(Uri address)
    {
        ArgumentNullException.ThrowIfNull(address);
        var key = Key(address);
        if (key == LocalAddress.AbsoluteUri)
        {
            return LocalControlToken;
        }

        return _tokens.GetValueOrDefault(key);
    }

    /// <summary>The local host's control token: <c>Dashboard:LocalHost:ControlToken</c>, else its security folder's <c>control-token</c>; null when neither exists yet.</summary>
    public string? LocalControlToken =>
        string.IsNullOrEmpty(_local.ControlToken) ? HostControlToken.ReadFile(_local.SecurityDirectory) : _local.ControlToken;

    /// <summary>
    /// Registers a remote host with its control token (again: replaces the token); false with a reason when the address is
    /// not an absolute http(s) address or the token is missing or has spaces.
    /// </summary>
    public bool TryAdd(string address, string? token, out string? problem)
    {
        if (!Uri.TryCreate(address?.Trim(), UriKind.Absolute, out var uri) || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps))
        {
            problem = $"'{address}' is not an absolute http:// or https:// address, e.g. http://bench-server:5090";
            return false;
        }

        token = token?.Trim();
        if (string.IsNullOrEmpty(token) || token.Any(c => c <= ' ' || c > '~'))
        {
            problem = "token: give the host's control token (its ServiceHost:ControlToken, or the control-token file of its security folder; docs/security.md)";
            return false;
        }

        problem = null;
        uri = Normalize(uri);
        if (uri.AbsoluteUri == LocalAddress.AbsoluteUri)
        {
            problem = "the local service host is registered already (its token is Dashboard:LocalHost:ControlToken or its own control-token file)";
            return false;
        }

        _tokens[uri.AbsoluteUri] = token;
        _hosts.TryAdd(uri.AbsoluteUri, new HostStatus(uri, false, HostHealth.Unknown, null, null));
        Save();
        Changed?.Invoke();
        return true;
    }

    /// <summary>
    /// Forgets the remote host at <paramref name="address"/> and its token (and drops them from <c>hosts.json</c>); false
    /// with a reason for the local host, which the dashboard starts itself, and for an address it does not know.
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

        _tokens.TryRemove(key, out _);
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

    // The registry's key of an address: the local host's under any loopback name with its port.
    private string Key(Uri address)
    {
        var normalized = Normalize(address);
        return normalized.Port == LocalAddress.Port && IsLoopback(normalized) && IsLoopback(LocalAddress) ? LocalAddress.AbsoluteUri : normalized.AbsoluteUri;
    }

    private static bool IsLoopback(Uri address) =>
        address.IsLoopback || (IPAddress.TryParse(address.DnsSafeHost, out var ip) && IPAddress.IsLoopback(ip));

    // hosts.json: [{"address": "...", "token": "..."}], or the older list of addresses (no tokens).
    private static IEnumerable<(string Address, string? Token)> ReadFile(string json)
    {
        using var document = JsonDocument.Parse(json);
        foreach (var entry in document.RootElement.EnumerateArray())
        {
            if (entry.ValueKind == JsonValueKind.String)
            {
                yield return (entry.GetString()!, null);
            }
            else if (entry.ValueKind == JsonValueKind.Object && entry.TryGetProperty("address", out var address) && address.ValueKind == JsonValueKind.String)
            {
                yield return (address.GetString()!, entry.TryGetProperty("token", out var token) && token.ValueKind == JsonValueKind.String ? token.GetString() : null);
            }
        }
    }

    private void Save()
    {
        lock (_fileGate)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(_file)!);
            var remote = _hosts.Values.Where(h => !h.IsLocal).Select(h => h.Address.AbsoluteUri).Order(StringComparer.Ordinal)
                .Select(a => new { address = a, token = _tokens.GetValueOrDefault(a) }).ToArray();
            // The tokens are secrets: the file is the owner's only, written whole under a new name and renamed.
            var temporary = _file + ".tmp";
            var owner = UnixFileMode.UserRead | UnixFileMode.UserWrite;
            var create = new FileStreamOptions { Mode = FileMode.Create, Access = FileAccess.Write };
            if (!OperatingSystem.IsWindows())
            {
                create.UnixCreateMode = owner;
            }

            using (var stream = new FileStream(temporary, create))
            {
                JsonSerializer.Serialize(stream, remote);
            }

            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(temporary, owner); // a .tmp left by a crash keeps its old mode otherwise
            }

            File.Move(temporary, _file, overwrite: true);
        }
    }
}
