using System.Diagnostics.CodeAnalysis;

namespace Dashboard.Data.Claims;

/// <summary>
/// Every claim of the source documents the product checks (docs/claims.md), as data: the one catalogue of claims.
/// Quotes are copied from the documents' text; where a claim names technologies this build does not have (WCF
/// services, Windows credentials, named pipes, .NET Remoting), the claim either compares the nearest equivalents the
/// variant catalogue lists (docs/web.md) or says why it is not measurable here.
/// </summary>
public static class ClaimCatalogue
{
    /// <summary>Key of the master's thesis.</summary>
    public const string Thesis = "thesis";

    /// <summary>Key of Microsoft's whitepaper.</summary>
    public const string Whitepaper = "whitepaper";

    /// <summary>Key of the Ice paper.</summary>
    public const string IcePaper = "ice-paper";

    /// <summary>Key of the latency harness blog post.</summary>
    public const string LatencyHarness = "latency-harness";

    /// <summary>Key of the book chapter.</summary>
    public const string Book = "book";

    /// <summary>The documents' titles by key.</summary>
    public static IReadOnlyDictionary<string, string> Titles { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        [Thesis] = "Performance evaluation of WCF in unsecure and secure variants, on-machine and cross-machine, and its interoperability with ASMX and Java",
        [Whitepaper] = "A Performance Comparison of Windows Communication Foundation (WCF) with Existing Distributed Communication Technologies",
        [IcePaper] = "Performance Comparison of Selected Object Oriented Middleware Technologies for the .NET Platform",
        [LatencyHarness] = "WCF Latency Test Harness and WCF Performance",
        [Book] = "Comparing Binding Performance and Scalability",
    };

    /// <summary>Topology of a run on one machine (loopback, Unix sockets).</summary>
    public const string SameMachine = "same-machine";

    /// <summary>Topology of a run whose host is in its own network namespace behind a shaped link (the thesis's cross-machine).</summary>
    public const string EmulatedLan = "emulated-lan";

    /// <summary>Every claim, thesis first, then whitepaper, Ice paper, latency harness, book chapter.</summary>
    /// <remarks>Built on first use, after every static field of this class has its value.</remarks>
    public static IReadOnlyList<Claim> All => Catalogue.Value;

    private static readonly Lazy<List<Claim>> Catalogue = new(Build);

    /// <summary>Finds a claim by id.</summary>
    public static bool TryGet(string id, [NotNullWhen(true)] out Claim? claim)
    {
        claim = All.FirstOrDefault(c => c.Id == id);
        return claim is not null;
    }

    private static ClaimSource Source(string document, string section, string quote) => new(document, Titles[document], section, quote);

    private static LevelFilter V(params string[] variants) => new(Variants: variants);

    private static Contrast Variants(string a, string b, LevelFilter? scope = null) =>
        new($"{a} vs {b}", (scope ?? new LevelFilter()) with { Variants = [a] }, (scope ?? new LevelFilter()) with { Variants = [b] }, MatchOn.AllButVariant);

    private static Contrast ClientsOf(string a, string b, LevelFilter scope) =>
        new($"{a} vs {b}", scope with { Clients = [a] }, scope with { Clients = [b] }, MatchOn.AllButClient);

    private static Contrast Topologies(string a, string b, LevelFilter scope) =>
        new($"{a} vs {b}", scope with { Topology = a }, scope with { Topology = b }, MatchOn.AllButTopology);

    // The thesis reads its results from 20 clients on (ch. 8).
    private static readonly LevelFilter FromTwenty = new(MinClients: 20);
    private static readonly LevelFilter OneClient = new(MinClients: 1, MaxClients: 1);

    // The book chapter's one operation, called sequentially by one client (seed 004).
    private static readonly LevelFilter Get256BytesOneClient = new(Payloads: ["Get256Bytes"], MinClients: 1, MaxClients: 1);

    // Unsecure vs secure pairs of one stack and transport: the thesis's Table 7.2 counterparts (docs/security.md).
    private static readonly (string Unsecure, string Secure)[] SecurityPairs =
    [
        ("AspNetUdsBinXml", "AspNetUdsBinXmlPeer"),
        ("AspNetH2BinXml", "AspNetH2TlsBinXmlCert"),
        ("AspNetHttpJson", "AspNetHttpsJson"),
        ("AspNetHttpJson", "AspNetHttpsJsonBasic"),
        ("IceTcp", "IceSsl"),
        ("MetroSoap11", "MetroSoap11Basic"),
        ("MetroSoap11", "MetroSoap11Https"),
        ("MetroSoap11", "MetroSoap11HttpsBasic"),
    ];

    // Network variants of preset 1, the ones that can run in both topologies (Unix sockets are on-machine only).
    private static readonly LevelFilter Preset1Network = new(Variants: ["AspNetH2BinXml", "AspNetH2TlsBinXmlCert", "IceTcp", "IceSsl"], MinClients: 20);
    private static readonly LevelFilter Preset1NetworkUnsecure = new(Variants: ["AspNetH2BinXml", "IceTcp"], MinClients: 20);

    // The thesis's interoperability experiments (ch. 8.2): one SOAP service (BasicHttpBinding), clients of three technologies.
    private static readonly LevelFilter InteropFromTwenty = new(
        Variants: ["MetroSoap11", "MetroSoap11Basic", "MetroSoap11Https", "MetroSoap11HttpsBasic", "MetroSoap12Wsa"], MinClients: 20);

    private static readonly string[] SmallTypes = ["Empty", "Byte", "Int", "Double", "StringEmpty", "String1", "Object", "UDType"];

    private const string WindowsCredentials = "Windows credentials (Negotiate/Kerberos, NTLM) need a Kerberos realm or a Windows domain, which this machine does not have";
    private const string NamedPipes = "named pipes and WCF's protection levels Sign vs EncryptAndSign are WCF transports and settings that only a WCF or CoreWCF service offers; this build has no CoreWCF, and TLS always encrypts";
    private const string NoWcfService = "it compares WCF services with ASP.NET (ASMX), .NET Remoting or WSE services: this build serves neither a WCF service (no CoreWCF in the registry) nor those older .NET stacks, which do not run on .NET 10";

    private static List<Claim> Build() =>
    [
        // ---- Thesis ch. 9 ----
        new("thesis-9.3-unsecure-beats-secure-throughput",
            "Unsecure variants have higher throughput than their secure counterparts, in every pair.",
            Source(Thesis, "ch. 9.3", "The unsecure implementation of WCF service showed better response time and throughput than secure variants in all cases of NetNamedPipeBinding, NetTcpBinding and BasicHttpBinding."),
            [1, 2], ClaimMetric.Throughput, ClaimComparison.Better,
            [.. SecurityPairs.Select(p => Variants(p.Unsecure, p.Secure, FromTwenty))]),
        new("thesis-9.3-unsecure-beats-secure-response-time",
            "Unsecure variants have lower mean response time than their secure counterparts, in every pair.",
            Source(Thesis, "ch. 9.3", "The unsecure implementation of WCF service showed better response time and throughput than secure variants in all cases of NetNamedPipeBinding, NetTcpBinding and BasicHttpBinding."),
            [1, 2], ClaimMetric.MeanResponseTime, ClaimComparison.Better,
            [.. SecurityPairs.Select(p => Variants(p.Unsecure, p.Secure, FromTwenty))]),
        new("thesis-9.3-unsecure-less-cpu",
            "Unsecure variants use less server CPU than their secure counterparts at the same load.",
            Source(Thesis, "ch. 9.3", "Similarly, unsecure variants of WCF service used lesser CPU processing than the secure variants."),
            [1, 2], ClaimMetric.ServerCpu, ClaimComparison.Better,
            [.. SecurityPairs.Select(p => Variants(p.Unsecure, p.Secure, FromTwenty))]),
        new("thesis-9.1.1-cross-machine-throughput",
            "Cross-machine (emulated LAN) has higher throughput than on-machine, for the unsecure network variants.",
            Source(Thesis, "ch. 9.1.1", "The experiments results also showed that the service performed stable and best throughput in cross machine communication."),
            [1], ClaimMetric.Throughput, ClaimComparison.Better,
            [Topologies(EmulatedLan, SameMachine, Preset1NetworkUnsecure)]),
        new("thesis-9.1.1-cross-machine-less-cpu",
            "Cross-machine, the server's process uses less CPU than on-machine.",
            Source(Thesis, "ch. 9.1.1", "We investigated from the resource utilization that the service in cross-machine communication required lesser processing and memory than on-machine communication."),
            [1], ClaimMetric.ServerCpu, ClaimComparison.Better,
            [Topologies(EmulatedLan, SameMachine, Preset1NetworkUnsecure)]),
        new("thesis-9.1.1-cross-machine-more-memory",
            "Cross-machine, the server machine has more memory available than on-machine.",
            Source(Thesis, "ch. 9.1.1", "We investigated from the resource utilization that the service in cross-machine communication required lesser processing and memory than on-machine communication."),
            [1], ClaimMetric.AvailableMemory, ClaimComparison.Better,
            [Topologies(EmulatedLan, SameMachine, Preset1NetworkUnsecure)]),
        new("thesis-9.1.1-small-data-cross-machine-response-time",
            "On small datasets, cross-machine has the lower mean response time.",
            Source(Thesis, "ch. 9.1.1", "The experiments results on small datasets showed that WCF service in cross-machine communication performed best response time."),
            [1], ClaimMetric.MeanResponseTime, ClaimComparison.Better,
            [Topologies(EmulatedLan, SameMachine, Preset1NetworkUnsecure with { PayloadClass = "Small" })]),
        new("thesis-9.1.1-large-data-on-machine-response-time",
            "On large datasets, on-machine has the lower mean response time.",
            Source(Thesis, "ch. 9.1.1", "However, on large datasets and empty method the Service in on-machine communication performed best response time."),
            [1], ClaimMetric.MeanResponseTime, ClaimComparison.Better,
            [Topologies(SameMachine, EmulatedLan, Preset1NetworkUnsecure with { PayloadClass = "Large" })]),
        new("thesis-9.1.2-dotnet-clients-beat-java-throughput",
            "The service gives the WCF client and the ASMX-style client higher throughput than the Java client.",
            Source(Thesis, "ch. 9.1.2", "The service performed better throughput for WCF and ASMX clients than Java client in all cases."),
            [2], ClaimMetric.Throughput, ClaimComparison.Better,
            [ClientsOf("wcf", "java", InteropFromTwenty), ClientsOf("dotnet", "java", InteropFromTwenty)]),
        new("thesis-9.1.2-dotnet-clients-beat-java-response-time",
            "The service gives the WCF client and the ASMX-style client lower mean response time than the Java client.",
            Source(Thesis, "ch. 9.1.2", "The experiments results also showed that the service provided better response time for WCF and ASMX clients than Java client in all cases."),
            [2], ClaimMetric.MeanResponseTime, ClaimComparison.Better,
            [ClientsOf("wcf", "java", InteropFromTwenty), ClientsOf("dotnet", "java", InteropFromTwenty)]),
        new("thesis-9.2.1-transport-beats-message-security",
            "Transport security has higher throughput than message security (UserName credentials, or X.509 signature and encryption).",
            Source(Thesis, "ch. 9.2.1", "NetTcpBinding Transport security mode using Certificate credentials showed better throughput and lesser processing than NetTcpBinding with Message security mode using Windows and UserName credentials."),
            [3], ClaimMetric.Throughput, ClaimComparison.Better,
            [Variants("MetroSoap11Https", "MetroSoap12WsaUserNameHttps", FromTwenty), Variants("MetroSoap11Https", "MetroSoap12WsaX509", FromTwenty)]),
        new("thesis-9.2.1-windows-transport-best",
            "TCP transport security with Windows credentials has the best throughput and least processing of the secure variants.",
            Source(Thesis, "ch. 9.2.1", "NetTcpBinding with Transport security mode having protection level Sign; and Encrypt and Sign; and using Windows credentials showed better throughput and lesser processing than all other its secure variants and both secure variants of NetNamedPipeBinding."),
            [1], ClaimMetric.Throughput, ClaimComparison.Better, [])
        {
            NotMeasurableReason = WindowsCredentials,
            RelatedVariants = ["AspNetH2TlsBinXmlCert", "AspNetUdsBinXmlPeer", "IceSsl"],
        },
        new("thesis-9.2.1-sign-beats-encrypt-and-sign",
            "Protection level Sign has lower response time than Encrypt and Sign, over named pipes and TCP.",
            Source(Thesis, "ch. 9.2.1", "In both bindings, protection level Sign showed response time better than the protection level Encrypt and Sign."),
            [1], ClaimMetric.MeanResponseTime, ClaimComparison.Better, [])
        {
            NotMeasurableReason = NamedPipes,
            RelatedVariants = ["AspNetUdsBinXmlPeer", "AspNetH2TlsBinXmlCert"],
        },
        new("thesis-9.2.2-basic-beats-windows-ntlm",
            "With the WCF client, Basic credentials give lower response time than Windows and NTLM credentials.",
            Source(Thesis, "ch. 9.2.2", "In secure variants, the service performed better response time for WCF client using Basic credentials than the WCF clients using Windows and NTLM credentials."),
            [2], ClaimMetric.MeanResponseTime, ClaimComparison.Better, [])
        {
            NotMeasurableReason = WindowsCredentials,
            RelatedVariants = ["MetroSoap11Basic", "MetroSoap11HttpsBasic"],
        },

        // ---- Whitepaper (seed 001) ----
        new("whitepaper-message-credentials-beat-ws-security",
            "Transport security with message credentials (UserName over HTTPS) has 2.29–3.77 times the throughput of full WS-Security (X.509 signature and encryption).",
            Source(Whitepaper, "IIS Hosted Interoperable Web Service using WS-Security, Figure 5", "The chart shows that the single processor scenario performance of WCF (Message Credentials) is better than WCF with WS Security by 129%, 166% and 277% for 1, 10 and 100 messages, respectively."),
            [3], ClaimMetric.Throughput, ClaimComparison.RatioInRange,
            [Variants("MetroSoap12WsaUserNameHttps", "MetroSoap12WsaX509", FromTwenty)])
        {
            RangeLow = 2.29,
            RangeHigh = 3.77,
        },
        new("whitepaper-wcf-beats-asmx",
            "A WCF service has 19–48 % more throughput than an ASMX service.",
            Source(Whitepaper, "IIS Hosted Interoperable Basic Profile 1.0 Web Service, Figure 1", "WCF outperforms ASMX by 27%, 31% and 48% for 1, 10 and 100 objects in a message, respectively."),
            [3], ClaimMetric.Throughput, ClaimComparison.RatioInRange, [])
        {
            RangeLow = 1.19,
            RangeHigh = 1.48,
            NotMeasurableReason = NoWcfService,
            RelatedVariants = ["MetroSoap11"],
        },
        new("whitepaper-wcf-beats-remoting",
            "WCF over named pipes has about 29–30 % more throughput than .NET Remoting for small byte arrays.",
            Source(Whitepaper, "Request/Reply Named Pipe Application, Figure 12", "As seen in Figure 12, WCF outperforms .NET Remoting by 29% and 30% for message payloads of 128 bytes and 4k bytes, respectively."),
            [3], ClaimMetric.Throughput, ClaimComparison.RatioInRange, [])
        {
            RangeLow = 1.18,
            RangeHigh = 1.38,
            NotMeasurableReason = NoWcfService,
            RelatedVariants = ["AspNetUdsBinXml"],
        },

        // ---- Ice paper (seed 002) ----
        new("ice-paper-binary-halves-xml-overhead",
            "A binary encoding's overhead per message is a little less than half of SOAP text XML's (Table I: 68 vs 162 bytes).",
            Source(IcePaper, "III.C, Table I", "The binary version is a little more than halved, whereas the overhead in Ice is about halved once again."),
            [4], ClaimMetric.OverheadPerMessage, ClaimComparison.RatioInRange,
            [Variants("MetroSoap11FastInfoset", "MetroSoap11", new LevelFilter(Payloads: SmallTypes))])
        {
            RangeLow = 0.3,
            RangeHigh = 0.6,
        },
        new("ice-paper-ice-halves-binary-overhead",
            "Ice's overhead per message is about half of a binary SOAP encoding's (Table I: ~34 vs 68 bytes).",
            Source(IcePaper, "III.C, Table I", "The binary version is a little more than halved, whereas the overhead in Ice is about halved once again."),
            [4], ClaimMetric.OverheadPerMessage, ClaimComparison.RatioInRange,
            [Variants("IceTcp", "MetroSoap11FastInfoset", new LevelFilter(Payloads: SmallTypes))])
        {
            RangeLow = 0.35,
            RangeHigh = 0.65,
        },
        new("ice-paper-xml-twice-binary-bytes",
            "SOAP text XML puts more than twice the bytes of a binary encoding on the wire for small data types.",
            Source(IcePaper, "III.B.1, Figure 3", "The average payload here is more than twice the size of the binary WCF's payload."),
            [4], ClaimMetric.WireBytes, ClaimComparison.RatioInRange,
            [Variants("MetroSoap11", "MetroSoap11FastInfoset", new LevelFilter(Payloads: SmallTypes))])
        {
            RangeLow = 2,
            RangeHigh = null,
        },
        new("ice-paper-ice-faster-round-trip",
            "Ice has a lower round-trip time than SOAP, text or binary, one call at a time.",
            Source(IcePaper, "III.A, Figure 2", "To the contrary, Ice shows that it is even faster than both of the WCF roundtrips."),
            [4], ClaimMetric.MeanResponseTime, ClaimComparison.Better,
            [Variants("IceTcp", "MetroSoap11", OneClient), Variants("IceTcp", "MetroSoap11FastInfoset", OneClient)]),
        new("ice-paper-ice-faster-upstart",
            "Ice's first calls are faster than those of SOAP, text or binary (upstart).",
            Source(IcePaper, "III.D, Figure 7", "The initial start of figure 7 shows that both WCF setups has a much slower upstart than Ice."),
            [4], ClaimMetric.Upstart, ClaimComparison.Better,
            [Variants("IceTcp", "MetroSoap11", OneClient), Variants("IceTcp", "MetroSoap11FastInfoset", OneClient)]),

        // ---- Latency harness (seed 003) ----
        new("latency-harness-soap11-equals-soap12",
            "SOAP 1.1 (basicHttp) and SOAP 1.2 + WS-Addressing (wsHttp) have the same single-call latency, within 10 %.",
            Source(LatencyHarness, "results", "basicHttp and wsHttp performed equally."),
            [5], ClaimMetric.MeanResponseTime, ClaimComparison.Similar,
            [Variants("MetroSoap11", "MetroSoap12Wsa", OneClient)])
        {
            Tolerance = 0.10,
        },
        new("latency-harness-bindings-converge-large",
            "For the largest messages, local IPC and TCP binary bindings converge: single-call latency within 20 %.",
            Source(LatencyHarness, "results", "nullTransport, netNamedPipe and netMsmq seemed to converge for large DataSizes (10^6+ bytes)."),
            [5], ClaimMetric.MeanResponseTime, ClaimComparison.Similar,
            [Variants("AspNetUdsBinXml", "AspNetH2BinXml", new LevelFilter(Payloads: ["Bytes256K"], MinClients: 1, MaxClients: 1))])
        {
            Tolerance = 0.20,
        },

        // ---- Book chapter (seed 004) ----
        new("book-binary-cheaper-per-operation",
            "Binary bindings (local IPC, TCP) cost less server CPU per operation than SOAP 1.1 and SOAP 1.2 + WS-Addressing.",
            Source(Book, "Figure 4.5", "Notice that the measurements for the ws2007HttpBinding, wsHttpBinding, and the basicHttpBinding bindings have significantly higher cost than the netTcpBinding or the netNamedPipeBinding bindings."),
            [6], ClaimMetric.CpuPerOperation, ClaimComparison.Better,
            [
                Variants("AspNetUdsBinXml", "MetroSoap11", Get256BytesOneClient), Variants("AspNetH2BinXml", "MetroSoap11", Get256BytesOneClient),
                Variants("AspNetUdsBinXml", "MetroSoap12Wsa", Get256BytesOneClient), Variants("AspNetH2BinXml", "MetroSoap12Wsa", Get256BytesOneClient),
            ]),
        new("book-operations-per-second-order",
            "Sequential operations per second: local IPC > TCP binary > SOAP 1.1 > SOAP 1.2 + WS-Addressing (Figure 4.4's order).",
            Source(Book, "Figure 4.4", "Figure 4.4 shows the average number of operations per second for each binding."),
            [6], ClaimMetric.Throughput, ClaimComparison.Better,
            [Variants("AspNetUdsBinXml", "AspNetH2BinXml", Get256BytesOneClient), Variants("AspNetH2BinXml", "MetroSoap11", Get256BytesOneClient), Variants("MetroSoap11", "MetroSoap12Wsa", Get256BytesOneClient)]),
    ];
}
