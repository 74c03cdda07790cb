using System.Globalization;
using System.Text.Json;
using Dashboard.Service.Contracts.DataContracts;

namespace Dashboard.Service.Contracts.Catalogue;

/// <summary>
/// Builds CLR values from the catalogue's value descriptions (docs/service-contract.md, "The catalogue file"):
/// <c>{"int": "2147483647"}</c> (every number as its exact text; also byte, short, long, float, double, decimal),
/// <c>{"bool": true}</c>, <c>{"string": "a", "repeat": 500}</c>, <c>{"object": true}</c> (a plain object),
/// <c>{"dateTime": "now"}</c> (UTC now), <c>{"array": element, "count": 500}</c> or <c>{"array": [items]}</c>,
/// <c>{"struct": "UDType", "fields": [[name, value], ...]}</c> and <c>{"ref": "UDTypeMax"}</c> (a named value).
/// </summary>
public static class CatalogueValues
{
    /// <summary>The CLR type of a contract type name (<c>int</c>, <c>UDType[]</c>, ...).</summary>
    /// <exception cref="ArgumentException">Not a contract type.</exception>
    public static Type TypeOf(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (name.EndsWith("[]", StringComparison.Ordinal))
        {
            return TypeOf(name[..^2]).MakeArrayType();
        }

        return name switch
        {
            "byte" => typeof(byte),
            "short" => typeof(short),
            "int" => typeof(int),
            "long" => typeof(long),
            "float" => typeof(float),
            "double" => typeof(double),
            "decimal" => typeof(decimal),
            "bool" => typeof(bool),
            "string" => typeof(string),
            "object" => typeof(object),
            "dateTime" => typeof(DateTime),
            nameof(UDType) => typeof(UDType),
            nameof(Order) => typeof(Order),
            nameof(OrderLine) => typeof(OrderLine),
            nameof(ProductInfo) => typeof(ProductInfo),
            nameof(ProductDetails) => typeof(ProductDetails),
            _ => throw new ArgumentException($"'{name}' is not a contract type of the catalogue", nameof(name)),
        };
    }

    /// <summary>The named value <paramref name="name"/> of <paramref name="catalogue"/> as a <typeparamref name="T"/>.</summary>
    public static T Named<T>(ContractCatalogue catalogue, string name)
    {
        ArgumentNullException.ThrowIfNull(catalogue);
        return catalogue.Values.TryGetValue(name, out var value)
            ? (T)Build(catalogue, value, typeof(T))!
            : throw new KeyNotFoundException($"the catalogue has no value '{name}'");
    }

    /// <summary>Builds the value <paramref name="description"/> as an instance of <paramref name="type"/>.</summary>
    /// <exception cref="InvalidDataException">The description does not fit the type.</exception>
    public static object? Build(ContractCatalogue catalogue, JsonElement description, Type type)
    {
        ArgumentNullException.ThrowIfNull(catalogue);
        ArgumentNullException.ThrowIfNull(type);
        if (description.ValueKind != JsonValueKind.Object)
        {
            throw new InvalidDataException($"a value description is an object, not {description.GetRawText()}");
        }

        if (description.TryGetProperty("ref", out var reference))
        {
            var name = reference.GetString()!;
            return catalogue.Values.TryGetValue(name, out var named)
                ? Build(catalogue, named, type)
                : throw new InvalidDataException($"the catalogue has no value '{name}'");
        }

        if (description.TryGetProperty("array", out var element))
        {
            var itemType = type == typeof(object) ? typeof(object) : type.GetElementType()
                ?? throw new InvalidDataException($"an array does not fit {type.Name}");
            var items = element.ValueKind == JsonValueKind.Array
                ? element.EnumerateArray().ToArray()
                : Enumerable.Repeat(element, description.GetProperty("count").GetInt32()).ToArray();
            var array = Array.CreateInstance(itemType, items.Length);
            for (var i = 0; i < items.Length; i++)
            {
                array.SetValue(Build(catalogue, items[i], itemType), i);
            }

            return array;
        }

        if (description.TryGetProperty("struct", out var structName))
        {
            var instance = Activator.CreateInstance(TypeOf(structName.GetString()!))!;
            foreach (var field in description.GetProperty("fields").EnumerateArray())
            {
                var member = field[0].GetString()!;
                var property = instance.GetType().GetProperty(member)
                    ?? throw new InvalidDataException($"{instance.GetType().Name} has no member {member}");
                property.SetValue(instance, Build(catalogue, field[1], property.PropertyType));
            }

            return instance;
        }

        if (description.TryGetProperty("string", out var text))
        {
            var repeat = description.TryGetProperty("repeat", out var count) ? count.GetInt32() : 1;
            return string.Concat(Enumerable.Repeat(text.GetString(), repeat));
        }

        if (description.TryGetProperty("object", out _))
        {
            return new object();
        }

        if (description.TryGetProperty("bool", out var flag))
        {
            return flag.GetBoolean();
        }

        if (description.TryGetProperty("dateTime", out _))
        {
            return DateTime.UtcNow;
        }

        var number = description.EnumerateObject().Single();
        var digits = number.Value.GetString()!;
        var invariant = CultureInfo.InvariantCulture;
        return number.Name switch
        {
            "byte" => byte.Parse(digits, invariant),
            "short" => short.Parse(digits, invariant),
            "int" => int.Parse(digits, invariant),
            "long" => long.Parse(digits, invariant),
            "float" => float.Parse(digits, invariant),
            "double" => double.Parse(digits, invariant),
            "decimal" => decimal.Parse(digits, NumberStyles.Number, invariant),
            _ => throw new InvalidDataException($"unknown value kind '{number.Name}'"),
        };
    }
}
