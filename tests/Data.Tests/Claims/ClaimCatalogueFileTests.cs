using System.Text.Json.Nodes;
using Dashboard.Data.Claims;

namespace Dashboard.Data.Tests.Claims;

public class ClaimCatalogueFileTests
{
    private const string File = "claims-under-test.json";

    // One good claim; each test breaks one field of it.
    private static JsonObject Good() => JsonNode.Parse("""
        {
          "documents": {"thesis": "The thesis"},
          "claims": [
            {
              "id": "thesis-x",
              "statement": "A is faster than B.",
              "source": {"document": "thesis", "section": "ch. 9.3", "quote": "A was faster."},
              "presets": [1],
              "metric": "Throughput",
              "comparison": "Better",
              "contrasts": [
                {"name": "IceTcp vs IceSsl", "a": {"variants": ["IceTcp"], "minClients": 20}, "b": {"variants": ["IceSsl"], "minClients": 20}, "match": "AllButVariant"}
              ]
            }
          ]
        }
        """)!.AsObject();

    private static JsonObject ClaimOf(JsonObject root) => root["claims"]![0]!.AsObject();

    [Fact]
    public void Parse_GoodEntry_ReadsEveryField()
    {
        var document = ClaimCatalogueFile.Parse(Good().ToJsonString(), File);

        var claim = Assert.Single(document.Claims);
        Assert.Equal("thesis-x", claim.Id);
        Assert.Equal("The thesis", claim.Source.Title);
        Assert.Equal(ClaimMetric.Throughput, claim.Metric);
        var contrast = Assert.Single(claim.Contrasts);
        Assert.Equal(["IceTcp"], contrast.A.Variants);
        Assert.Equal(20, contrast.B.MinClients);
        Assert.Equal(MatchOn.AllButVariant, contrast.Match);
    }

    public static TheoryData<string, string> BrokenEntries => new()
    {
        { "variant", "contrasts[0].a.variants[0]" },
        { "metric", "metric" },
        { "match", "contrasts[0].match" },
        { "misspelt", "minClient" },
        { "range", "rangeLow" },
        { "preset", "presets[0]" },
        { "document", "source.document" },
        { "clients", "contrasts[0].b.minClients" },
        { "no-contrast", "contrasts" },
    };

    [Theory]
    [MemberData(nameof(BrokenEntries))]
    public void Parse_BrokenEntry_RefusedWithFileClaimIdAndField(string breakage, string field)
    {
        var root = Good();
        var claim = ClaimOf(root);
        var contrast = claim["contrasts"]![0]!.AsObject();
        switch (breakage)
        {
            case "variant": contrast["a"]!["variants"] = new JsonArray("NoSuchVariant"); break;
            case "metric": claim["metric"] = "Speed"; break;
            case "match": contrast["match"] = "8"; break;
            case "misspelt": claim["minClient"] = 3; break;
            case "range": claim["comparison"] = "RatioInRange"; break;
            case "preset": claim["presets"] = new JsonArray(9); break;
            case "document": claim["source"]!["document"] = "blog"; break;
            case "clients": contrast["b"]!["minClients"] = 0; break;
            case "no-contrast": claim["contrasts"] = new JsonArray(); break;
        }

        var e = Assert.Throws<ClaimCatalogueException>(() => ClaimCatalogueFile.Parse(root.ToJsonString(), File));

        Assert.Equal(File, e.File);
        Assert.Equal("thesis-x", e.ClaimId);
        Assert.Equal(field, e.Field);
        Assert.StartsWith($"{File}: claim 'thesis-x', field '{field}': ", e.Message);
    }

    [Fact]
    public void Parse_DuplicateId_Refused()
    {
        var root = Good();
        root["claims"]!.AsArray().Add(ClaimOf(root).DeepClone());

        var e = Assert.Throws<ClaimCatalogueException>(() => ClaimCatalogueFile.Parse(root.ToJsonString(), File));

        Assert.Equal(("thesis-x", "id"), (e.ClaimId, e.Field));
    }

    [Fact]
    public void Parse_NotJson_RefusedWithFile()
    {
        var e = Assert.Throws<ClaimCatalogueException>(() => ClaimCatalogueFile.Parse("{ \"claims\": [", File));

        Assert.Null(e.ClaimId);
        Assert.StartsWith(File + ": field '$': not JSON", e.Message);
    }

    [Fact]
    public void Load_MissingFile_Refused()
    {
        var path = Path.Combine(Path.GetTempPath(), $"no-claims-{Guid.NewGuid():N}.json");

        var e = Assert.Throws<ClaimCatalogueException>(() => ClaimCatalogueFile.Load(path));

        Assert.Equal(path, e.File);
    }

    [Fact]
    public void Load_AddedClaimInACopyOfTheShippedFile_ReadWithoutCompiling()
    {
        var root = JsonNode.Parse(System.IO.File.ReadAllText(ClaimCatalogue.DefaultPath))!.AsObject();
        var added = ClaimOf(Good()).DeepClone().AsObject();
        added["id"] = "user-added-claim";
        root["claims"]!.AsArray().Add(added);
        var path = Path.Combine(Path.GetTempPath(), $"claims-{Guid.NewGuid():N}.json");
        System.IO.File.WriteAllText(path, root.ToJsonString());
        try
        {
            var document = ClaimCatalogueFile.Load(path);

            Assert.Equal(ClaimCatalogue.All.Count + 1, document.Claims.Count);
            Assert.Equal("user-added-claim", document.Claims[^1].Id);
        }
        finally
        {
            System.IO.File.Delete(path);
        }
    }

    [Fact]
    public void DefaultPath_ShippedFileAndSchema_CopiedBesideTheBinaries()
    {
        Assert.True(System.IO.File.Exists(ClaimCatalogue.DefaultPath));
        Assert.True(System.IO.File.Exists(Path.Combine(Path.GetDirectoryName(ClaimCatalogue.DefaultPath)!, "claims.schema.json")));
        Assert.NotEmpty(ClaimCatalogue.All);
    }
}
