using System.Text.Json;
using System.Text.Json.Serialization;
using Dashboard.Service.Contracts.Operations;

namespace Dashboard.Service.Contracts.Encoding;

/// <summary>
/// JSON bodies (System.Text.Json, camelCase): request <c>{"value": …}</c>, one property per parameter;
/// response the bare result (<c>2147483647</c>); a void operation's response body is empty. An <c>object</c>
/// is written as <c>{}</c> and read back as a new <see cref="object"/>; byte arrays are base64 strings.
/// </summary>
public sealed class JsonMessageCodec : IMessageCodec
{
    /// <summary>The serializer options both sides use.</summary>
    public static JsonSerializerOptions Options { get; } = new(JsonSerializerDefaults.Web)
    {
        Converters = { new PlainObjectConverter() },
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    /// <inheritdoc />
    public string ContentType => "application/json";

    /// <inheritdoc />
    public void WriteRequest(OperationContract operation, object?[] arguments, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(arguments);
        using var writer = new Utf8JsonWriter(body);
        writer.WriteStartObject();
        for (var i = 0; i < operation.Parameters.Count; i++)
        {
            writer.WritePropertyName(operation.Parameters[i].Name);
            JsonSerializer.Serialize(writer, arguments[i], operation.Parameters[i].Type, Options);
        }

        writer.WriteEndObject();
    }

    /// <inheritdoc />
    public object?[] ReadRequest(OperationContract operation, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        try
        {
            using var document = JsonDocument.Parse(body);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                throw new MessageFormatException($"expected a JSON object with {string.Join(", ", operation.Parameters.Select(p => p.Name))}, found {document.RootElement.ValueKind}");
            }

            var arguments = new object?[operation.Parameters.Count];
            for (var i = 0; i < arguments.Length; i++)
            {
                var parameter = operation.Parameters[i];
                if (!document.RootElement.TryGetProperty(parameter.Name, out var value))
                {
                    throw new MessageFormatException($"missing property '{parameter.Name}'");
                }

                arguments[i] = value.Deserialize(parameter.Type, Options);
            }

            return arguments;
        }
        catch (Exception e) when (e is JsonException or NotSupportedException or FormatException or InvalidOperationException)
        {
            throw new MessageFormatException($"malformed JSON body: {e.Message.ReplaceLineEndings(" ")}", e);
        }
    }

    /// <inheritdoc />
    public void WriteResponse(OperationContract operation, object? result, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        if (operation.ReturnType is not null)
        {
            JsonSerializer.Serialize(body, result, operation.ReturnType, Options);
        }
    }

    /// <inheritdoc />
    public object? ReadResponse(OperationContract operation, Stream body)
    {
        ArgumentNullException.ThrowIfNull(operation);
        if (operation.ReturnType is null)
        {
            return null;
        }

        try
        {
            return JsonSerializer.Deserialize(body, operation.ReturnType, Options);
        }
        catch (Exception e) when (e is JsonException or NotSupportedException or FormatException or InvalidOperationException)
        {
            throw new MessageFormatException($"malformed JSON body: {e.Message.ReplaceLineEndings(" ")}", e);
        }
    }

    /// <summary>Writes any value declared as <see cref="object"/> that is a plain <see cref="object"/> as <c>{}</c>, and reads <c>{}</c> back as one.</summary>
    private sealed class PlainObjectConverter : JsonConverter<object>
    {
        public override object? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
        {
            if (reader.TokenType == JsonTokenType.Null)
            {
                return null;
            }

            if (reader.TokenType != JsonTokenType.StartObject)
            {
                throw new JsonException($"expected an object, found {reader.TokenType}");
            }

            reader.Skip();
            return new object();
        }

        public override void Write(Utf8JsonWriter writer, object value, JsonSerializerOptions options)
        {
            writer.WriteStartObject();
            writer.WriteEndObject();
        }
    }
}
