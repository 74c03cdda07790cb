using System.Globalization;
using Dashboard.Service.Contracts.Operations;
using Google.Protobuf;
using Contract = Dashboard.Service.Contracts.DataContracts;

namespace Dashboard.Service.Contracts.Grpc;

/// <summary>
/// The contract's values (docs/service-contract.md) to and from the messages of <c>Protos/benchmark.proto</c>, for the
/// gRPC service (<see cref="Arguments"/>, <see cref="Reply"/>) and the <c>dotnet</c> gRPC client (<see cref="Request"/>,
/// <see cref="Result"/>), so both sides read and write the same values as every other stack: byte as uint32 (0..255),
/// decimal as its invariant string, dateTime as Unix milliseconds (UTC), object as a present <see cref="EmptyObject"/>.
/// </summary>
public static class GrpcMessages
{
    /// <summary>The request message of a call of <paramref name="operation"/> with <paramref name="arguments"/> (the payload's).</summary>
    /// <exception cref="ArgumentException">An argument is not of the operation's declared type.</exception>
    public static IMessage Request(OperationContract operation, object?[] arguments)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(arguments);
        object? First() => arguments.Length > 0 ? arguments[0] : throw new ArgumentException($"{operation.Name} takes an argument", nameof(arguments));
        return operation.Name switch
        {
            "EmptyMethod" or "Get256Bytes" => new Empty(),
            "GetOrders" or "CreateProductInfo" => new CountRequest { Count = (int)First()! },
            "GetRBytes" => new SizeRequest { Size = (int)First()! },
            "TransferFunds" => new TransferFundsRequest
            {
                FromAccount = (int)arguments[0]!,
                ToAccount = (int)arguments[1]!,
                Amount = ((decimal)arguments[2]!).ToString(CultureInfo.InvariantCulture),
            },
            _ => Value(operation.Name, First()),
        };
    }

    /// <summary>The contract arguments a request message carries (the service side).</summary>
    /// <exception cref="FormatException">A value is missing or out of the contract's range (a byte over 255, a decimal that does not parse).</exception>
    public static object?[] Arguments(OperationContract operation, IMessage request)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(request);
        return request switch
        {
            Empty => [],
            CountRequest c => [c.Count],
            SizeRequest s => [s.Size],
            TransferFundsRequest t => [t.FromAccount, t.ToAccount, ParseDecimal(t.Amount, "amount")],
            _ => [ValueOf(request, strict: true)],
        };
    }

    /// <summary>The reply message of <paramref name="operation"/> for its <paramref name="result"/> (the service side).</summary>
    public static IMessage Reply(OperationContract operation, object? result)
    {
        ArgumentNullException.ThrowIfNull(operation);
        return operation.Name switch
        {
            "EmptyMethod" => new Empty(),
            "TransferFunds" or "Get256Bytes" => new StringValue { Value = (string)result! },
            "GetRBytes" => new ByteArrayValue { Value = ByteString.CopyFrom((byte[])result!) },
            "GetOrders" => Orders((Contract.Order[])result!),
            "CreateProductInfo" => ToMessage((Contract.ProductInfo)result!),
            _ => Value(operation.Name, result),
        };
    }

    /// <summary>
    /// The contract value a reply carries (the client side), for the payload's reply check: null for <c>EmptyMethod</c>;
    /// a value outside the contract's range comes back as another type (a byte over 255 as its uint32), which the check
    /// counts as a wrong reply.
    /// </summary>
    public static object? Result(OperationContract operation, IMessage reply)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(reply);
        return reply switch
        {
            Empty => null,
            OrdersReply o => o.Value.Select(FromMessage).ToArray(),
            ProductInfo p => FromMessage(p),
            _ => ValueOf(reply, strict: false),
        };
    }

    private static IMessage Value(string operation, object? value) => operation switch
    {
        "ByteSimple" => new ByteValue { Value = (byte)value! },
        "IntSimple" => new IntValue { Value = (int)value! },
        "DoubleSimple" => new DoubleValue { Value = (double)value! },
        "StringSimple" or "TransferFunds" or "Get256Bytes" => new StringValue { Value = (string)value! },
        "ObjectSimple" => new ObjectValue { Value = value is null ? null : new EmptyObject() },
        "UDTypeSimple" => new UDTypeValue { Value = value is null ? null : ToMessage((Contract.UDType)value) },
        "ByteArray" or "GetRBytes" => new ByteArrayValue { Value = ByteString.CopyFrom((byte[])value!) },
        "IntArray" => new IntArrayValue { Value = { (int[])value! } },
        "DoubleArray" => new DoubleArrayValue { Value = { (double[])value! } },
        "ObjectArray" => new ObjectArrayValue { Value = { ((object[])value!).Select(_ => new EmptyObject()) } },
        "UDTypeArray" => new UDTypeArrayValue { Value = { ((Contract.UDType[])value!).Select(ToMessage) } },
        _ => throw new ArgumentException($"unknown operation '{operation}'", nameof(operation)),
    };

    private static object? ValueOf(IMessage message, bool strict) => message switch
    {
        ByteValue b => b.Value <= byte.MaxValue ? (object)(byte)b.Value : strict ? throw new FormatException($"value {b.Value} is not a byte (0..255)") : b.Value,
        IntValue i => i.Value,
        DoubleValue d => d.Value,
        StringValue s => s.Value,
        ObjectValue o => o.Value is null ? Missing(strict) : new object(),
        UDTypeValue u => u.Value is null ? Missing(strict) : FromMessage(u.Value, strict),
        ByteArrayValue b => b.Value.ToByteArray(),
        IntArrayValue i => i.Value.ToArray(),
        DoubleArrayValue d => d.Value.ToArray(),
        ObjectArrayValue o => o.Value.Select(_ => new object()).ToArray(),
        UDTypeArrayValue u => u.Value.Select(v => FromMessage(v, strict)).ToArray(),
        _ => throw new FormatException($"unexpected message {message.Descriptor.Name}"),
    };

    private static object? Missing(bool strict) => strict ? throw new FormatException("value is missing") : null;

    private static UDType ToMessage(Contract.UDType u) => new()
    {
        ByteValue = u.ByteValue,
        ShortValue = u.ShortValue,
        IntValue = u.IntValue,
        LongValue = u.LongValue,
        FloatValue = u.FloatValue,
        DoubleValue = u.DoubleValue,
        DecimalValue = u.DecimalValue.ToString(CultureInfo.InvariantCulture),
        BoolValue = u.BoolValue,
    };

    private static Contract.UDType? FromMessage(UDType u, bool strict)
    {
        if (u.ByteValue > byte.MaxValue || u.ShortValue is < short.MinValue or > short.MaxValue
            || !decimal.TryParse(u.DecimalValue, NumberStyles.Number, CultureInfo.InvariantCulture, out var amount))
        {
            // The client's check then sees no UDType (a wrong reply); the service refuses the request.
            return strict ? throw new FormatException("a UDType member is out of its contract type's range") : null;
        }

        return new Contract.UDType
        {
            ByteValue = (byte)u.ByteValue,
            ShortValue = (short)u.ShortValue,
            IntValue = u.IntValue,
            LongValue = u.LongValue,
            FloatValue = u.FloatValue,
            DoubleValue = u.DoubleValue,
            DecimalValue = amount,
            BoolValue = u.BoolValue,
        };
    }

    private static OrdersReply Orders(Contract.Order[] orders)
    {
        var reply = new OrdersReply();
        foreach (var o in orders)
        {
            var message = new Order
            {
                CustomerId = o.CustomerId,
                ShippingAddress1 = o.ShippingAddress1,
                ShippingAddress2 = o.ShippingAddress2,
                ShippingCity = o.ShippingCity,
                ShippingState = o.ShippingState,
                ShippingZip = o.ShippingZip,
                ShippingCountry = o.ShippingCountry,
                ShipType = o.ShipType,
                CreditCardType = o.CreditCardType,
                CreditCardNumber = o.CreditCardNumber,
                CreditCardExpiration = new DateTimeOffset(DateTime.SpecifyKind(o.CreditCardExpiration, DateTimeKind.Utc)).ToUnixTimeMilliseconds(),
                CreditCardName = o.CreditCardName,
            };
            message.OrderItems.Add(o.OrderItems.Select(l => new OrderLine { ItemId = l.ItemId, Quantity = l.Quantity }));
            reply.Value.Add(message);
        }

        return reply;
    }

    private static Contract.Order FromMessage(Order o) => new()
    {
        CustomerId = o.CustomerId,
        ShippingAddress1 = o.ShippingAddress1,
        ShippingAddress2 = o.ShippingAddress2,
        ShippingCity = o.ShippingCity,
        ShippingState = o.ShippingState,
        ShippingZip = o.ShippingZip,
        ShippingCountry = o.ShippingCountry,
        ShipType = o.ShipType,
        CreditCardType = o.CreditCardType,
        CreditCardNumber = o.CreditCardNumber,
        CreditCardExpiration = DateTimeOffset.FromUnixTimeMilliseconds(o.CreditCardExpiration).UtcDateTime,
        CreditCardName = o.CreditCardName,
        OrderItems = o.OrderItems.Select(l => new Contract.OrderLine { ItemId = l.ItemId, Quantity = l.Quantity }).ToArray(),
    };

    private static ProductInfo ToMessage(Contract.ProductInfo p)
    {
        var message = new ProductInfo { TotalResults = p.TotalResults, TotalPages = p.TotalPages, ListName = p.ListName };
        message.Details.Add(p.Details.Select(d => new ProductDetails
        {
            Url = d.Url,
            Asin = d.Asin,
            ProductName = d.ProductName,
            Catalog = d.Catalog,
            ReleaseDate = d.ReleaseDate,
            Manufacturer = d.Manufacturer,
            Distributor = d.Distributor,
            ImageUrlSmall = d.ImageUrlSmall,
            ImageUrlMedium = d.ImageUrlMedium,
            ImageUrlLarge = d.ImageUrlLarge,
            ListPrice = d.ListPrice,
            OurPrice = d.OurPrice,
            UsedPrice = d.UsedPrice,
            Isbn = d.Isbn,
            MpaaRating = d.MpaaRating,
        }));
        return message;
    }

    private static Contract.ProductInfo FromMessage(ProductInfo p) => new()
    {
        TotalResults = p.TotalResults,
        TotalPages = p.TotalPages,
        ListName = p.ListName,
        Details = p.Details.Select(d => new Contract.ProductDetails
        {
            Url = d.Url,
            Asin = d.Asin,
            ProductName = d.ProductName,
            Catalog = d.Catalog,
            ReleaseDate = d.ReleaseDate,
            Manufacturer = d.Manufacturer,
            Distributor = d.Distributor,
            ImageUrlSmall = d.ImageUrlSmall,
            ImageUrlMedium = d.ImageUrlMedium,
            ImageUrlLarge = d.ImageUrlLarge,
            ListPrice = d.ListPrice,
            OurPrice = d.OurPrice,
            UsedPrice = d.UsedPrice,
            Isbn = d.Isbn,
            MpaaRating = d.MpaaRating,
        }).ToArray(),
    };

    private static decimal ParseDecimal(string text, string name) =>
        decimal.TryParse(text, NumberStyles.Number, CultureInfo.InvariantCulture, out var value)
            ? value
            : throw new FormatException($"{name} '{text}' is not a decimal");
}
