using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Operations;
using Microsoft.AspNetCore.Http.Features;

namespace Dashboard.Service.Host.AspNet;

/// <summary>
/// The request handler of one aspnet variant: <c>POST /{Operation}</c> with the variant's encoding
/// (docs/service-contract.md). Unknown operation → 404; a content type other than the codec's → 415 (none given is
/// read as the codec's); a body that does not parse → 400 with a one-line reason; a body over the limit → 413
/// (Kestrel); a count out of range → 400.
/// </summary>
public static class OperationEndpoint
{
    /// <summary>Handles one request with <paramref name="codec"/>.</summary>
    public static async Task HandleAsync(HttpContext context, IMessageCodec codec)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(codec);
        var request = context.Request;
        var response = context.Response;
        if (!HttpMethods.IsPost(request.Method))
        {
            response.StatusCode = StatusCodes.Status405MethodNotAllowed;
            return;
        }

        if (!OperationCatalogue.TryGet(request.Path.Value?.TrimStart('/') ?? "", out var operation))
        {
            await WriteErrorAsync(response, StatusCodes.Status404NotFound, $"unknown operation '{request.Path}'; POST /{{Operation}} with one of {string.Join(", ", OperationCatalogue.All.Select(o => o.Name))}");
            return;
        }

        if (request.ContentType is { } type && !IsCodecMediaType(type, codec))
        {
            await WriteErrorAsync(response, StatusCodes.Status415UnsupportedMediaType,
                $"this endpoint reads {codec.ContentType}, not '{type.ReplaceLineEndings(" ")}'");
            return;
        }

        object?[] arguments;
        object? result;
        using var buffer = new MemoryStream((int)Math.Min(request.ContentLength ?? 4096, 1 << 20));
        try
        {
            await request.Body.CopyToAsync(buffer, context.RequestAborted);
            buffer.Position = 0;
            arguments = codec.ReadRequest(operation, buffer);
            result = BenchmarkService.Invoke(operation, arguments);
        }
        catch (MessageFormatException e)
        {
            await WriteErrorAsync(response, StatusCodes.Status400BadRequest, e.Message);
            return;
        }
        catch (ArgumentOutOfRangeException e)
        {
            await WriteErrorAsync(response, StatusCodes.Status400BadRequest, e.Message.ReplaceLineEndings(" "));
            return;
        }
        catch (BadHttpRequestException e)
        {
            await WriteErrorAsync(response, e.StatusCode, e.Message);
            return;
        }

        if (operation.ReturnType is null && codec is JsonMessageCodec)
        {
            response.StatusCode = StatusCodes.Status204NoContent;
            return;
        }

        using var reply = new MemoryStream();
        codec.WriteResponse(operation, result, reply);
        response.ContentType = codec.ContentType;
        response.ContentLength = reply.Length;
        await response.Body.WriteAsync(reply.GetBuffer().AsMemory(0, (int)reply.Length), context.RequestAborted);
    }

    /// <summary>True when <paramref name="contentType"/> names the codec's media type (parameters such as charset ignored).</summary>
    private static bool IsCodecMediaType(string contentType, IMessageCodec codec)
    {
        var mediaType = contentType.Split(';', 2)[0].Trim();
        return mediaType.Equals(codec.ContentType, StringComparison.OrdinalIgnoreCase)
            || (codec.ContentType == "application/xml" && mediaType.Equals("text/xml", StringComparison.OrdinalIgnoreCase));
    }

    private static Task WriteErrorAsync(HttpResponse response, int status, string message)
    {
        if (response.HasStarted)
        {
            return Task.CompletedTask;
        }

        response.StatusCode = status;
        response.ContentType = "text/plain; charset=utf-8";
        return response.WriteAsync(message);
    }
}
