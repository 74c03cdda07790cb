using System.Text;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Service.Contracts.Operations;

namespace Dashboard.Runner.Clients.Lean;

/// <summary>
/// One cell's HTTP/1.1 request, encoded once (docs/driver-protocol.md, "The lean generator"): the body from the
/// <c>dotnet</c> client's own binding (the host's codecs, the ASMX-style SOAP envelopes), the headers the <c>dotnet</c>
/// client sends for it (request line, <c>Host</c>, the binding's <c>Content-Type</c> and <c>SOAPAction</c>, the
/// <c>Authorization</c> of a Basic variant, <c>Content-Length</c>), so both put the same bytes on the wire per request.
/// </summary>
public static class Http1Request
{
    /// <summary>The request bytes (head and body) of one call of <paramref name="operation"/> with <paramref name="arguments"/>, posted to <paramref name="target"/>.</summary>
    /// <param name="binding">How the variant is called (<see cref="DotNetBinding.For"/>); an HTTP/1.1 binding.</param>
    /// <param name="operation">The payload's operation.</param>
    /// <param name="arguments">The payload's arguments.</param>
    /// <param name="target">The absolute address posted to (its host and port give the <c>Host</c> header).</param>
    /// <param name="security">The Basic header of a secure variant, or <see cref="DotNetSecurity.None"/>.</param>
    /// <returns>ASCII head + body, ready to write to the socket as is.</returns>
    public static byte[] Encode(DotNetBinding binding, OperationContract operation, object?[] arguments, Uri target, DotNetSecurity security)
    {
        ArgumentNullException.ThrowIfNull(binding);
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(security);
        using var body = new MemoryStream();
        binding.WriteRequest(operation, arguments, body);
        var content = body.ToArray();
        using var request = new HttpRequestMessage(HttpMethod.Post, target) { Content = new ByteArrayContent(content) };
        binding.Describe(request, operation);
        request.Headers.Authorization = security.Authorization;

        var head = new StringBuilder();
        head.Append("POST ").Append(target.PathAndQuery).Append(" HTTP/1.1\r\n");
        head.Append("Host: ").Append(target.IsDefaultPort ? target.IdnHost : $"{target.IdnHost}:{target.Port}").Append("\r\n");
        foreach (var (name, values) in request.Headers.Concat(request.Content.Headers))
        {
            if (!name.Equals("Content-Length", StringComparison.OrdinalIgnoreCase))
            {
                head.Append(name).Append(": ").AppendJoin(", ", values).Append("\r\n");
            }
        }

        head.Append("Content-Length: ").Append(content.Length).Append("\r\n\r\n");
        var headBytes = Encoding.ASCII.GetBytes(head.ToString());
        return [.. headBytes, .. content];
    }
}
