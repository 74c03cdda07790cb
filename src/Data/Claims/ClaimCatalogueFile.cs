using System.Text.Json;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Data.Claims;

/// <summary>A claims file that cannot be used: the file, the claim and the field at fault, and what is wrong.</summary>
/// <param name="file">Path of the claims file as it was given.</param>
/// <param name="claimId">Id of the claim at fault; null for a fault outside the claims (the document list, the file's shape).</param>
/// <param name="field">JSON path of the field inside the claim (or the file), e.g. <c>contrasts[0].a.minClients</c>.</param>
/// <param name="problem">What is wrong, in a sentence without a final stop.</param>
public sealed class ClaimCatalogueException(string file, string? claimId, string field, string problem)
    : FormatException($"{file}: {(claimId is null ? "" : $"claim '{claimId}', ")}field '{field}': {problem}")
{
    /// <summary>Path of the claims file.</summary>
    public string File { get; } = file;

    /// <summary>Id of the claim at fault, or null outside the claims.</summary>
    public string? ClaimId { get; } = claimId;

    /// <summary>JSON path of the field at fault.</summary>
    public string Field { get; } = field;
}

/// <summary>The claims of a claims file and the titles of the documents they cite.</summary>
/// <param name="Titles">Document key → title, in file order.</param>
/// <param name="Claims">The claims in file order.</param>
public sealed record ClaimCatalogueDocument(IReadOnlyDictionary<string, string> Titles, IReadOnlyList<Claim> Claims);

/// <summary>
/// Reads and checks a claims file (<c>claims.json</c>, shape in <c>claims.schema.json</c> beside it; docs/claims.md,
/// "Adding a claim"). Every rule of the schema is checked here too, plus what a schema cannot say: ids unique, the
/// document listed, variants, payloads and clients known to the contract catalogue, ranges ordered. Unknown fields are
/// refused (a misspelt field would otherwise silently change nothing).
/// </summary>
public static class ClaimCatalogueFile
{
    private static readonly HashSet<string> ClaimFields = new(StringComparer.Ordinal)
    {
        "id", "statement", "source", "presets", "metric", "comparison", "contrasts", "tolerance", "rangeLow", "rangeHigh",
        "equivalenceMargin", "inAllCases", "atCapacity", "notMeasurableReason", "relatedVariants", "$comment",
    };

    private static readonly HashSet<string> FilterFields = new(StringComparer.Ordinal)
    {
        "variants", "clients", "payloads", "payloadClass", "topology", "minClients", "maxClients",
    };

    /// <summary>Reads the claims file at <paramref name="path"/>.</summary>
    /// <exception cref="ClaimCatalogueException">The file is missing, does not parse, or an entry breaks a rule (the message names file, claim id and field).</exception>
    public static ClaimCatalogueDocument Load(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (!File.Exists(path))
        {
            throw new ClaimCatalogueException(path, null, "$", "the file does not exist");
        }

        return Parse(File.ReadAllText(path), path);
    }

    /// <summary>Reads claims from <paramref name="json"/>, the text of a claims file; <paramref name="file"/> names it in errors.</summary>
    /// <exception cref="ClaimCatalogueException">The text does not parse, or an entry breaks a rule.</exception>
    public static ClaimCatalogueDocument Parse(string json, string file)
    {
        ArgumentNullException.ThrowIfNull(json);
        ArgumentNullException.ThrowIfNull(file);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json, new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = false });
        }
        catch (JsonException e)
        {
            throw new ClaimCatalogueException(file, null, "$", $"not JSON ({e.Message})");
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw new ClaimCatalogueException(file, null, "$", "the file must be a JSON object with \"documents\" and \"claims\"");
            }

            if (!root.TryGetProperty("documents", out var docs) || docs.ValueKind != JsonValueKind.Object)
            {
                throw new ClaimCatalogueException(file, null, "documents", "required: an object of document key → title");
            }

            var titles = new Dictionary<string, string>(StringComparer.Ordinal);
            foreach (var doc in docs.EnumerateObject())
            {
                if (doc.Value.ValueKind != JsonValueKind.String || string.IsNullOrWhiteSpace(doc.Value.GetString()))
                {
                    throw new ClaimCatalogueException(file, null, $"documents.{doc.Name}", "must be the document's title (a non-empty string)");
                }

                titles[doc.Name] = doc.Value.GetString()!;
            }

            if (!root.TryGetProperty("claims", out var claims) || claims.ValueKind != JsonValueKind.Array)
            {
                throw new ClaimCatalogueException(file, null, "claims", "required: an array of claims");
            }

            var list = new List<Claim>();
            var ids = new HashSet<string>(StringComparer.Ordinal);
            var index = 0;
            foreach (var element in claims.EnumerateArray())
            {
                var claim = new Reader(file, element, $"claims[{index}]", titles).Claim();
                if (!ids.Add(claim.Id))
                {
                    throw new ClaimCatalogueException(file, claim.Id, "id", "another claim has this id");
                }

                list.Add(claim);
                index++;
            }

            return new ClaimCatalogueDocument(titles, list);
        }
    }

    private sealed class Reader(string file, JsonElement element, string position, IReadOnlyDictionary<string, string> titles)
    {
        private string? id;

        public Claim Claim()
        {
            if (element.ValueKind != JsonValueKind.Object)
            {
                throw new ClaimCatalogueException(file, null, position, "a claim must be a JSON object");
            }

            id = element.TryGetProperty("id", out var idElement) && idElement.ValueKind == JsonValueKind.String ? idElement.GetString() : null;
            if (string.IsNullOrWhiteSpace(id) || id.Any(c => char.IsWhiteSpace(c) || char.IsUpper(c)))
            {
                throw new ClaimCatalogueException(file, null, position + ".id", "required: a lower-case id without spaces, e.g. thesis-9.3-unsecure-beats-secure-throughput");
            }

            Unknown(element, ClaimFields, "");
            var statement = Text(element, "statement");
            var source = Source(Required(element, "source", JsonValueKind.Object));
            var presets = Required(element, "presets", JsonValueKind.Array).EnumerateArray()
                .Select((p, i) => p.ValueKind == JsonValueKind.Number && p.TryGetInt32(out var n) && n is >= 1 and <= 7 ? n
                    : throw Fault($"presets[{i}]", "a preset number from 1 to 7 (docs/web.md, \"Presets\")")).ToArray();
            if (presets.Length == 0)
            {
                throw Fault("presets", "at least one preset whose runs decide the claim");
            }

            var metric = EnumOf<ClaimMetric>(element, "metric");
            var comparison = EnumOf<ClaimComparison>(element, "comparison");
            var notMeasurable = OptionalText(element, "notMeasurableReason");
            var contrasts = Required(element, "contrasts", JsonValueKind.Array).EnumerateArray().Select((c, i) => Contrast(c, $"contrasts[{i}]")).ToArray();
            if (contrasts.Length == 0 && notMeasurable is null)
            {
                throw Fault("contrasts", "a measurable claim needs at least one contrast (or give notMeasurableReason)");
            }

            var related = element.TryGetProperty("relatedVariants", out var rel)
                ? Names(rel, "relatedVariants", n => VariantCatalogue.TryGet(n, out _), "variant")
                : [];
            var claim = new Claim(id, statement, source, presets, metric, comparison, contrasts)
            {
                NotMeasurableReason = notMeasurable,
                RelatedVariants = related,
                InAllCases = element.TryGetProperty("inAllCases", out var all)
                    ? all.ValueKind is JsonValueKind.True or JsonValueKind.False ? all.GetBoolean() : throw Fault("inAllCases", "must be true or false")
                    : false,
                AtCapacity = element.TryGetProperty("atCapacity", out var capacity)
                    ? capacity.ValueKind is JsonValueKind.True or JsonValueKind.False ? capacity.GetBoolean() : throw Fault("atCapacity", "must be true or false")
                    : false,
            };
            if (Number(element, "tolerance") is { } tolerance)
            {
                claim = tolerance > 0 && tolerance < 1 ? claim with { Tolerance = tolerance } : throw Fault("tolerance", "a fraction between 0 and 1 (0.10 = within 10 %)");
            }
            else if (comparison == ClaimComparison.Similar)
            {
                throw Fault("tolerance", "required when comparison is Similar (0.10 = within 10 %)");
            }

            if (Number(element, "equivalenceMargin") is { } margin)
            {
                claim = margin > 0 && margin < 1 ? claim with { EquivalenceMargin = margin } : throw Fault("equivalenceMargin", "a fraction between 0 and 1 (0.05 = 5 %)");
            }

            var low = Number(element, "rangeLow");
            var high = Number(element, "rangeHigh");
            if (comparison == ClaimComparison.RatioInRange && low is null)
            {
                throw Fault("rangeLow", "required when comparison is RatioInRange: the smallest A ÷ B that agrees with the claim");
            }

            if (low is { } l && (l <= 0 || (high is { } h && h < l)))
            {
                throw Fault("rangeLow", "a positive ratio no larger than rangeHigh");
            }

            return claim with { RangeLow = low ?? 0, RangeHigh = high };
        }

        private ClaimSource Source(JsonElement source)
        {
            Unknown(source, ["document", "section", "quote"], "source.");
            var document = Text(source, "document", "source.");
            if (!titles.TryGetValue(document, out var title))
            {
                throw Fault("source.document", $"'{document}' is not a key of \"documents\" ({string.Join(", ", titles.Keys)})");
            }

            return new ClaimSource(document, title, Text(source, "section", "source."), Text(source, "quote", "source."));
        }

        private Contrast Contrast(JsonElement contrast, string at)
        {
            if (contrast.ValueKind != JsonValueKind.Object)
            {
                throw Fault(at, "a contrast must be an object with name, a, b and match");
            }

            Unknown(contrast, ["name", "a", "b", "match"], at + ".");
            var name = Text(contrast, "name", at + ".");
            var a = Filter(Required(contrast, "a", JsonValueKind.Object, at + "."), at + ".a");
            var b = Filter(Required(contrast, "b", JsonValueKind.Object, at + "."), at + ".b");
            var match = EnumOf<MatchOn>(contrast, "match", at + ".");
            return new Contrast(name, a, b, match);
        }

        private LevelFilter Filter(JsonElement filter, string at)
        {
            Unknown(filter, FilterFields, at + ".");
            var clients = ClientTechnology.All.Select(c => c.Id).ToHashSet(StringComparer.Ordinal);
            var min = Integer(filter, "minClients", at + ".");
            var max = Integer(filter, "maxClients", at + ".");
            if (min is < 1 || max is < 1 || (min is { } lo && max is { } hi && hi < lo))
            {
                throw Fault(at + (min is < 1 || (max is not null && min > max) ? ".minClients" : ".maxClients"), "concurrency levels are at least 1, and minClients ≤ maxClients");
            }

            return new LevelFilter(
                Variants: filter.TryGetProperty("variants", out var v) ? Names(v, at + ".variants", n => VariantCatalogue.TryGet(n, out _), "variant") : null,
                Clients: filter.TryGetProperty("clients", out var c) ? Names(c, at + ".clients", clients.Contains, "client technology") : null,
                Payloads: filter.TryGetProperty("payloads", out var p) ? Names(p, at + ".payloads", n => PayloadCatalogue.TryGet(n, out _), "payload") : null,
                PayloadClass: OptionalText(filter, "payloadClass", at + "."),
                Topology: OptionalText(filter, "topology", at + ".") is { } topology
                    ? topology is ClaimCatalogue.SameMachine or ClaimCatalogue.EmulatedLan or "remote" ? topology
                        : throw Fault(at + ".topology", $"'{topology}' is not a topology ({ClaimCatalogue.SameMachine}, {ClaimCatalogue.EmulatedLan}, remote)")
                    : null,
                MinClients: min,
                MaxClients: max);
        }

        private string[] Names(JsonElement array, string at, Func<string, bool> known, string what)
        {
            if (array.ValueKind != JsonValueKind.Array || array.GetArrayLength() == 0)
            {
                throw Fault(at, $"a non-empty array of {what} ids");
            }

            return [.. array.EnumerateArray().Select((e, i) => e.ValueKind == JsonValueKind.String && e.GetString() is { } n && known(n) ? n
                : throw Fault($"{at}[{i}]", $"{(e.ValueKind == JsonValueKind.String ? $"'{e.GetString()}'" : "this value")} is not a {what} of the contract catalogue (src/Service/Contracts/Catalogue/catalogue.json)"))];
        }

        private TEnum EnumOf<TEnum>(JsonElement parent, string name, string prefix = "")
            where TEnum : struct, Enum
        {
            var text = Text(parent, name, prefix);
            // Names only (and for flags, names joined by ", "): Enum.TryParse would also take a number.
            var parts = text.Split(',', StringSplitOptions.TrimEntries);
            if (parts.All(Enum.GetNames<TEnum>().Contains) && Enum.TryParse<TEnum>(text, out var value))
            {
                return value;
            }

            throw Fault(prefix + name, $"'{text}' is not one of {string.Join(", ", Enum.GetNames<TEnum>())}");
        }

        private JsonElement Required(JsonElement parent, string name, JsonValueKind kind, string prefix = "") =>
            parent.TryGetProperty(name, out var value) && value.ValueKind == kind ? value
                : throw Fault(prefix + name, $"required: a JSON {kind.ToString().ToLowerInvariant()}");

        private string Text(JsonElement parent, string name, string prefix = "") =>
            OptionalText(parent, name, prefix) ?? throw Fault(prefix + name, "required: a non-empty string");

        private string? OptionalText(JsonElement parent, string name, string prefix = "")
        {
            if (!parent.TryGetProperty(name, out var value) || value.ValueKind == JsonValueKind.Null)
            {
                return null;
            }

            return value.ValueKind == JsonValueKind.String && !string.IsNullOrWhiteSpace(value.GetString()) ? value.GetString()
                : throw Fault(prefix + name, "must be a non-empty string");
        }

        private double? Number(JsonElement parent, string name, string prefix = "") =>
            !parent.TryGetProperty(name, out var value) || value.ValueKind == JsonValueKind.Null ? null
                : value.ValueKind == JsonValueKind.Number ? value.GetDouble()
                : throw Fault(prefix + name, "must be a number");

        private int? Integer(JsonElement parent, string name, string prefix = "") =>
            Number(parent, name, prefix) is not { } n ? null
                : n == Math.Floor(n) && n <= int.MaxValue ? (int)n
                : throw Fault(prefix + name, "must be a whole number");

        private void Unknown(JsonElement parent, IReadOnlyCollection<string> known, string prefix)
        {
            var unknown = parent.EnumerateObject().FirstOrDefault(p => !known.Contains(p.Name));
            if (unknown.Value.ValueKind != JsonValueKind.Undefined)
            {
                throw Fault(prefix + unknown.Name, $"unknown field (known: {string.Join(", ", known.Where(k => k[0] != '$'))})");
            }
        }

        private ClaimCatalogueException Fault(string field, string problem) =>
            new(file, id, field, problem);
    }
}
