using System.Runtime.Serialization;
using System.Xml;
using Dashboard.Service.Contracts.DataContracts;
using Dashboard.Service.Contracts.Payloads;

namespace Dashboard.Service.Tests.Contracts.Payloads;

public class PayloadCatalogueTests
{
    private static readonly string[] DesignIds =
    [
        "Empty", "Byte", "Int", "Double", "StringEmpty", "String1", "String500", "String1000", "Object", "UDType",
        "ByteArray500", "ByteArray1000", "IntArray500", "IntArray1000", "DoubleArray500", "DoubleArray1000",
        "ObjectArray500", "ObjectArray1000", "UDTypeArray500", "UDTypeArray1000",
        "Orders1", "Orders10", "Orders100", "TransferFunds", "ProductInfo", "Bytes128", "Bytes4K", "Bytes256K", "Get256Bytes",
    ];

    public static TheoryData<string> EchoIds() =>
        new(PayloadCatalogue.All.Where(p => p.Dataset is DatasetClass.Small or DatasetClass.Large && p.Id != "Empty").Select(p => p.Id));

    [Fact]
    public void Ids_MatchDesignCatalogue_InOrder()
    {
        Assert.Equal(DesignIds, PayloadCatalogue.Ids);
    }

    [Fact]
    public void Thesis_HasTenSmallAndTenLargeDatasets()
    {
        Assert.Equal(10, PayloadCatalogue.All.Count(p => p.Dataset == DatasetClass.Small));
        Assert.Equal(10, PayloadCatalogue.All.Count(p => p.Dataset == DatasetClass.Large));
    }

    [Theory]
    [MemberData(nameof(EchoIds))]
    public void EchoCases_ArgumentRoundTrippedThroughDataContractSerializer_IsExpectedReply(string id)
    {
        Assert.True(PayloadCatalogue.TryGet(id, out var payload));
        var arguments = payload.CreateArguments();
        var echoed = RoundTrip(Assert.Single(arguments)!);
        Assert.True(payload.IsExpectedReply(arguments, echoed), $"{id}: the serialized echo was not accepted");
    }

    [Theory]
    [InlineData("Int", 12)]
    [InlineData("String1000", "short")]
    [InlineData("UDType", null)]
    [InlineData("Empty", 0)]
    public void IsExpectedReply_WrongReply_IsRejected(string id, object? wrongReply)
    {
        Assert.True(PayloadCatalogue.TryGet(id, out var payload));
        Assert.False(payload.IsExpectedReply(payload.CreateArguments(), wrongReply));
    }

    [Fact]
    public void IsExpectedReply_UDTypeWithOneMemberChanged_IsRejected()
    {
        Assert.True(PayloadCatalogue.TryGet("UDTypeArray500", out var payload));
        var arguments = payload.CreateArguments();
        var reply = (UDType[])((UDType[])arguments[0]!).Clone();
        reply[499] = reply[499] with { LongValue = 0 };
        Assert.False(payload.IsExpectedReply(arguments, reply));
    }

    [Fact]
    public void UDType_WithMaximumValues_HoldsEachTypesMaximum()
    {
        var value = UDType.WithMaximumValues();
        Assert.Equal(int.MaxValue, value.IntValue);
        Assert.Equal(decimal.MaxValue, value.DecimalValue);
        Assert.Equal(double.MaxValue, value.DoubleValue);
        Assert.Equal(byte.MaxValue, value.ByteValue);
    }

    [Theory]
    [InlineData("String500", 500)]
    [InlineData("ByteArray1000", 1000)]
    [InlineData("UDTypeArray1000", 1000)]
    public void CreateArguments_HasTheThesisSize(string id, int expectedLength)
    {
        Assert.True(PayloadCatalogue.TryGet(id, out var payload));
        var argument = payload.CreateArguments()[0];
        var length = argument switch
        {
            string s => s.Length,
            Array a => a.Length,
            _ => -1,
        };
        Assert.Equal(expectedLength, length);
    }

    [Fact]
    public void Order_Create_IsAboutTwoHundredFiftySixBytesOfData()
    {
        var order = Order.Create(new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc));
        var characters = new[]
        {
            order.ShippingAddress1, order.ShippingAddress2, order.ShippingCity, order.ShippingState, order.ShippingZip,
            order.ShippingCountry, order.ShipType, order.CreditCardType, order.CreditCardNumber, order.CreditCardName,
        }.Sum(s => s.Length);
        Assert.InRange(characters + 4 + 8 + 2 * 8, 150, 300);
    }

    [Fact]
    public void TryGet_UnknownId_ReturnsFalse()
    {
        Assert.False(PayloadCatalogue.TryGet("int", out _));
    }

    private static object? RoundTrip(object value)
    {
        var serializer = new DataContractSerializer(value.GetType());
        using var buffer = new MemoryStream();
        using (var writer = XmlDictionaryWriter.CreateBinaryWriter(buffer, null, null, ownsStream: false))
        {
            serializer.WriteObject(writer, value);
        }

        buffer.Position = 0;
        using var reader = XmlDictionaryReader.CreateBinaryReader(buffer, XmlDictionaryReaderQuotas.Max);
        return serializer.ReadObject(reader);
    }
}
