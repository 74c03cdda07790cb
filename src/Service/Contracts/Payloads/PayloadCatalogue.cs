using System.Diagnostics.CodeAnalysis;
using Dashboard.Service.Contracts.DataContracts;

namespace Dashboard.Service.Contracts.Payloads;

/// <summary>
/// Every payload id of docs/service-contract.md mapped to an operation and its arguments.
/// Thesis cases follow ch. 7.3 (values "with maximum value"); whitepaper cases seed 001; book chapter seed 004.
/// </summary>
public static class PayloadCatalogue
{
    /// <summary>The string <c>Get256Bytes</c> returns: 256 ASCII characters.</summary>
    public static readonly string String256 = new('x', 256);

    /// <summary>What <c>TransferFunds</c> answers when the transfer succeeds (seed 001).</summary>
    public const string TransferSucceeded = "successful";

    /// <summary>All cases, thesis first in the thesis's order (ch. 7.3), then whitepaper, then book chapter.</summary>
    public static IReadOnlyList<PayloadCase> All { get; } = Build();

    /// <summary>All payload ids, in catalogue order.</summary>
    public static IReadOnlyList<string> Ids { get; } = All.Select(p => p.Id).ToArray();

    /// <summary>Finds a case by id (case-sensitive, as ids are in scenario documents).</summary>
    public static bool TryGet(string id, [NotNullWhen(true)] out PayloadCase? payload)
    {
        payload = All.FirstOrDefault(p => p.Id == id);
        return payload is not null;
    }

    private static List<PayloadCase> Build() =>
    [
        Void("Empty", "EmptyMethod", DatasetClass.Small, "no argument, no reply"),
        Echo("Byte", "ByteSimple", DatasetClass.Small, "one byte, byte.MaxValue", () => byte.MaxValue),
        Echo("Int", "IntSimple", DatasetClass.Small, "one int, int.MaxValue", () => int.MaxValue),
        Echo("Double", "DoubleSimple", DatasetClass.Small, "one double, double.MaxValue", () => double.MaxValue),
        Echo("StringEmpty", "StringSimple", DatasetClass.Small, "the empty string", () => string.Empty),
        Echo("String1", "StringSimple", DatasetClass.Small, "a string of 1 character", () => new string('a', 1)),
        Echo("String500", "StringSimple", DatasetClass.Small, "a string of 500 characters", () => new string('a', 500)),
        Echo("String1000", "StringSimple", DatasetClass.Small, "a string of 1000 characters", () => new string('a', 1000)),
        Echo("Object", "ObjectSimple", DatasetClass.Small, "one System.Object", () => new object()),
        Echo("UDType", "UDTypeSimple", DatasetClass.Small, "one UDType at maximum values", UDType.WithMaximumValues),
        Echo("ByteArray500", "ByteArray", DatasetClass.Large, "500 bytes, each byte.MaxValue", () => Filled(500, byte.MaxValue)),
        Echo("ByteArray1000", "ByteArray", DatasetClass.Large, "1000 bytes, each byte.MaxValue", () => Filled(1000, byte.MaxValue)),
        Echo("IntArray500", "IntArray", DatasetClass.Large, "500 ints, each int.MaxValue", () => Filled(500, int.MaxValue)),
        Echo("IntArray1000", "IntArray", DatasetClass.Large, "1000 ints, each int.MaxValue", () => Filled(1000, int.MaxValue)),
        Echo("DoubleArray500", "DoubleArray", DatasetClass.Large, "500 doubles, each double.MaxValue", () => Filled(500, double.MaxValue)),
        Echo("DoubleArray1000", "DoubleArray", DatasetClass.Large, "1000 doubles, each double.MaxValue", () => Filled(1000, double.MaxValue)),
        Echo("ObjectArray500", "ObjectArray", DatasetClass.Large, "500 System.Objects", () => Objects(500)),
        Echo("ObjectArray1000", "ObjectArray", DatasetClass.Large, "1000 System.Objects", () => Objects(1000)),
        Echo("UDTypeArray500", "UDTypeArray", DatasetClass.Large, "500 UDTypes at maximum values", () => UDTypes(500)),
        Echo("UDTypeArray1000", "UDTypeArray", DatasetClass.Large, "1000 UDTypes at maximum values", () => UDTypes(1000)),
        Orders("Orders1", 1),
        Orders("Orders10", 10),
        Orders("Orders100", 100),
        new PayloadCase(
            "TransferFunds", "TransferFunds", DatasetClass.Whitepaper, "two ints and a decimal in, a status string back",
            () => [1, 2, 100.00m],
            (_, reply) => reply is TransferSucceeded),
        new PayloadCase(
            "ProductInfo", "CreateProductInfo", DatasetClass.Whitepaper, "an int in, a product list of one ~512-byte detail back",
            () => [1],
            (_, reply) => DataContractEquality.AreEqual(ProductInfo.Create(1), reply)),
        RandomBytes("Bytes128", 128),
        RandomBytes("Bytes4K", 4 * 1024),
        RandomBytes("Bytes256K", 256 * 1024),
        new PayloadCase(
            "Get256Bytes", "Get256Bytes", DatasetClass.Book, "no argument, a 256-character string back",
            () => [],
            (_, reply) => reply is string s && s == String256),
    ];

    private static PayloadCase Void(string id, string operation, DatasetClass dataset, string description) =>
        new(id, operation, dataset, description, () => [], (_, reply) => reply is null);

    private static PayloadCase Echo(string id, string operation, DatasetClass dataset, string description, Func<object> argument) =>
        new(id, operation, dataset, "echo of " + description, () => [argument()],
            (arguments, reply) => ValueEquality.AreEqual(arguments[0], reply));

    private static PayloadCase Orders(string id, int count) =>
        new(id, "GetOrders", DatasetClass.Whitepaper, $"an int in, {count} order(s) of ~256 bytes back",
            () => [count],
            (_, reply) => reply is Order[] orders && orders.Length == count && orders.All(o => o.OrderItems.Length == 2));

    private static PayloadCase RandomBytes(string id, int size) =>
        new(id, "GetRBytes", DatasetClass.Whitepaper, $"an int in, {size} bytes back",
            () => [size],
            (_, reply) => reply is byte[] bytes && bytes.Length == size);

    private static T[] Filled<T>(int length, T value)
    {
        var array = new T[length];
        Array.Fill(array, value);
        return array;
    }

    private static object[] Objects(int length) => Enumerable.Range(0, length).Select(_ => new object()).ToArray();

    private static UDType[] UDTypes(int length) => Enumerable.Range(0, length).Select(_ => UDType.WithMaximumValues()).ToArray();
}
