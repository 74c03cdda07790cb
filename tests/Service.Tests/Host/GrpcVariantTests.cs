using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using Dashboard.Service.Contracts.Grpc;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Security;
using Dashboard.Tests.RealProcesses;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;

namespace Dashboard.Service.Tests.Host;

/// <summary>
/// The gRPC variants of the built host on real sockets (docs/service-contract.md): every payload of the catalogue answers
/// what every other stack answers (the payload's own check, on the reply read back into contract values), arguments out
/// of the contract's range are InvalidArgument, and AspNetGrpcTls refuses a call without a client certificate of the
/// host's CA with Unauthenticated.
/// </summary>
public sealed class GrpcVariantTests(JvmFreeHostFixture fixture) : IClassFixture<JvmFreeHostFixture>
{
    private readonly ServiceHostProcess _host = fixture.Host;

    [Theory]
    [InlineData("AspNetGrpc")]
    [InlineData("AspNetGrpcTls")]
    public async Task EveryPayload_ReplyIsTheContractValue(string variant)
    {
        using var channel = await ChannelAsync(variant, withClientCertificate: true);
        var client = new Benchmark.BenchmarkClient(channel);
        var wrong = new List<string>();

        foreach (var payload in PayloadCatalogue.All)
        {
            OperationCatalogue.TryGet(payload.Operation, out var operation);
            var arguments = payload.CreateArguments();
            var reply = await CallAsync(client, operation!.Name, GrpcMessages.Request(operation, arguments));
            if (!payload.IsExpectedReply(arguments, GrpcMessages.Result(operation, reply)))
            {
                wrong.Add(payload.Id);
            }
        }

        Assert.Empty(wrong);
    }

    [Fact]
    public async Task ByteOverTheContractRange_IsInvalidArgument()
    {
        using var channel = await ChannelAsync("AspNetGrpc", withClientCertificate: false);
        var client = new Benchmark.BenchmarkClient(channel);

        var error = await Assert.ThrowsAsync<RpcException>(async () => await client.ByteSimpleAsync(new ByteValue { Value = 256 }));

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.Equal(255u, (await client.ByteSimpleAsync(new ByteValue { Value = 255 })).Value);
    }

    [Fact]
    public async Task MissingObjectArgument_IsInvalidArgument()
    {
        using var channel = await ChannelAsync("AspNetGrpc", withClientCertificate: false);
        var client = new Benchmark.BenchmarkClient(channel);

        var error = await Assert.ThrowsAsync<RpcException>(async () => await client.ObjectSimpleAsync(new ObjectValue()));

        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.NotNull((await client.ObjectSimpleAsync(new ObjectValue { Value = new EmptyObject() })).Value);
    }

    [Fact]
    public async Task GrpcTls_NoClientCertificate_IsUnauthenticated()
    {
        using var channel = await ChannelAsync("AspNetGrpcTls", withClientCertificate: false);
        var client = new Benchmark.BenchmarkClient(channel);

        var error = await Assert.ThrowsAsync<RpcException>(async () => await client.IntSimpleAsync(new IntValue { Value = 1 }));

        Assert.Equal(StatusCode.Unauthenticated, error.StatusCode);
    }

    private static async Task<IMessage> CallAsync(Benchmark.BenchmarkClient client, string operation, IMessage request) => operation switch
    {
        "EmptyMethod" => await client.EmptyMethodAsync((Empty)request),
        "ByteSimple" => await client.ByteSimpleAsync((ByteValue)request),
        "IntSimple" => await client.IntSimpleAsync((IntValue)request),
        "DoubleSimple" => await client.DoubleSimpleAsync((DoubleValue)request),
        "StringSimple" => await client.StringSimpleAsync((StringValue)request),
        "ObjectSimple" => await client.ObjectSimpleAsync((ObjectValue)request),
        "UDTypeSimple" => await client.UDTypeSimpleAsync((UDTypeValue)request),
        "ByteArray" => await client.ByteArrayAsync((ByteArrayValue)request),
        "IntArray" => await client.IntArrayAsync((IntArrayValue)request),
        "DoubleArray" => await client.DoubleArrayAsync((DoubleArrayValue)request),
        "ObjectArray" => await client.ObjectArrayAsync((ObjectArrayValue)request),
        "UDTypeArray" => await client.UDTypeArrayAsync((UDTypeArrayValue)request),
        "GetOrders" => await client.GetOrdersAsync((CountRequest)request),
        "TransferFunds" => await client.TransferFundsAsync((TransferFundsRequest)request),
        "CreateProductInfo" => await client.CreateProductInfoAsync((CountRequest)request),
        "GetRBytes" => await client.GetRBytesAsync((SizeRequest)request),
        "Get256Bytes" => await client.Get256BytesAsync((Empty)request),
        _ => throw new ArgumentOutOfRangeException(nameof(operation), operation, "no gRPC method"),
    };

    private async Task<GrpcChannel> ChannelAsync(string variant, bool withClientCertificate)
    {
        var endpoint = (await _host.GetEndpointsAsync()).Single(e => e.Name == variant);
        var handler = new SocketsHttpHandler();
        if (endpoint.Address.StartsWith("https:", StringComparison.Ordinal))
        {
            var directory = _host.SecurityDirectory;
            var ca = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(directory, SecurityFiles.CaCertificate));
            var policy = new X509ChainPolicy { TrustMode = X509ChainTrustMode.CustomRootTrust, RevocationMode = X509RevocationMode.NoCheck };
            policy.CustomTrustStore.Add(ca);
            var options = new SslClientAuthenticationOptions { CertificateChainPolicy = policy };
            if (withClientCertificate)
            {
                var password = (await File.ReadAllTextAsync(Path.Combine(directory, SecurityFiles.KeyStorePassword))).Trim();
                options.ClientCertificates = [X509CertificateLoader.LoadPkcs12FromFile(Path.Combine(directory, SecurityFiles.ClientKeyStore), password)];
            }

            handler.SslOptions = options;
        }

        return GrpcChannel.ForAddress(endpoint.Address, new GrpcChannelOptions { HttpHandler = handler, DisposeHttpClient = true, MaxReceiveMessageSize = null });
    }
}
