namespace Dashboard.Web.Scenarios;

/// <summary>What the dashboard knows about one preset file of <c>examples/</c> beyond its scenario document.</summary>
/// <param name="FileName">The file, e.g. <c>preset-2-interop-quick.json</c>.</param>
/// <param name="Number">The preset's number (1–7, docs/web.md "Presets"), or null for the older example files.</param>
/// <param name="Title">Short title, e.g. "Interoperability: SOAP 1.1 with .NET, Java and Node clients".</param>
/// <param name="Document">The source document (<see cref="SourceDocuments"/>).</param>
/// <param name="Section">Where in it, e.g. "ch. 8.2, Tables 9.2 and 9.4"; empty when the whole document.</param>
/// <param name="Measures">One or two sentences: what the preset measures and what to look at.</param>
/// <param name="Part">
/// Which part of a preset the file is, e.g. "aspnet × dotnet", or null when the preset is one file. A scenario is a
/// cross product in which a client skips the variants it cannot call (ScenarioCells); the presets keep their parts, one
/// run each, so each part is a comparable run of its own; queue every part (compare them with <c>/compare?runs=…</c>).
/// </param>
/// <param name="IsQuick">True for the quick version (minutes), false for the full one.</param>
/// <param name="PairedFileName">The full version of a quick file, the quick version of a full file; null when there is none.</param>
/// <param name="RankingFromClients">The smallest concurrency level rankings should count for this preset (20 for the thesis sweeps, 1 for one-client presets).</param>
public sealed record PresetInfo(
    string FileName, int? Number, string Title, SourceDocument Document, string Section, string Measures, string? Part, bool IsQuick,
    string? PairedFileName, int RankingFromClients)
{
    /// <summary>The document in a few words and the section, e.g. "the WCF master's thesis (Blekinge Institute of Technology), ch. 8.1" (full titles: <see cref="SourceDocuments"/>).</summary>
    public string Source => Section.Length == 0 ? Document.ShortName : $"{Document.ShortName}, {Section}";
}

/// <summary>
/// The presets, one per source document (<see cref="SourceDocuments"/>) and the WCF migration, each with a quick and a full version: their files in
/// <c>examples/</c> and what the UI shows about them. The files hold plain scenario documents (runnable with
/// <c>./bench.sh FILE</c>); this catalogue holds what a scenario document has no field for.
/// </summary>
public static class PresetCatalogue
{
    /// <summary>Every known preset file: the seven presets' parts (quick and full), then the older example files.</summary>
    public static IReadOnlyList<PresetInfo> All { get; } = Build();

    /// <summary>The entry of <paramref name="fileName"/>, or null for a file the catalogue does not know.</summary>
    public static PresetInfo? Find(string fileName) => All.FirstOrDefault(p => p.FileName == fileName);

    private static List<PresetInfo> Build()
    {
        var presets = new List<PresetInfo>();
        void Preset(int number, string slug, string title, SourceDocument document, string section, string measures, int fromClients,
            params (string? Slug, string? Label)[] parts)
        {
            foreach (var (partSlug, label) in parts)
            {
                var stem = $"preset-{number}-{slug}{(partSlug is null ? "" : "-" + partSlug)}";
                presets.Add(new PresetInfo(stem + "-quick.json", number, title, document, section, measures, label, true, stem + ".json", fromClients));
                presets.Add(new PresetInfo(stem + ".json", number, title, document, section, measures, label, false, stem + "-quick.json", fromClients));
            }
        }

        Preset(1, "ipc-vs-network", "Local IPC vs network",
            SourceDocuments.Thesis, "ch. 8.1, Tables 9.1 and 9.3",
            "Response time and throughput against clients (from 20 on), unsecure and secure side by side, for on-machine " +
            "communication (HTTP/1.1 over a Unix domain socket, the named-pipe counterpart) and network transports (HTTP/2, Ice over TCP), " +
            "with server CPU and available memory over time; ranked per dataset class. The thesis's NetTcpBinding (security None, Transport, and Transport with a client certificate: TcpTptEncCert) and " +
            "WSHttpBinding (None and TransportWithMessageCredential + UserName) as WCF bindings served by .NET with WCF's own message encoders " +
            "(the dispatcher is ours), called by the WCF client; BasicHttpBinding and WSHttpBinding None also by the ASMX-style .NET, Java and Node clients. On-machine and cross-machine (an emulated " +
            "100 Mbit/s LAN, the thesis's lab: docs/topologies.md) side by side; Unix-socket variants on-machine only.",
            20,
            ("aspnet", "aspnet (Unix socket, HTTP/2) × dotnet, on-machine"),
            ("ice", "Ice (TCP, TLS) × java, on-machine"),
            ("aspnet-lan", "aspnet (HTTP/2) × dotnet, cross-machine (emulated LAN)"),
            ("ice-lan", "Ice (TCP, TLS) × java, cross-machine (emulated LAN)"),
            ("wcf", "WCF net.tcp (None, TLS, TLS + client certificate), WSHttp (None, UserName over HTTPS) and BasicHttp × wcf (and dotnet, java, node on BasicHttp and WSHttp None), on-machine"));
        Preset(2, "interop", "Interoperability: SOAP 1.1 with WCF, ASMX-style .NET, Java and Node clients",
            SourceDocuments.Thesis, "ch. 8.2, Tables 9.2 and 9.4",
            "One SOAP 1.1 service (JAX-WS Metro) called by the WCF client (ChannelFactory proxies), an ASMX-style .NET client " +
            "(hand-written envelopes), Java (JAX-WS proxies) and Node (npm soap), without security, with Basic over HTTP " +
            "(TransportCredentialOnly), over HTTPS and HTTPS + Basic; which client gets the best response time and throughput. " +
            "And the thesis's own service: BasicHttpBinding unsecure, TransportCredentialOnly + Basic and Transport as WCF bindings served by " +
            ".NET with WCF's own message encoders (the dispatcher is ours), called by the same four clients.",
            20,
            (null, "Metro SOAP 1.1 × wcf, dotnet, java, node"),
            ("wcf", "WCF BasicHttp (None, Basic, HTTPS) × wcf, dotnet, java, node"));
        Preset(3, "whitepaper", "Throughput at saturation",
            SourceDocuments.Whitepaper, "",
            "Server throughput once the CPU saturates, per operation and security mode: GetOrders (1, 10, 100 orders) over SOAP 1.1, " +
            "SOAP 1.1 over HTTPS (transport security), SOAP 1.2 + UsernameToken over HTTPS (transport with message credential) and " +
            "SOAP 1.2 with WS-Security X.509 sign and encrypt (message security); " +
            "TransferFunds and ProductInfo over Ice and HTTP/2 binary XML; GetRBytes (128 B, 4 KB, 256 KB) over a Unix socket. " +
            "The lean load generator drives every variant it can call (HTTP/2, the Unix socket, SOAP without WS-Security), so that the " +
            "server, not the client, saturates; the java client drives Ice and WS-Security, and the SOAP part that the claims pair with them.",
            20,
            ("soap", "GetOrders over Metro SOAP × java"),
            ("soap-lean", "GetOrders over Metro SOAP 1.1 and HTTPS × lean (load generator)"),
            ("ice", "TransferFunds, ProductInfo over Ice × java"),
            ("aspnet", "TransferFunds, ProductInfo over HTTP/2 binary XML × lean (load generator)"),
            ("uds", "GetRBytes over a Unix socket × lean (load generator)"),
            ("x509", "GetOrders over Metro WS-Security X.509 × java"));
        Preset(4, "ice-paper", "Round trip per data type, consecutive calls, bytes on the wire",
            SourceDocuments.IcePaper, "",
            "One client making 1,000 consecutive calls per data type: the mean round trip, the average over the first 1, 5, 10, 25, " +
            "50, 100, 250, 500, 1000 calls (the upstart; the first 3 calls are the warm-up, kept and flagged) and the request and " +
            "response bytes on the wire (the paper's Table I), Ice against SOAP, FastInfoset and HTTP/2 binary XML, and the paper's " +
            "binary WCF (the binary encoder over HTTP) against XML WCF (BasicHttpBinding), served by .NET with WCF's own encoders, with the WCF client.",
            1,
            ("java", "Ice, SOAP 1.1, FastInfoset × java"),
            ("dotnet", "HTTP/2 binary XML × dotnet"),
            ("wcf", "binary WCF and XML WCF × wcf"));
        Preset(5, "latency", "Single-call latency by data size",
            SourceDocuments.LatencyHarness, "",
            "Never more than one call in flight (one client): response time by data size from 0 B to 256 KB per variant, " +
            "for log-log charts, with CPU logged beside it; basicHttp and wsHttp as WCF bindings served by .NET with WCF's own encoders, with the WCF client.",
            1,
            ("dotnet", "aspnet and Metro variants × dotnet"),
            ("java", "Ice, FastInfoset × java"),
            ("wcf", "basicHttp, wsHttp × wcf"));
        Preset(6, "book-get256bytes", "Get256Bytes, sequential calls per binding",
            SourceDocuments.Book, "",
            "string Get256Bytes() called sequentially by one client per binding (named pipe → Unix socket, netTcp → HTTP/2 binary " +
            "XML, wsHttp → SOAP 1.2 + WS-Addressing, basicHttp → SOAP 1.1), and netTcp, basicHttp and wsHttp themselves as WCF bindings served " +
            "by .NET with WCF's own encoders (the dispatcher is ours) with the WCF client: average response time, operations per second, CPU per operation.",
            1,
            (null, "Unix socket, HTTP/2 binary XML, Metro SOAP × dotnet"),
            ("wcf", "WCF netTcp, basicHttp, wsHttp × wcf"));

        Preset(7, "wcf-migration", "WCF migration: the WCF client on SOAP vs gRPC vs JSON vs Ice",
            SourceDocuments.Migration, "",
            "The thesis's own client technology, the WCF client (System.ServiceModel ChannelFactory over BasicHttpBinding and " +
            "WSHttpBinding), against what a WCF service is migrated to: gRPC (Grpc.Net.Client, over HTTP/2 cleartext and over TLS with a " +
            "client certificate, NetTcp's TcpTptEncCert successor), JSON over HTTP and HTTPS, and Ice over TCP and TLS; response time, " +
            "throughput and bytes on the wire per payload.",
            20,
            ("wcf", "SOAP 1.1 and 1.2 × wcf"),
            ("dotnet", "gRPC and JSON × dotnet"),
            ("ice", "Ice (TCP, TLS) × java"));

        // The example files from before the presets; kept because README, run.sh and bench.sh name them.
        presets.Add(new PresetInfo("thesis-quick.json", null, "Thesis quick: aspnet variants", SourceDocuments.Thesis, "ch. 8",
            "The four unsecure aspnet variants × 4 payloads × 1, 10, 20, 50 clients, dotnet.", null, true, "thesis-full.json", 20));
        presets.Add(new PresetInfo("thesis-full.json", null, "Thesis full: aspnet variants", SourceDocuments.Thesis, "ch. 8",
            "The four unsecure aspnet variants × the 20 thesis payloads × the thesis sweep, dotnet.", null, false, "thesis-quick.json", 20));
        presets.Add(new PresetInfo("interop-quick.json", null, "Interop quick: SOAP 1.1 and 1.2", SourceDocuments.Thesis, "ch. 8.2",
            "MetroSoap11, MetroSoap12Wsa × wcf, dotnet (ASMX-style), java, node × String500, UDTypeArray1000 × 1, 10, 20 clients.", null, true, null, 20));
        presets.Add(new PresetInfo("ice-thesis-quick.json", null, "Ice quick: the 20 thesis payloads", SourceDocuments.IcePaper, "and the thesis ch. 7.3",
            "IceTcp × java × the 20 thesis payloads × 1, 10 clients.", null, true, null, 1));
        return presets;
    }
}
