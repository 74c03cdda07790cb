using Dashboard.Service.Contracts.Grpc;
using Dashboard.Service.Contracts.Operations;
using Google.Protobuf;
using Grpc.Core;
using GrpcBase = Dashboard.Service.Contracts.Grpc.Benchmark.BenchmarkBase;

namespace Dashboard.Service.Host.AspNet;

/// <summary>
/// The gRPC face of the aspnet stack (variants <c>AspNetGrpc</c>, <c>AspNetGrpcTls</c>): each operation of
/// <c>Protos/benchmark.proto</c> reads its contract arguments (<see cref="GrpcMessages"/>), runs the same
/// <see cref="BenchmarkService"/> as the other aspnet variants and writes the result, so values and echo semantics are
/// those of every stack (docs/service-contract.md). A missing or out-of-range argument (an absent object, a byte over
/// 255, a decimal that does not parse, a count out of range) is status <c>InvalidArgument</c>.
/// </summary>
public sealed class GrpcBenchmarkService : GrpcBase
{
    /// <inheritdoc />
    public override Task<Empty> EmptyMethod(Empty request, ServerCallContext context) => Handle<Empty>(request);

    /// <inheritdoc />
    public override Task<ByteValue> ByteSimple(ByteValue request, ServerCallContext context) => Handle<ByteValue>(request);

    /// <inheritdoc />
    public override Task<IntValue> IntSimple(IntValue request, ServerCallContext context) => Handle<IntValue>(request);

    /// <inheritdoc />
    public override Task<DoubleValue> DoubleSimple(DoubleValue request, ServerCallContext context) => Handle<DoubleValue>(request);

    /// <inheritdoc />
    public override Task<StringValue> StringSimple(StringValue request, ServerCallContext context) => Handle<StringValue>(request);

    /// <inheritdoc />
    public override Task<ObjectValue> ObjectSimple(ObjectValue request, ServerCallContext context) => Handle<ObjectValue>(request);

    /// <inheritdoc />
    public override Task<UDTypeValue> UDTypeSimple(UDTypeValue request, ServerCallContext context) => Handle<UDTypeValue>(request);

    /// <inheritdoc />
    public override Task<ByteArrayValue> ByteArray(ByteArrayValue request, ServerCallContext context) => Handle<ByteArrayValue>(request);

    /// <inheritdoc />
    public override Task<IntArrayValue> IntArray(IntArrayValue request, ServerCallContext context) => Handle<IntArrayValue>(request);

    /// <inheritdoc />
    public override Task<DoubleArrayValue> DoubleArray(DoubleArrayValue request, ServerCallContext context) => Handle<DoubleArrayValue>(request);

    /// <inheritdoc />
    public override Task<ObjectArrayValue> ObjectArray(ObjectArrayValue request, ServerCallContext context) => Handle<ObjectArrayValue>(request);

    /// <inheritdoc />
    public override Task<UDTypeArrayValue> UDTypeArray(UDTypeArrayValue request, ServerCallContext context) => Handle<UDTypeArrayValue>(request);

    /// <inheritdoc />
    public override Task<OrdersReply> GetOrders(CountRequest request, ServerCallContext context) => Handle<OrdersReply>(request, "GetOrders");

    /// <inheritdoc />
    public override Task<StringValue> TransferFunds(TransferFundsRequest request, ServerCallContext context) => Handle<StringValue>(request, "TransferFunds");

    /// <inheritdoc />
    public override Task<ProductInfo> CreateProductInfo(CountRequest request, ServerCallContext context) => Handle<ProductInfo>(request, "CreateProductInfo");

    /// <inheritdoc />
    public override Task<ByteArrayValue> GetRBytes(SizeRequest request, ServerCallContext context) => Handle<ByteArrayValue>(request, "GetRBytes");

    /// <inheritdoc />
    public override Task<StringValue> Get256Bytes(Empty request, ServerCallContext context) => Handle<StringValue>(request, "Get256Bytes");

    private static Task<TReply> Handle<TReply>(IMessage request, [System.Runtime.CompilerServices.CallerMemberName] string operationName = "")
        where TReply : IMessage
    {
        var operation = Operations[operationName];
        try
        {
            var result = BenchmarkService.Invoke(operation, GrpcMessages.Arguments(operation, request));
            return Task.FromResult((TReply)GrpcMessages.Reply(operation, result));
        }
        catch (Exception e) when (e is FormatException or ArgumentOutOfRangeException)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, e.Message.ReplaceLineEndings(" ")));
        }
    }

    private static readonly Dictionary<string, OperationContract> Operations = OperationCatalogue.All.ToDictionary(o => o.Name, StringComparer.Ordinal);
}
