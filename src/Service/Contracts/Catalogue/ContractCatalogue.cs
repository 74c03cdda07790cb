using System.Collections.Frozen;
using System.Text.Json;
using System.Text.Json.Serialization;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Service.Contracts.Catalogue;

/// <summary>
/// The one catalogue of the service contract (docs/architecture.md, "How to add"): <c>catalogue.json</c> beside this
/// file, embedded in this assembly and read once at start. Java (<c>dashboard.common.Catalogue</c>) and the node driver
/// (<c>lib/catalogue.js</c>) read the same file; no language keeps a copy of its lists.
/// </summary>
/// <param name="Variants">The endpoint variants in catalogue order (aspnet, metro, ice, then the unavailable ones).</param>
/// <param name="Clients">The client technologies and the variants each calls.</param>
/// <param name="Outcomes">The sample outcome kinds with their wire numbers (<c>SampleOutcome</c>).</param>
/// <param name="Operations">The operations every stack implements.</param>
/// <param name="Values">Named values (data contract instances) that payloads and replies refer to (<c>{"ref": name}</c>).</param>
/// <param name="Payloads">The payload cases in catalogue order.</param>
public sealed record ContractCatalogue(
    IReadOnlyList<EndpointVariant> Variants,
    IReadOnlyList<CatalogueClient> Clients,
    IReadOnlyList<CatalogueOutcome> Outcomes,
    IReadOnlyList<CatalogueOperation> Operations,
    IReadOnlyDictionary<string, JsonElement> Values,
    IReadOnlyList<CataloguePayload> Payloads)
{
    /// <summary>The resource name of the embedded <c>catalogue.json</c>.</summary>
    public const string ResourceName = "Dashboard.Service.Contracts.Catalogue.catalogue.json";

    // Before Current: static fields are initialized in the order they are written.
    private static readonly JsonSerializerOptions Options = new(JsonSerializerDefaults.Web)
    {
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Skip,
        ReadCommentHandling = JsonCommentHandling.Skip,
    };

    /// <summary>The catalogue this build carries (the embedded <c>catalogue.json</c>), read once.</summary>
    public static ContractCatalogue Current { get; } = LoadEmbedded();

    /// <summary>Reads a catalogue document (the shape of <c>catalogue.json</c>).</summary>
    /// <exception cref="InvalidDataException">The document is not a catalogue, or names a variant a client list does not know.</exception>
    public static ContractCatalogue Parse(Stream json)
    {
        ArgumentNullException.ThrowIfNull(json);
        Document document;
        try
        {
            document = JsonSerializer.Deserialize<Document>(json, Options) ?? throw new InvalidDataException("the catalogue is empty");
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"the catalogue does not parse: {e.Message}", e);
        }

        var variants = document.Variants.Select(v => new EndpointVariant(
            v.Name, v.Stack, v.Transport, v.Encoding, v.SecurityMode, v.CredentialType, v.ThesisCounterpart, v.OnMachineOnly, v.Binary, v.UnavailableReason)
        {
            Codec = v.Codec,
            Http = v.Http,
            Tls = v.Tls,
            DefaultPort = v.Port,
            SocketFile = v.Socket,
        }).ToArray();
        var names = variants.Select(v => v.Name).ToFrozenSet(StringComparer.Ordinal);
        var clients = document.Clients.Select(c =>
        {
            var unknown = c.Variants.Concat(c.Refusals?.Keys.AsEnumerable() ?? []).FirstOrDefault(n => !names.Contains(n));
            if (unknown is not null)
            {
                throw new InvalidDataException($"client {c.Id} names variant '{unknown}', which the catalogue does not list");
            }

            return new CatalogueClient(c.Id, c.Description, c.Variants.ToFrozenSet(StringComparer.Ordinal),
                (c.Refusals ?? []).ToFrozenDictionary(StringComparer.Ordinal));
        }).ToArray();
        var operations = document.Operations.Select(o => new CatalogueOperation(
            o.Name, [.. o.Parameters.Select(p => new CatalogueParameter(p.Name, p.Type))], o.Returns)).ToArray();
        var operationNames = operations.Select(o => o.Name).ToFrozenSet(StringComparer.Ordinal);
        var payloads = document.Payloads.Select(p => operationNames.Contains(p.Operation)
            ? new CataloguePayload(p.Id, p.Operation, p.Dataset, p.Description, p.Arguments, p.Reply)
            : throw new InvalidDataException($"payload {p.Id} calls operation '{p.Operation}', which the catalogue does not list")).ToArray();
        return new ContractCatalogue(
            variants,
            clients,
            [.. document.Outcomes.Select(o => new CatalogueOutcome(o.Name, o.Code, o.Description))],
            operations,
            document.Values.ToFrozenDictionary(StringComparer.Ordinal),
            payloads);
    }

    private static ContractCatalogue LoadEmbedded()
    {
        using var stream = typeof(ContractCatalogue).Assembly.GetManifestResourceStream(ResourceName)
            ?? throw new InvalidOperationException($"{ResourceName} is not embedded in {typeof(ContractCatalogue).Assembly.GetName().Name}");
        return Parse(stream);
    }

    private sealed record Document(
        VariantDocument[] Variants,
        ClientDocument[] Clients,
        OutcomeDocument[] Outcomes,
        OperationDocument[] Operations,
        Dictionary<string, JsonElement> Values,
        PayloadDocument[] Payloads);

    private sealed record VariantDocument(
        string Name,
        string Stack,
        string Transport,
        string Encoding,
        string SecurityMode,
        string CredentialType,
        string ThesisCounterpart,
        bool OnMachineOnly,
        bool Binary,
        string Codec,
        bool Tls,
        string? Http = null,
        int? Port = null,
        string? Socket = null,
        string? UnavailableReason = null);

    private sealed record ClientDocument(string Id, string Description, string[] Variants, Dictionary<string, string>? Refusals);

    private sealed record OutcomeDocument(string Name, byte Code, string Description);

    private sealed record ParameterDocument(string Name, string Type);

    private sealed record OperationDocument(string Name, ParameterDocument[] Parameters, string? Returns);

    private sealed record PayloadDocument(string Id, string Operation, string Dataset, string Description, JsonElement[] Arguments, JsonElement Reply);
}

/// <summary>A client technology of the catalogue.</summary>
/// <param name="Id">The id used in scenarios: <c>dotnet</c>, <c>java</c>, <c>node</c>, <c>wcf</c>.</param>
/// <param name="Description">What the client is, for people.</param>
/// <param name="Variants">The variants it calls (the pairs that work).</param>
/// <param name="Refusals">Variant → why this client cannot call it, where the reason is worth saying.</param>
public sealed record CatalogueClient(string Id, string Description, IReadOnlySet<string> Variants, IReadOnlyDictionary<string, string> Refusals);

/// <summary>A sample outcome kind: its name, its wire and storage number (never renumbered) and what it means.</summary>
public sealed record CatalogueOutcome(string Name, byte Code, string Description);

/// <summary>One parameter of an operation: its wire name and its contract type (<c>int</c>, <c>UDType[]</c>, ...).</summary>
public sealed record CatalogueParameter(string Name, string Type);

/// <summary>One operation: name, parameters in call order, contract type of the result (null: void).</summary>
public sealed record CatalogueOperation(string Name, IReadOnlyList<CatalogueParameter> Parameters, string? Returns);

/// <summary>
/// One payload case as the catalogue writes it: the arguments and the expected reply are value descriptions
/// (<see cref="CatalogueValues"/>, docs/service-contract.md "The catalogue file").
/// </summary>
public sealed record CataloguePayload(string Id, string Operation, string Dataset, string Description, IReadOnlyList<JsonElement> Arguments, JsonElement Reply);
