using System.Net;
using System.Text.RegularExpressions;

namespace Dashboard.Service.Contracts.Variants;

/// <summary>
/// Writes the addresses of <c>GET /endpoints</c> for the caller (docs/topologies.md, "Remote hosts"): every network
/// address (Kestrel URL, Metro endpoint and WSDL address, Ice proxy <c>-h</c>) names the host the caller reached the
/// control API by (the request's <c>Host</c> header, e.g. <c>10.231.1.2</c> or <c>bench-server</c>), or
/// <c>ServiceHost:PublicName</c> when one is configured; Unix-socket addresses stay as they are and are flagged
/// <see cref="HostEndpoint.OnMachineOnly"/>. The JVM's WSDLs write their <c>soap:address</c> from the request's
/// <c>Host</c> header themselves (JAX-WS RI on the JDK HTTP server), so a WSDL fetched at the listed address names the
/// same host.
/// </summary>
public static partial class EndpointAddresses
{
    /// <summary>
    /// The host name to write into addresses: <paramref name="publicName"/> when set, else the host part of
    /// <paramref name="requestHost"/> (IPv6 literals keep their brackets), else <paramref name="fallback"/>.
    /// </summary>
    public static string HostFor(string? requestHost, string? publicName, string fallback)
    {
        if (!string.IsNullOrWhiteSpace(publicName))
        {
            return publicName.Trim();
        }

        if (string.IsNullOrWhiteSpace(requestHost))
        {
            return fallback;
        }

        // "name:port", "[v6]:port", "[v6]", "name": the part before the port.
        var host = requestHost.Trim();
        if (host.StartsWith('['))
        {
            var end = host.IndexOf(']', StringComparison.Ordinal);
            return end > 0 ? host[..(end + 1)] : fallback;
        }

        var colon = host.LastIndexOf(':');
        return colon > 0 ? host[..colon] : host;
    }

    /// <summary>The endpoints with every network address naming <paramref name="host"/> (see the type's summary).</summary>
    public static IReadOnlyList<HostEndpoint> For(IEnumerable<HostEndpoint> endpoints, string host)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        ArgumentException.ThrowIfNullOrWhiteSpace(host);
        return [.. endpoints.Select(e => e with { Address = Rewrite(e.Address, host), Wsdl = e.Wsdl is null ? null : Rewrite(e.Wsdl, host) })];
    }

    /// <summary>One address with its host replaced: http(s) and net.tcp URLs and Ice proxies (<c>-h HOST</c>); anything else (<c>unix:</c>) unchanged.</summary>
    public static string Rewrite(string address, string host)
    {
        ArgumentNullException.ThrowIfNull(address);
        if (address.StartsWith("http://", StringComparison.OrdinalIgnoreCase) || address.StartsWith("https://", StringComparison.OrdinalIgnoreCase)
            || address.StartsWith("net.tcp://", StringComparison.OrdinalIgnoreCase))
        {
            var builder = new UriBuilder(address) { Host = host.Trim('[', ']') };
            // UriBuilder adds the brackets of an IPv6 literal itself; the default port would be dropped: keep it written.
            var uri = builder.Uri;
            return $"{uri.Scheme}://{uri.Authority}{(uri.IsDefaultPort ? ":" + uri.Port : "")}{uri.PathAndQuery}";
        }

        if (IceHost().Match(address) is { Success: true } match)
        {
            var bare = host.Trim('[', ']');
            var written = IPAddress.TryParse(bare, out var ip) && ip.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 ? $"\"{bare}\"" : bare;
            return address[..match.Groups[1].Index] + written + address[(match.Groups[1].Index + match.Groups[1].Length)..];
        }

        return address;
    }

    [GeneratedRegex("""-h\s+("[^"]*"|\S+)""")]
    private static partial Regex IceHost();
}
