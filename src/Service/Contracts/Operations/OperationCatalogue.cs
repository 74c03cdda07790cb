using System.Diagnostics.CodeAnalysis;
using Dashboard.Service.Contracts.Catalogue;

namespace Dashboard.Service.Contracts.Operations;

/// <summary>One parameter of a service operation: its wire name (element / JSON property) and CLR type.</summary>
/// <param name="Name">Name on the wire, e.g. <c>value</c>, <c>count</c>.</param>
/// <param name="Type">Declared CLR type, e.g. <c>typeof(int[])</c>.</param>
public sealed record OperationParameter(string Name, Type Type);

/// <summary>One operation of the benchmark service contract (docs/service-contract.md).</summary>
/// <param name="Name">Operation name, e.g. <c>IntArray</c>.</param>
/// <param name="Parameters">Parameters in call order.</param>
/// <param name="ReturnType">Declared return type, or null for a void operation.</param>
public sealed record OperationContract(string Name, IReadOnlyList<OperationParameter> Parameters, Type? ReturnType)
{
    /// <summary>Wrapper element of the reply in XML encodings (WCF's wrapped body): <c>{Name}Response</c>.</summary>
    public string ResponseElement => Name + "Response";

    /// <summary>Element of the result inside <see cref="ResponseElement"/>: <c>{Name}Result</c>.</summary>
    public string ResultElement => Name + "Result";
}

/// <summary>
/// The 17 operations every stack implements with the same names, parameter names and types
/// (docs/service-contract.md, docs/service-contract.md). Payload cases name one of these.
/// </summary>
public static class OperationCatalogue
{
    /// <summary>Every operation, in the catalogue file's order (<see cref="ContractCatalogue.Operations"/>), with CLR types.</summary>
    public static IReadOnlyList<OperationContract> All { get; } =
    [
        .. ContractCatalogue.Current.Operations.Select(o => new OperationContract(
            o.Name,
            [.. o.Parameters.Select(p => new OperationParameter(p.Name, CatalogueValues.TypeOf(p.Type)))],
            o.Returns is null ? null : CatalogueValues.TypeOf(o.Returns))),
    ];

    /// <summary>Finds an operation by name (case-sensitive).</summary>
    public static bool TryGet(string name, [NotNullWhen(true)] out OperationContract? operation)
    {
        operation = All.FirstOrDefault(o => o.Name == name);
        return operation is not null;
    }
}
