using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Service.Contracts.Outcomes;
using Grpc.Core;

namespace Dashboard.Runner.Tests.Clients.DotNet;

/// <summary>How the dotnet gRPC client sorts a failed call's status into outcomes (docs/driver-protocol.md).</summary>
public sealed class GrpcLoadClientTests
{
    [Theory]
    [InlineData(StatusCode.Unauthenticated, SampleOutcome.Authentication)]
    [InlineData(StatusCode.PermissionDenied, SampleOutcome.Authentication)]
    [InlineData(StatusCode.DeadlineExceeded, SampleOutcome.Timeout)]
    [InlineData(StatusCode.Unavailable, SampleOutcome.Connection)]
    [InlineData(StatusCode.InvalidArgument, SampleOutcome.Fault)]
    [InlineData(StatusCode.Internal, SampleOutcome.Fault)]
    [InlineData(StatusCode.Unknown, SampleOutcome.Fault)]
    [InlineData(StatusCode.ResourceExhausted, SampleOutcome.Fault)]
    public void Classify_Status_IsItsOutcome(StatusCode status, SampleOutcome expected)
    {
        Assert.Equal(expected, GrpcLoadClient.Classify(new RpcException(new Status(status, "test"))));
    }

    [Fact]
    public void Classify_UnavailableAfterATlsRefusal_IsAuthentication()
    {
        var refusal = new HttpRequestException(HttpRequestError.SecureConnectionError, "The SSL connection could not be established");

        Assert.Equal(SampleOutcome.Authentication, GrpcLoadClient.Classify(new RpcException(new Status(StatusCode.Unavailable, "Error connecting", refusal))));
    }
}
