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
}
