using Dashboard.Service.Contracts.DataContracts;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Payloads;

namespace Dashboard.Service.Host.AspNet;

/// <summary>
/// The service implementation of the aspnet stack (docs/service-contract.md): echo operations return what they
/// received, the whitepaper and book operations build their data. Stateless and thread-safe.
/// </summary>
public static class BenchmarkService
{
    /// <summary>Largest <c>count</c> of <c>GetOrders</c>/<c>CreateProductInfo</c> answered; more is refused.</summary>
    public const int MaxCount = 100_000;

    /// <summary>Largest <c>size</c> of <c>GetRBytes</c> answered, in bytes (16 MiB); more is refused.</summary>
    public const int MaxBytes = 16 * 1024 * 1024;

    /// <summary>Runs <paramref name="operation"/> on <paramref name="arguments"/>; returns the result (null for <c>EmptyMethod</c>).</summary>
    /// <exception cref="ArgumentOutOfRangeException">A count or size is negative or above <see cref="MaxCount"/> / <see cref="MaxBytes"/>.</exception>
    public static object? Invoke(OperationContract operation, object?[] arguments)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(arguments);
        return operation.Name switch
        {
            "EmptyMethod" => null,
            "GetOrders" => Enumerable.Range(0, Count(arguments[0], MaxCount)).Select(_ => Order.Create(DateTime.UtcNow)).ToArray(),
            "TransferFunds" => PayloadCatalogue.TransferSucceeded,
            "CreateProductInfo" => ProductInfo.Create(Count(arguments[0], MaxCount)),
            "GetRBytes" => RandomBytes(Count(arguments[0], MaxBytes)),
            "Get256Bytes" => PayloadCatalogue.String256,
            _ => arguments[0],
        };
    }

    private static int Count(object? argument, int max)
    {
        var count = argument is int value ? value : throw new ArgumentOutOfRangeException(nameof(argument), argument, "expected an int");
        return count >= 0 && count <= max ? count : throw new ArgumentOutOfRangeException(nameof(argument), count, $"must be 0..{max}");
    }

    private static byte[] RandomBytes(int size)
    {
        var bytes = new byte[size];
        Random.Shared.NextBytes(bytes);
        return bytes;
    }
}
