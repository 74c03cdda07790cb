namespace Dashboard.Web.Scenarios;

/// <summary>One of the five documents whose experiments the presets reproduce, as a reader would cite it.</summary>
/// <param name="Key">Short key used by the preset catalogue: <c>thesis</c>, <c>whitepaper</c>, <c>ice-paper</c>, <c>latency-harness</c>, <c>book</c>.</param>
/// <param name="Title">The document's title (as printed where it has one; a description in its own words where the copy has none).</param>
/// <param name="Author">Who wrote it, as far as the document or its publication says.</param>
/// <param name="Kind">What it is: master's thesis, whitepaper, conference paper, blog post, book chapter.</param>
/// <param name="Takes">What the product takes from it, in one line.</param>
/// <param name="ShortName">How a preset card names it in a few words, e.g. "Rahbek, Vraa, Wagner's paper".</param>
public sealed record SourceDocument(string Key, string Title, string Author, string Kind, string Takes, string ShortName)
{
    /// <summary>"Title" — Author (Kind): the citation the UI shows.</summary>
    public string Citation => $"“{Title}”, {Author} ({Kind})";
}

/// <summary>
/// The source documents of the presets (docs/web.md, "Presets"): one place for their titles and authors, so pages
/// cite them by name rather than by an internal file number.
/// </summary>
public static class SourceDocuments
{
    /// <summary>The master's thesis: WCF in unsecure and secure variants, on- and cross-machine, interoperability with ASMX and Java.</summary>
    public static SourceDocument Thesis { get; } = new("thesis",
        "Performance evaluation of WCF in unsecure and secure variants, on-machine and cross-machine, and its interoperability with ASMX and Java",
        "Blekinge Institute of Technology", "master's thesis; the copy used here does not name its authors",
        "the client sweep 1…300, the 20 payload cases, secure and unsecure panels, the ranking tables",
        "the WCF master's thesis (Blekinge Institute of Technology)");

    /// <summary>Microsoft's whitepaper comparing WCF's throughput with ASMX, WSE, Enterprise Services and Remoting.</summary>
    public static SourceDocument Whitepaper { get; } = new("whitepaper",
        "A Performance Comparison of Windows Communication Foundation (WCF) with Existing Distributed Communication Technologies",
        "Microsoft", "MSDN whitepaper, 2007",
        "server throughput at CPU saturation per operation and security mode",
        "Microsoft's WCF performance whitepaper");

    /// <summary>The Aarhus University paper comparing WCF (XML and binary) with ZeroC Ice on .NET.</summary>
    public static SourceDocument IcePaper { get; } = new("ice-paper",
        "Performance Comparison of Selected Object Oriented Middleware Technologies for the .NET Platform",
        "Bjarke N. Rahbek, Christian M. Vraa, Stefan R. Wagner (Aarhus University)", "paper",
        "round trip per data type, the first 1…1000 consecutive calls, bytes on the wire",
        "Rahbek, Vraa and Wagner's WCF vs Ice paper");

    /// <summary>Bram Veldhoen's WCF Latency Test Harness blog post.</summary>
    public static SourceDocument LatencyHarness { get; } = new("latency-harness",
        "WCF Latency Test Harness and WCF Performance", "Bram Veldhoen", "blog post",
        "single-call latency by data size, one call in flight, log-log",
        "Veldhoen's WCF Latency Test Harness");

    /// <summary>The book chapter comparing binding performance with Get256Bytes.</summary>
    public static SourceDocument Book { get; } = new("book",
        "Comparing Binding Performance and Scalability", "Steve Resnick, Richard Crane, Chris Bowen",
        "chapter 4 of the book Essential Windows Communication Foundation",
        "Get256Bytes called 50,000 times in a row per binding, CPU per operation",
        "Resnick, Crane and Bowen's Essential WCF, ch. 4");

    /// <summary>
    /// Not a document: preset 7 asks the question a team leaving WCF asks today (Microsoft's migration guidance points
    /// NetTcp services to gRPC). Not in <see cref="All"/>.
    /// </summary>
    public static SourceDocument Migration { get; } = new("wcf-migration",
        "Leaving WCF: the WCF client on SOAP against gRPC, JSON and Ice", "this dashboard", "a question beyond the source documents",
        "the thesis's own client against what WCF services are migrated to",
        "the WCF migration question (beyond the source documents)");

    /// <summary>All five, in the order of the presets.</summary>
    public static IReadOnlyList<SourceDocument> All { get; } = [Thesis, Whitepaper, IcePaper, LatencyHarness, Book];
}
