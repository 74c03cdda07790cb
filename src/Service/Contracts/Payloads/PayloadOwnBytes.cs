using System.Collections;
using System.Reflection;
using System.Runtime.Serialization;
using Dashboard.Service.Contracts.DataContracts;

namespace Dashboard.Service.Contracts.Payloads;

/// <summary>
/// The payload's own bytes of a payload case: the size of the values a call carries, without any encoding, framing,
/// names or headers, so that wire bytes minus these is a stack's overhead per message (seed 002, "Performance
/// Comparison of Selected Object Oriented Middleware Technologies for the .NET Platform", Table I "Overhead": "the
/// average overhead of the sent messages … All the messages are sent as strings").
/// </summary>
/// <remarks>
/// Sizes of values: byte and bool 1; short 2; int and float 4; long, double and DateTime 8; decimal 16 (their .NET
/// in-memory sizes); a string its UTF-8 bytes; a byte[] its length; an array the sum of its elements; a data contract
/// the sum of its data members; a bare <see cref="object"/> and a void reply 0. Requests are the operation's
/// arguments; responses what a correct service returns (the echo of the argument, or the reply of GetOrders,
/// TransferFunds, CreateProductInfo, GetRBytes, Get256Bytes as docs/service-contract.md defines them).
/// </remarks>
/// <param name="Request">Own bytes of the request's arguments.</param>
/// <param name="Response">Own bytes of the reply.</param>
public sealed record PayloadOwnBytes(int Request, int Response)
{
    private static readonly Dictionary<string, PayloadOwnBytes> ById =
        PayloadCatalogue.All.ToDictionary(p => p.Id, Compute, StringComparer.Ordinal);

    /// <summary>The own bytes of payload case <paramref name="payloadId"/>, or null when the catalogue does not list it.</summary>
    public static PayloadOwnBytes? Of(string payloadId) =>
        payloadId is not null && ById.TryGetValue(payloadId, out var bytes) ? bytes : null;

    /// <summary>The own bytes of one value, by the rules of this type's remarks.</summary>
    /// <exception cref="NotSupportedException">A type the rules do not cover.</exception>
    public static int SizeOf(object? value) => value switch
    {
        null => 0,
        byte or sbyte or bool => 1,
        short or ushort or char => 2,
        int or uint or float => 4,
        long or ulong or double or DateTime => 8,
        decimal => 16,
        string s => System.Text.Encoding.UTF8.GetByteCount(s),
        byte[] bytes => bytes.Length,
        IEnumerable items => items.Cast<object?>().Sum(SizeOf),
        _ when value.GetType() == typeof(object) => 0,
        _ when value.GetType().GetCustomAttribute<DataContractAttribute>() is not null => value.GetType()
            .GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(p => p.GetCustomAttribute<DataMemberAttribute>() is not null)
            .Sum(p => SizeOf(p.GetValue(value))),
        _ => throw new NotSupportedException($"No own-bytes rule for a value of type {value.GetType()}."),
    };

    private static PayloadOwnBytes Compute(PayloadCase payload)
    {
        var arguments = payload.CreateArguments();
        object? reply = payload.Operation switch
        {
            "EmptyMethod" => null,
            "GetOrders" => Enumerable.Range(0, (int)arguments[0]!).Select(_ => Order.Create(DateTime.UnixEpoch)).ToArray(),
            "TransferFunds" => PayloadCatalogue.TransferSucceeded,
            "CreateProductInfo" => ProductInfo.Create((int)arguments[0]!),
            "GetRBytes" => new byte[(int)arguments[0]!],
            "Get256Bytes" => PayloadCatalogue.String256,
            _ => arguments.Length == 1 ? arguments[0] : throw new NotSupportedException($"Payload {payload.Id}: no reply rule for {payload.Operation}."),
        };
        return new PayloadOwnBytes(arguments.Sum(SizeOf), SizeOf(reply));
    }
}
