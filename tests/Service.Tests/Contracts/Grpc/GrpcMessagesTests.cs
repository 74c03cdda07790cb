using Dashboard.Service.Contracts.Grpc;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Payloads;
using Google.Protobuf;

namespace Dashboard.Service.Tests.Contracts.Grpc;

/// <summary>The contract values through the gRPC messages and back, on both sides, without a server.</summary>
public sealed class GrpcMessagesTests
{
    public static TheoryData<string> PayloadIds()
    {
        var data = new TheoryData<string>();
        foreach (var id in PayloadCatalogue.Ids)
        {
            data.Add(id);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(PayloadIds))]
    public void RequestThroughTheWire_ServiceReadsTheSameArguments(string id)
    {
        PayloadCatalogue.TryGet(id, out var payload);
        OperationCatalogue.TryGet(payload!.Operation, out var operation);
        var arguments = payload.CreateArguments();

        var request = GrpcMessages.Request(operation!, arguments);
        var parsed = request.Descriptor.Parser.ParseFrom(request.ToByteArray());
        var read = GrpcMessages.Arguments(operation!, parsed);

        Assert.Equal(arguments.Length, read.Length);
        for (var i = 0; i < arguments.Length; i++)
        {
            Assert.True(ValueEquality.AreEqual(arguments[i], read[i]), $"argument {i} of {id}");
        }
    }

    [Theory]
    [MemberData(nameof(PayloadIds))]
    public void EchoReplyThroughTheWire_PassesThePayloadsCheck(string id)
    {
        PayloadCatalogue.TryGet(id, out var payload);
        OperationCatalogue.TryGet(payload!.Operation, out var operation);
        var arguments = payload.CreateArguments();
        var result = WhatTheServiceAnswers(operation!, arguments);

        var reply = GrpcMessages.Reply(operation!, result);
        var parsed = reply.Descriptor.Parser.ParseFrom(reply.ToByteArray());

        Assert.True(payload.IsExpectedReply(arguments, GrpcMessages.Result(operation!, parsed)), id);
    }

    /// <summary>The service's results (src/Service/Host/AspNet/BenchmarkService.cs): echoes, and what the other operations build.</summary>
    private static object? WhatTheServiceAnswers(OperationContract operation, object?[] arguments) => operation.Name switch
    {
        "EmptyMethod" => null,
        "GetOrders" => Enumerable.Range(0, (int)arguments[0]!).Select(_ => Dashboard.Service.Contracts.DataContracts.Order.Create(DateTime.UtcNow)).ToArray(),
        "TransferFunds" => PayloadCatalogue.TransferSucceeded,
        "CreateProductInfo" => Dashboard.Service.Contracts.DataContracts.ProductInfo.Create((int)arguments[0]!),
        "GetRBytes" => new byte[(int)arguments[0]!],
        "Get256Bytes" => PayloadCatalogue.String256,
        _ => arguments[0],
    };

    [Fact]
    public void ByteReplyOverTheRange_IsNotAByte()
    {
        OperationCatalogue.TryGet("ByteSimple", out var operation);

        Assert.Equal(256u, GrpcMessages.Result(operation!, new ByteValue { Value = 256 }));
        Assert.Throws<FormatException>(() => GrpcMessages.Arguments(operation!, new ByteValue { Value = 256 }));
    }

    [Fact]
    public void DecimalThatDoesNotParse_IsRefusedByTheService()
    {
        OperationCatalogue.TryGet("TransferFunds", out var operation);

        Assert.Throws<FormatException>(() => GrpcMessages.Arguments(operation!, new TransferFundsRequest { FromAccount = 1, ToAccount = 2, Amount = "a hundred" }));
    }
}
