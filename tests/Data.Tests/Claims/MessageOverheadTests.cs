using Dashboard.Data.Claims;
using Dashboard.Service.Contracts.Payloads;

namespace Dashboard.Data.Tests.Claims;

public class MessageOverheadTests
{
    [Fact]
    public void Of_SoapIntEcho_WireBytesMinusFourBytesEachWay()
    {
        var level = ClaimLevels.Of("MetroSoap11", "dotnet", "Int", 1, [1000], requestBytes: 307, responseBytes: 357).Level;

        var overhead = MessageOverhead.Of(level)!;

        Assert.Equal(303, overhead.RequestBytes);
        Assert.Equal(353, overhead.ResponseBytes);
        Assert.Equal(328, overhead.PerMessageBytes);
    }

    [Fact]
    public void Of_BytesNotCounted_Null() =>
        Assert.Null(MessageOverhead.Of(ClaimLevels.Of("MetroSoap11", "node", "Int", 1, [1000]).Level));

    [Theory]
    [InlineData("Empty", 0, 0)]
    [InlineData("Int", 4, 4)]
    [InlineData("Double", 8, 8)]
    [InlineData("String1000", 1000, 1000)]
    [InlineData("UDType", 44, 44)] // byte 1 + short 2 + int 4 + long 8 + float 4 + double 8 + decimal 16 + bool 1
    [InlineData("Object", 0, 0)]
    [InlineData("TransferFunds", 24, 10)] // int, int, decimal in; "successful" back
    [InlineData("Bytes4K", 4, 4096)]
    [InlineData("Get256Bytes", 0, 256)]
    public void PayloadOwnBytes_Case_IsTheValuesOwnSize(string payload, int request, int response) =>
        Assert.Equal(new PayloadOwnBytes(request, response), PayloadOwnBytes.Of(payload));

    [Fact]
    public void PayloadOwnBytes_EveryCatalogueCase_HasAValue()
    {
        Assert.All(PayloadCatalogue.Ids, id => Assert.NotNull(PayloadOwnBytes.Of(id)));
        Assert.Null(PayloadOwnBytes.Of("NoSuchPayload"));
        Assert.Equal(100 * PayloadOwnBytes.Of("Orders1")!.Response, PayloadOwnBytes.Of("Orders100")!.Response);
        Assert.Equal(500 * 44, PayloadOwnBytes.Of("UDTypeArray500")!.Request);
    }
}
