namespace Dashboard.Service.Contracts.Payloads;

/// <summary>
/// One payload case of docs/service-contract.md: which operation a client calls, with which arguments, and how to
/// tell that the reply is right.
/// </summary>
/// <param name="Id">The payload id used in scenarios, exports and charts (e.g. <c>DoubleArray500</c>).</param>
/// <param name="Operation">The service operation called (e.g. <c>DoubleArray</c>).</param>
/// <param name="Dataset">The group the source document puts it in.</param>
/// <param name="Description">What is sent and returned, for people.</param>
/// <param name="CreateArguments">Builds a fresh argument list for one call (empty for parameterless operations).</param>
/// <param name="IsExpectedReply">True when a reply (null for void operations) is what a correct service returns for these arguments.</param>
public sealed record PayloadCase(
    string Id,
    string Operation,
    DatasetClass Dataset,
    string Description,
    Func<object?[]> CreateArguments,
    Func<object?[], object?, bool> IsExpectedReply);
