namespace Dashboard.Service.Contracts.Variants;

/// <summary>
/// One entry of a service host's <c>GET /endpoints</c> answer (DESIGN.md §2): a variant the host serves and where.
/// JSON: camelCase property names, an array of these.
/// </summary>
/// <param name="Name">Variant id (DESIGN.md §6).</param>
/// <param name="Binding">Binding name, e.g. <c>NetTcpBinding</c>.</param>
/// <param name="Address">Endpoint address, e.g. <c>net.tcp://localhost:5091/TcpNoSec</c>.</param>
/// <param name="SecurityMode">Security mode, e.g. <c>None</c>.</param>
/// <param name="ClientCredentialType">Client credential type, e.g. <c>None</c>.</param>
public sealed record HostEndpoint(string Name, string Binding, string Address, string SecurityMode, string ClientCredentialType);
