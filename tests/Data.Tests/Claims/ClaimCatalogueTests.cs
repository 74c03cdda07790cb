using Dashboard.Data.Claims;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Data.Tests.Claims;

public class ClaimCatalogueTests
{
    [Fact]
    public void All_EveryClaim_HasSourceQuotePresetAndUniqueId()
    {
        Assert.Equal(ClaimCatalogue.All.Count, ClaimCatalogue.All.Select(c => c.Id).Distinct().Count());
        foreach (var claim in ClaimCatalogue.All)
        {
            Assert.False(string.IsNullOrWhiteSpace(claim.Source.Quote), claim.Id);
            Assert.False(string.IsNullOrWhiteSpace(claim.Source.Section), claim.Id);
            Assert.Equal(ClaimCatalogue.Titles[claim.Source.Document], claim.Source.Title);
            Assert.NotEmpty(claim.Presets);
            Assert.All(claim.Presets, p => Assert.InRange(p, 1, 7));
            Assert.True(claim.NotMeasurableReason is not null || claim.Contrasts.Count > 0, $"{claim.Id}: a measurable claim needs a contrast");
        }
    }

    [Fact]
    public void All_EverySourceDocument_IsRepresented()
    {
        Assert.Equal(ClaimCatalogue.Titles.Keys.Order(), ClaimCatalogue.All.Select(c => c.Source.Document).Distinct().Order());
    }

    [Fact]
    public void All_NamedVariantsClientsAndPayloads_ExistInTheCatalogues()
    {
        // "wcf" is the WCF client of issue #25, not in this build's client catalogue yet.
        var clients = ClientTechnology.All.Select(c => c.Id).Append("wcf").ToHashSet();
        foreach (var claim in ClaimCatalogue.All)
        {
            var filters = claim.Contrasts.SelectMany(c => new[] { c.A, c.B }).ToList();
            foreach (var variant in filters.SelectMany(f => f.Variants ?? []).Concat(claim.RelatedVariants))
            {
                Assert.True(VariantCatalogue.TryGet(variant, out _), $"{claim.Id}: unknown variant {variant}");
            }

            foreach (var payload in filters.SelectMany(f => f.Payloads ?? []))
            {
                Assert.True(PayloadCatalogue.TryGet(payload, out _), $"{claim.Id}: unknown payload {payload}");
            }

            foreach (var client in filters.SelectMany(f => f.Clients ?? []))
            {
                Assert.True(clients.Contains(client), $"{claim.Id}: unknown client {client}");
            }
        }
    }

    [Fact]
    public void TryGet_UnknownId_ReturnsFalse()
    {
        Assert.False(ClaimCatalogue.TryGet("no-such-claim", out _));
        Assert.True(ClaimCatalogue.TryGet("thesis-9.3-unsecure-beats-secure-throughput", out var claim));
        Assert.Equal(ClaimMetric.Throughput, claim.Metric);
    }

    [Fact]
    public void All_Thesis911EmptyMethod_CountsWithOnMachineNotWithSmallData()
    {
        // "However, on large datasets and empty method the Service in on-machine communication performed best response time."
        var empty = ClaimLevels.Of("IceTcp", "java", "Empty", 20, [1000]).Level;
        var small = ClaimCatalogue.All.Single(c => c.Id == "thesis-9.1.1-small-data-cross-machine-response-time");
        var large = ClaimCatalogue.All.Single(c => c.Id == "thesis-9.1.1-large-data-on-machine-response-time");

        Assert.DoesNotContain(small.Contrasts, c => c.A.Matches(empty, ClaimCatalogue.EmulatedLan) || c.B.Matches(empty, ClaimCatalogue.SameMachine));
        Assert.Contains(small.Contrasts, c => c.A.Matches(ClaimLevels.Of("IceTcp", "java", "Int", 20, [1000]).Level, ClaimCatalogue.EmulatedLan));
        Assert.Contains(large.Contrasts, c => c.A.Matches(empty, ClaimCatalogue.SameMachine) && c.B.Matches(empty, ClaimCatalogue.EmulatedLan));
        Assert.Contains("empty method", large.Statement, StringComparison.Ordinal);
    }

    [Fact]
    public void All_Thesis921TransportVsMessage_ComparesMessageSecurityOnlyAndSaysWhatIsConfounded()
    {
        var claim = ClaimCatalogue.All.Single(c => c.Id == "thesis-9.2.1-transport-beats-message-security");

        // The UserName variant is TransportWithMessageCredential, not Message security: only the X.509 variant is compared.
        var contrast = Assert.Single(claim.Contrasts);
        Assert.Equal(["MetroSoap12WsaX509"], contrast.B.Variants!);
        Assert.Equal("Message", VariantCatalogue.All.Single(v => v.Name == "MetroSoap12WsaX509").SecurityMode);
        Assert.Equal("TransportWithMessageCredential", VariantCatalogue.All.Single(v => v.Name == "MetroSoap12WsaUserNameHttps").SecurityMode);
        Assert.Contains("no client certificate", claim.Statement, StringComparison.Ordinal);
        Assert.Contains("Confounded: the SOAP version and WS-Addressing", claim.Statement, StringComparison.Ordinal);
        Assert.Contains("\"lesser processing\" is not tested", claim.Statement, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("ice-paper-binary-halves-xml-overhead")]
    [InlineData("ice-paper-ice-halves-binary-overhead")]
    public void All_IcePaperTableI_StringMessagesOnly(string id)
    {
        // Seed 002, III.C: "A comparison of the average overhead of the sent messages are shown in table 1. All the messages are sent as strings."
        var claim = ClaimCatalogue.All.Single(c => c.Id == id);

        Assert.All(claim.Contrasts, c => Assert.All(c.A.Payloads!.Concat(c.B.Payloads!), p => Assert.StartsWith("String", p, StringComparison.Ordinal)));
        Assert.Contains("Table I sent strings only", claim.Statement, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("thesis-9.1.2-dotnet-clients-beat-java-throughput")]
    [InlineData("thesis-9.1.2-dotnet-clients-beat-java-response-time")]
    public void All_Thesis912_ComparesTheWcfServiceFirstAndNamesMetroAsAStandIn(string id)
    {
        var claim = ClaimCatalogue.All.Single(c => c.Id == id);

        // The thesis's service was WCF: the wcfbindings stack's BasicHttp variants; the Metro cases stay beside them, labelled.
        Assert.All(claim.Contrasts.Take(2), c => Assert.All(c.A.Variants!.Concat(c.B.Variants!), v => Assert.StartsWith("WcfBasicHttp", v, StringComparison.Ordinal)));
        Assert.Contains(claim.Contrasts, c => c.A.Variants!.Contains("MetroSoap11"));
        Assert.Contains("the dispatcher is ours", claim.Statement, StringComparison.Ordinal);
        Assert.Contains("Java Metro here, where the thesis's was WCF", claim.Statement, StringComparison.Ordinal);
    }
}
