using System.Runtime.Serialization;
using System.Xml;

namespace Dashboard.Service.Contracts.Payloads;

/// <summary>
/// Value equality as the wire sees it: two values are equal when the <see cref="DataContractSerializer"/>
/// writes the same XML for both. Works for primitives, arrays, <c>object</c> and the data contracts alike,
/// which record equality does not (arrays compare by reference).
/// </summary>
public static class DataContractEquality
{
    /// <summary>True when both are null, or both are non-null, of the same runtime type, and serialize identically.</summary>
    public static bool AreEqual(object? expected, object? actual)
    {
        if (expected is null || actual is null)
        {
            return expected is null && actual is null;
        }

        if (expected.GetType() != actual.GetType())
        {
            return false;
        }

        return Serialize(expected).AsSpan().SequenceEqual(Serialize(actual));
    }

    /// <summary>The value's XML as the <see cref="DataContractSerializer"/> writes it for its runtime type, UTF-8.</summary>
    public static byte[] Serialize(object value)
    {
        ArgumentNullException.ThrowIfNull(value);
        var serializer = new DataContractSerializer(value.GetType());
        using var buffer = new MemoryStream();
        using (var writer = XmlDictionaryWriter.CreateTextWriter(buffer, System.Text.Encoding.UTF8, ownsStream: false))
        {
            serializer.WriteObject(writer, value);
        }

        return buffer.ToArray();
    }
}
