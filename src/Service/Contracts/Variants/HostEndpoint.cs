namespace Dashboard.Service.Contracts.Variants;

/// <summary>
/// One entry of a service host's <c>GET /endpoints</c> answer (docs/architecture.md): a variant the host serves and where.
/// JSON: camelCase property names, an array of these. Drivers receive it as is (docs/driver-protocol.md).
/// </summary>
/// <param name="Name">Variant id (docs/service-contract.md), e.g. <c>AspNetHttpJson</c>.</param>
/// <param name="Stack">Stack id: <c>aspnet</c>, <c>metro</c> or <c>ice</c>.</param>
/// <param name="Address">
/// Where a client connects: <c>http://localhost:5092/</c>, <c>unix:/tmp/dashboard-host/aspnet-binxml.sock</c>,
/// <c>http://localhost:5100/benchmark</c>, or an Ice proxy string (<c>benchmark:tcp -h localhost -p 5110</c>).
/// </param>
/// <param name="Transport">Transport as people say it, e.g. <c>HTTP/2 cleartext (prior knowledge)</c>.</param>
/// <param name="Encoding">Message encoding, e.g. <c>binary XML (MC-NBFX)</c>.</param>
/// <param name="SecurityMode">Security mode: <c>None</c>, <c>Transport</c>, <c>Message</c>, <c>TransportWithMessageCredential</c>, <c>TransportCredentialOnly</c>.</param>
/// <param name="CredentialType">Client credential type: <c>None</c>, <c>Basic</c>, <c>Certificate</c>, <c>UserName</c>, <c>OsIdentity</c>.</param>
/// <param name="Wsdl">Address of the variant's WSDL, or null when it has none.</param>
/// <param name="OnMachineOnly">
/// True for the local-IPC variants (Unix domain sockets): callable only by a client on the host's own machine, as the
/// thesis's named pipes were (docs/topologies.md); a runner refuses them on a cross-machine topology with that reason.
/// </param>
public sealed record HostEndpoint(
    string Name,
    string Stack,
    string Address,
    string Transport,
    string Encoding,
    string SecurityMode,
    string CredentialType,
    string? Wsdl = null,
    bool OnMachineOnly = false);
