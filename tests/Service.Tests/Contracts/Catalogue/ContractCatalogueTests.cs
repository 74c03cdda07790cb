using System.Text;
using Dashboard.Service.Contracts.Catalogue;
using Dashboard.Service.Contracts.Clients;
using Dashboard.Service.Contracts.DataContracts;
using Dashboard.Service.Contracts.Operations;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Service.Tests.Contracts.Catalogue;

public class ContractCatalogueTests
{
    private static ContractCatalogue Parse(string json) => ContractCatalogue.Parse(new MemoryStream(Encoding.UTF8.GetBytes(json)));

    private const string Minimal = """
        {
          "variants": [{"name": "A", "stack": "aspnet", "transport": "t", "encoding": "e", "securityMode": "None", "credentialType": "None",
                        "thesisCounterpart": "x", "onMachineOnly": false, "binary": false, "codec": "json", "tls": false, "port": 1}],
          "clients": [{"id": "c", "description": "d", "variants": [CLIENT_VARIANTS]}],
          "outcomes": [{"name": "Success", "code": 0, "description": "ok"}],
          "operations": [{"name": "EmptyMethod", "parameters": [], "returns": null}],
          "values": {},
          "payloads": [{"id": "Empty", "operation": "OPERATION", "dataset": "Small", "description": "d", "arguments": [], "reply": {"void": true}}]
        }
        """;

    [Fact]
    public void Current_Outcomes_AreSampleOutcomeNameForNumber()
    {
        var catalogued = ContractCatalogue.Current.Outcomes.Select(o => (o.Name, o.Code)).ToArray();
        var wire = Enum.GetValues<SampleOutcome>().Select(o => (o.ToString(), (byte)o)).ToArray();

        Assert.Equal(wire, catalogued);
    }

    [Fact]
    public void Current_Variants_EachServedOnOnePortOrOneSocket()
    {
        var available = VariantCatalogue.All.Where(v => v.IsAvailable).ToArray();

        Assert.Equal(VariantCatalogue.All.Count, VariantCatalogue.All.Select(v => v.Name).Distinct().Count());
        Assert.All(available, v => Assert.True(v.DefaultPort is null != (v.SocketFile is null), $"{v.Name}: one of port and socket"));
        Assert.All(available, v => Assert.Equal(v.SocketFile is not null, v.IsLocalIpc));
        var ports = available.Where(v => v.DefaultPort is not null).Select(v => v.DefaultPort).ToArray();
        Assert.Equal(ports.Length, ports.Distinct().Count());
        Assert.Equal(29, available.Length);
    }

    [Fact]
    public void Current_Clients_AreTheFourTechnologiesAndTheLeanGeneratorWithTheirPairs()
    {
        Assert.Equal(["dotnet", "java", "node", "wcf", "lean"], ClientTechnology.All.Select(c => c.Id));
        Assert.Equal(18, ClientTechnology.Get("lean").Callable.Count);
        Assert.Contains("AspNetGrpcTls", ClientTechnology.Get("lean").Callable);
        Assert.Contains("replay", ClientTechnology.Get("lean").RefusalOf("MetroSoap12WsaUserNameHttps"), StringComparison.Ordinal);
        Assert.Equal(19, ClientTechnology.Get("dotnet").Callable.Count);
        Assert.Equal(16, ClientTechnology.Get("java").Callable.Count);
        Assert.Equal(15, ClientTechnology.Get("node").Callable.Count);
        Assert.Equal(15, ClientTechnology.Get("wcf").Callable.Count);
        Assert.Contains("FastInfoset", ClientTechnology.Get("wcf").RefusalOf("MetroSoap11FastInfoset"), StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_ClientNamesAVariantTheCatalogueLacks_ThrowsNamingIt()
    {
        var e = Assert.Throws<InvalidDataException>(() => Parse(Minimal.Replace("CLIENT_VARIANTS", "\"A\", \"Nope\"", StringComparison.Ordinal).Replace("OPERATION", "EmptyMethod", StringComparison.Ordinal)));

        Assert.Contains("'Nope'", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_PayloadCallsAnUnknownOperation_ThrowsNamingIt()
    {
        var e = Assert.Throws<InvalidDataException>(() => Parse(Minimal.Replace("CLIENT_VARIANTS", "\"A\"", StringComparison.Ordinal).Replace("OPERATION", "Nope", StringComparison.Ordinal)));

        Assert.Contains("'Nope'", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_NotJson_ThrowsInvalidData()
    {
        Assert.Throws<InvalidDataException>(() => Parse("{ not json"));
    }

    [Fact]
    public void Parse_MinimalDocument_ReadsEveryList()
    {
        var catalogue = Parse(Minimal.Replace("CLIENT_VARIANTS", "\"A\"", StringComparison.Ordinal).Replace("OPERATION", "EmptyMethod", StringComparison.Ordinal));

        Assert.Equal(1, Assert.Single(catalogue.Variants).DefaultPort);
        Assert.Equal(["A"], Assert.Single(catalogue.Clients).Variants);
        Assert.Equal("Success", Assert.Single(catalogue.Outcomes).Name);
        Assert.Equal("EmptyMethod", Assert.Single(catalogue.Payloads).Operation);
    }

    [Fact]
    public void Values_UDTypeMax_IsEveryMemberAtItsMaximum()
    {
        var expected = new UDType
        {
            ByteValue = byte.MaxValue, ShortValue = short.MaxValue, IntValue = int.MaxValue, LongValue = long.MaxValue,
            FloatValue = float.MaxValue, DoubleValue = double.MaxValue, DecimalValue = decimal.MaxValue, BoolValue = true,
        };

        Assert.Equal(expected, UDType.WithMaximumValues());
    }

    [Fact]
    public void Values_Order_HasTwoLinesAndTheGivenExpiration()
    {
        var expiration = new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Utc);

        var order = Order.Create(expiration);

        Assert.Equal(100, order.CustomerId);
        Assert.Equal(expiration, order.CreditCardExpiration);
        Assert.Equal([(1, 10), (2, 5)], order.OrderItems.Select(l => (l.ItemId, l.Quantity)));
    }

    [Fact]
    public void Payloads_EveryCase_ArgumentsFitItsOperationTypes()
    {
        foreach (var payload in PayloadCatalogue.All)
        {
            var operation = OperationCatalogue.All.Single(o => o.Name == payload.Operation);
            var arguments = payload.CreateArguments();

            Assert.Equal(operation.Parameters.Count, arguments.Length);
            for (var i = 0; i < arguments.Length; i++)
            {
                Assert.True(operation.Parameters[i].Type.IsInstanceOfType(arguments[i]), $"{payload.Id}: argument {i} is {arguments[i]?.GetType()}");
            }
        }
    }

    [Theory]
    [InlineData("IntArray1000", 1000)]
    [InlineData("String500", 500)]
    [InlineData("ByteArray500", 500)]
    public void Payloads_GeneratedArgument_HasTheRulesCount(string id, int count)
    {
        PayloadCatalogue.TryGet(id, out var payload);

        var argument = Assert.Single(payload!.CreateArguments());

        Assert.Equal(count, argument switch { string s => s.Length, Array a => a.Length, _ => -1 });
    }
}
