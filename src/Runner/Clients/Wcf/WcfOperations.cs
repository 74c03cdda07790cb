using Dashboard.Service.Contracts.DataContracts;

namespace Dashboard.Runner.Clients.Wcf;

/// <summary>
/// Calls one operation of <see cref="IBenchmarkSoap"/> by its name with the payload catalogue's arguments, and maps the
/// contract's <see cref="EmptyObject"/> (the WSDL's type for <c>System.Object</c>) to and from <see cref="object"/>, so the
/// catalogue's reply check sees the same types as with every other client.
/// </summary>
public static class WcfOperations
{
    private static readonly Dictionary<string, Func<IBenchmarkSoap, object?[], Task<object?>>> Calls = new(StringComparer.Ordinal)
    {
        ["EmptyMethod"] = async (p, _) => { await p.EmptyMethod().ConfigureAwait(false); return null; },
        ["ByteSimple"] = async (p, a) => await p.ByteSimple((byte)a[0]!).ConfigureAwait(false),
        ["IntSimple"] = async (p, a) => await p.IntSimple((int)a[0]!).ConfigureAwait(false),
        ["DoubleSimple"] = async (p, a) => await p.DoubleSimple((double)a[0]!).ConfigureAwait(false),
        ["StringSimple"] = async (p, a) => await p.StringSimple((string)a[0]!).ConfigureAwait(false),
        ["ObjectSimple"] = async (p, a) => FromWire(await p.ObjectSimple((EmptyObject)a[0]!).ConfigureAwait(false)),
        ["UDTypeSimple"] = async (p, a) => await p.UDTypeSimple((UDType)a[0]!).ConfigureAwait(false),
        ["ByteArray"] = async (p, a) => await p.ByteArray((byte[])a[0]!).ConfigureAwait(false),
        ["IntArray"] = async (p, a) => Empty((await p.IntArray(new() { value = (int[])a[0]! }).ConfigureAwait(false)).IntArrayResult),
        ["DoubleArray"] = async (p, a) => Empty((await p.DoubleArray(new() { value = (double[])a[0]! }).ConfigureAwait(false)).DoubleArrayResult),
        ["ObjectArray"] = async (p, a) => FromWire(Empty((await p.ObjectArray(new() { value = (EmptyObject[])a[0]! }).ConfigureAwait(false)).ObjectArrayResult)),
        ["UDTypeArray"] = async (p, a) => Empty((await p.UDTypeArray(new() { value = (UDType[])a[0]! }).ConfigureAwait(false)).UDTypeArrayResult),
        ["GetOrders"] = async (p, a) => Empty((await p.GetOrders(new() { count = (int)a[0]! }).ConfigureAwait(false)).GetOrdersResult),
        ["TransferFunds"] = async (p, a) => await p.TransferFunds((int)a[0]!, (int)a[1]!, (decimal)a[2]!).ConfigureAwait(false),
        ["CreateProductInfo"] = async (p, a) => await p.CreateProductInfo((int)a[0]!).ConfigureAwait(false),
        ["GetRBytes"] = async (p, a) => await p.GetRBytes((int)a[0]!).ConfigureAwait(false),
        ["Get256Bytes"] = async (p, _) => await p.Get256Bytes().ConfigureAwait(false),
    };

    /// <summary>True when <paramref name="operation"/> is an operation of the contract.</summary>
    public static bool Has(string operation) => Calls.ContainsKey(operation);

    /// <summary>The payload catalogue's arguments as the contract takes them (<see cref="object"/> → <see cref="EmptyObject"/>).</summary>
    public static object?[] ToWire(object?[] arguments)
    {
        ArgumentNullException.ThrowIfNull(arguments);
        return arguments.Select(a => a switch
        {
            not null when a.GetType() == typeof(object[]) => ((object?[])a).Select(o => o is null ? null : new EmptyObject()).ToArray(),
            not null when a.GetType() == typeof(object) => new EmptyObject(),
            _ => a,
        }).ToArray();
    }

    /// <summary>Calls <paramref name="operation"/> on <paramref name="proxy"/>; returns its result as the catalogue's types (null for void).</summary>
    /// <exception cref="KeyNotFoundException">No such operation.</exception>
    public static Task<object?> CallAsync(IBenchmarkSoap proxy, string operation, object?[] wireArguments) => Calls[operation](proxy, wireArguments);

    /// <summary>No repeated element at all reads as null (XmlSerializer's way): an empty array, as the WSDL means it.</summary>
    private static T[] Empty<T>(T[]? values) => values ?? [];

    private static object? FromWire(EmptyObject? value) => value is null ? null : new object();

    private static object?[]? FromWire(EmptyObject[]? values) => values?.Select(v => v is null ? null : new object()).ToArray();
}
