using System.Diagnostics.CodeAnalysis;
using Dashboard.Service.Contracts.Catalogue;
using Dashboard.Service.Contracts.DataContracts;
using Dashboard.Service.Contracts.Operations;

namespace Dashboard.Service.Contracts.Payloads;

/// <summary>
/// Every payload id of docs/service-contract.md mapped to an operation and its arguments, read from the catalogue file
/// (<see cref="ContractCatalogue.Payloads"/>). Thesis cases follow ch. 7.3 (values "with maximum value"); whitepaper
/// cases seed 001; book chapter seed 004.
/// </summary>
public static class PayloadCatalogue
{
    /// <summary>The string <c>Get256Bytes</c> returns: 256 ASCII characters (the catalogue's expected reply).</summary>
    public static string String256 { get; } = (string)ExpectedOf("Get256Bytes");

    /// <summary>What <c>TransferFunds</c> answers when the transfer succeeds (seed 001; the catalogue's expected reply).</summary>
    public static string TransferSucceeded { get; } = (string)ExpectedOf("TransferFunds");

    /// <summary>All cases, thesis first in the thesis's order (ch. 7.3), then whitepaper, then book chapter.</summary>
    public static IReadOnlyList<PayloadCase> All { get; } = [.. ContractCatalogue.Current.Payloads.Select(From)];

    /// <summary>All payload ids, in catalogue order.</summary>
    public static IReadOnlyList<string> Ids { get; } = All.Select(p => p.Id).ToArray();

    /// <summary>Finds a case by id (case-sensitive, as ids are in scenario documents).</summary>
    public static bool TryGet(string id, [NotNullWhen(true)] out PayloadCase? payload)
    {
        payload = All.FirstOrDefault(p => p.Id == id);
        return payload is not null;
    }

    /// <summary>
    /// The case of one catalogue entry. Replies: <c>{"void": true}</c> none; <c>{"echo": true}</c> the argument back;
    /// <c>{"expect": value}</c> that value; <c>{"orders": {"count": N, "element": value}}</c> N orders with the element's
    /// number of lines; <c>{"randomBytes": N}</c> N bytes of any value.
    /// </summary>
    private static PayloadCase From(CataloguePayload entry)
    {
        var catalogue = ContractCatalogue.Current;
        var operation = OperationCatalogue.All.Single(o => o.Name == entry.Operation);
        var types = operation.Parameters.Select(p => p.Type).ToArray();
        if (types.Length != entry.Arguments.Count)
        {
            throw new InvalidDataException($"payload {entry.Id} gives {entry.Arguments.Count} argument(s) to {operation.Name}, which takes {types.Length}");
        }

        Func<object?[]> arguments = () => [.. entry.Arguments.Select((a, i) => CatalogueValues.Build(catalogue, a, types[i]))];
        var dataset = Enum.Parse<DatasetClass>(entry.Dataset);
        var reply = entry.Reply;
        if (reply.TryGetProperty("void", out _))
        {
            return new(entry.Id, entry.Operation, dataset, entry.Description, arguments, (_, r) => r is null);
        }

        if (reply.TryGetProperty("echo", out _))
        {
            return new(entry.Id, entry.Operation, dataset, entry.Description, arguments, (a, r) => ValueEquality.AreEqual(a[0], r));
        }

        if (reply.TryGetProperty("expect", out var expect))
        {
            var expected = CatalogueValues.Build(catalogue, expect, operation.ReturnType!);
            return expected is string text
                ? new(entry.Id, entry.Operation, dataset, entry.Description, arguments, (_, r) => r is string s && s == text)
                : new(entry.Id, entry.Operation, dataset, entry.Description, arguments, (_, r) => DataContractEquality.AreEqual(expected, r));
        }

        if (reply.TryGetProperty("orders", out var orders))
        {
            var count = orders.GetProperty("count").GetInt32();
            var lines = ((Order)CatalogueValues.Build(catalogue, orders.GetProperty("element"), typeof(Order))!).OrderItems.Length;
            return new(entry.Id, entry.Operation, dataset, entry.Description, arguments,
                (_, r) => r is Order[] o && o.Length == count && o.All(x => x.OrderItems.Length == lines));
        }

        if (reply.TryGetProperty("randomBytes", out var size))
        {
            var length = size.GetInt32();
            return new(entry.Id, entry.Operation, dataset, entry.Description, arguments, (_, r) => r is byte[] b && b.Length == length);
        }

        throw new InvalidDataException($"payload {entry.Id}: unknown reply {reply.GetRawText()}");
    }

    private static object ExpectedOf(string id)
    {
        var entry = ContractCatalogue.Current.Payloads.Single(p => p.Id == id);
        var operation = ContractCatalogue.Current.Operations.Single(o => o.Name == entry.Operation);
        return CatalogueValues.Build(ContractCatalogue.Current, entry.Reply.GetProperty("expect"), CatalogueValues.TypeOf(operation.Returns!))!;
    }
}
