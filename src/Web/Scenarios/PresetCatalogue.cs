namespace Dashboard.Web.Scenarios;

/// <summary>What the dashboard knows about one preset file of <c>examples/</c> beyond its scenario document.</summary>
/// <param name="FileName">The file, e.g. <c>preset-2-interop-quick.json</c>.</param>
/// <param name="Number">The preset's number (1–7, docs/web.md "Presets"), or null for the older example files.</param>
/// <param name="Title">Short title, e.g. "Interoperability: SOAP 1.1 with .NET, Java and Node clients".</param>
/// <param name="Source">The source document and section, e.g. "Thesis ch. 8.2, Tables 9.2 and 9.4 (seed 000)".</param>
/// <param name="Measures">One or two sentences: what the preset measures and what to look at.</param>
/// <param name="Part">
/// Which part of a preset the file is, e.g. "aspnet × dotnet", or null when the preset is one file. A scenario is a
/// cross product (every client calls every variant), so a preset whose variants need different client
/// technologies (Ice needs <c>java</c>, aspnet binary XML needs <c>dotnet</c>) is split into parts, one run each;
/// queue every part (compare them with <c>/compare?runs=…</c>).
/// </param>
/// <param name="IsQuick">True for the quick version (minutes), false for the full one.</param>
/// <param name="EstimatedDuration">
/// Rough wall time on an otherwise idle 2-core development machine, runner and driver start-up included: from the
/// request counts and the reference throughputs measured on these machines, checked against runs of the quick files' unsecure variants
/// (docs/web.md, "Presets"). Secure variants and a busy machine take longer.
/// </param>
/// <param name="PairedFileName">The full version of a quick file, the quick version of a full file; null when there is none.</param>
/// <param name="RankingFromClients">The smallest concurrency level rankings should count for this preset (20 for the thesis sweeps, 1 for one-client presets).</param>
public sealed record PresetInfo(
    string FileName, int? Number, string Title, string Source, string Measures, string? Part, bool IsQuick,
    TimeSpan EstimatedDuration, string? PairedFileName, int RankingFromClients);

/// <summary>
/// The presets, one per source document (and preset 7, the WCF migration), each with a quick and a full version: their files in
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
        void Preset(int number, string slug, string title, string source, string measures, int fromClients,
            params (string? Slug, string? Label, TimeSpan Quick, TimeSpan Full)[] parts)
        {
            foreach (var (partSlug, label, quick, full) in parts)
            {
                var stem = $"preset-{number}-{slug}{(partSlug is null ? "" : "-" + partSlug)}";
                presets.Add(new PresetInfo(stem + "-quick.json", number, title, source, measures, label, true, quick, stem + ".json", fromClients));
                presets.Add(new PresetInfo(stem + ".json", number, title, source, measures, label, false, full, stem + "-quick.json", fromClients));
            }
        }

        static TimeSpan M(double minutes) => TimeSpan.FromMinutes(minutes);

        Preset(1, "ipc-vs-network", "Local IPC vs network",
            "Thesis ch. 8.1, Tables 9.1 and 9.3 (seed 000)",
            "Response time and throughput against clients (from 20 on), unsecure and secure side by side, for on-machine " +
            "communication (HTTP/1.1 over a Unix domain socket, the named-pipe counterpart) and network transports (HTTP/2, Ice over TCP), " +
            "with server CPU and available memory over time; ranked per dataset class. On-machine and cross-machine (an emulated " +
            "100 Mbit/s LAN, the thesis's lab: docs/topologies.md) side by side; Unix-socket variants on-machine only.",
            20,
            ("aspnet", "aspnet (Unix socket, HTTP/2) × dotnet, on-machine", M(3), M(180)),
            ("ice", "Ice (TCP, TLS) × java, on-machine", M(2), M(60)),
            ("aspnet-lan", "aspnet (HTTP/2) × dotnet, cross-machine (emulated LAN)", M(2.5), M(120)),
            ("ice-lan", "Ice (TCP, TLS) × java, cross-machine (emulated LAN)", M(2.5), M(60)));
        Preset(2, "interop", "Interoperability: SOAP 1.1 with WCF, ASMX-style .NET, Java and Node clients",
            "Thesis ch. 8.2, Tables 9.2 and 9.4 (seed 000)",
            "One SOAP 1.1 service (JAX-WS Metro) called by the WCF client (ChannelFactory proxies), an ASMX-style .NET client " +
            "(hand-written envelopes), Java (JAX-WS proxies) and Node (npm soap), without security, with Basic over HTTP " +
            "(TransportCredentialOnly), over HTTPS and HTTPS + Basic; which client gets the best response time and throughput.",
            20,
            (null, null, M(8), M(1920)));
        Preset(3, "whitepaper", "Throughput at saturation",
            "Microsoft whitepaper: WCF vs ASMX, WSE, Enterprise Services, Remoting (seed 001)",
            "Server throughput once the CPU saturates, per operation and security mode: GetOrders (1, 10, 100 orders) over SOAP 1.1, " +
            "SOAP 1.1 over HTTPS (transport security) and SOAP 1.2 + UsernameToken over HTTPS (transport with message credential); " +
            "TransferFunds and ProductInfo over Ice and HTTP/2 binary XML; GetRBytes (128 B, 4 KB, 256 KB) over a Unix socket.",
            20,
            ("soap", "GetOrders over Metro SOAP × java", M(4), M(60)),
            ("ice", "TransferFunds, ProductInfo over Ice × java", M(1.5), M(20)),
            ("aspnet", "TransferFunds, ProductInfo over HTTP/2 binary XML × dotnet", M(1.5), M(20)),
            ("uds", "GetRBytes over a Unix socket × dotnet", M(2), M(30)));
        Preset(4, "ice-paper", "Round trip per data type, consecutive calls, bytes on the wire",
            "Rahbek, Vraa, Wagner: WCF vs ZeroC Ice on .NET (seed 002)",
            "One client making 1,000 consecutive calls per data type: the mean round trip, the average over the first 1, 5, 10, 25, " +
            "50, 100, 250, 500, 1000 calls (the upstart; the first 3 calls are the warm-up, kept and flagged) and the request and " +
            "response bytes on the wire (the paper's Table I), Ice against SOAP, FastInfoset and HTTP/2 binary XML.",
            1,
            ("java", "Ice, SOAP 1.1, FastInfoset × java", M(1.5), M(5)),
            ("dotnet", "HTTP/2 binary XML × dotnet", M(0.5), M(2)));
        Preset(5, "latency", "Single-call latency by data size",
            "WCF Latency Test Harness (seed 003)",
            "Never more than one call in flight (one client): response time by data size from 0 B to 256 KB per variant, " +
            "for log-log charts, with CPU logged beside it.",
            1,
            ("dotnet", "aspnet and Metro variants × dotnet", M(2), M(20)),
            ("java", "Ice, FastInfoset × java", M(1), M(8)));
        Preset(6, "book-get256bytes", "Get256Bytes, sequential calls per binding",
            "Book chapter: Comparing binding performance and scalability (seed 004)",
            "string Get256Bytes() called sequentially by one client per binding (named pipe → Unix socket, netTcp → HTTP/2 binary " +
            "XML, wsHttp → SOAP 1.2 + WS-Addressing, basicHttp → SOAP 1.1): average response time, operations per second, CPU per operation.",
            1,
            (null, null, M(1.5), M(12)));

        Preset(7, "wcf-migration", "WCF migration: the WCF client on SOAP vs gRPC vs JSON vs Ice",
            "Beyond the seeds: the question a team leaving WCF asks today (Microsoft's migration guidance points NetTcp services to gRPC)",
            "The thesis's own client technology, the WCF client (System.ServiceModel ChannelFactory over BasicHttpBinding and " +
            "WSHttpBinding), against what a WCF service is migrated to: gRPC (Grpc.Net.Client, over HTTP/2 cleartext and over TLS with a " +
            "client certificate, NetTcp's TcpTptEncCert successor), JSON over HTTP and HTTPS, and Ice over TCP and TLS; response time, " +
            "throughput and bytes on the wire per payload.",
            20,
            ("wcf", "SOAP 1.1 and 1.2 × wcf", M(4), M(150)),
            ("dotnet", "gRPC and JSON × dotnet", M(4), M(220)),
            ("ice", "Ice (TCP, TLS) × java", M(2), M(100)));

        // The example files from before the presets; kept because README, run.sh and bench.sh name them.
        presets.Add(new PresetInfo("thesis-quick.json", null, "Thesis quick: aspnet variants", "Thesis ch. 8 (seed 000)",
            "The four unsecure aspnet variants × 4 payloads × 1, 10, 20, 50 clients, dotnet.", null, true, M(4), "thesis-full.json", 20));
        presets.Add(new PresetInfo("thesis-full.json", null, "Thesis full: aspnet variants", "Thesis ch. 8 (seed 000)",
            "The four unsecure aspnet variants × the 20 thesis payloads × the thesis sweep, dotnet.", null, false, M(60), "thesis-quick.json", 20));
        presets.Add(new PresetInfo("interop-quick.json", null, "Interop quick: SOAP 1.1 and 1.2", "Thesis ch. 8.2 (seed 000)",
            "MetroSoap11, MetroSoap12Wsa × wcf, dotnet (ASMX-style), java, node × String500, UDTypeArray1000 × 1, 10, 20 clients.", null, true, M(8), null, 20));
        presets.Add(new PresetInfo("ice-thesis-quick.json", null, "Ice quick: the 20 thesis payloads", "Seed 002 and thesis ch. 7.3",
            "IceTcp × java × the 20 thesis payloads × 1, 10 clients.", null, true, M(3), null, 1));
        return presets;
    }
}
