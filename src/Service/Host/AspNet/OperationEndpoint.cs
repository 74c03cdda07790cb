using Dashboard.Service.Contracts.Encoding;
using Dashboard.Service.Contracts.Operations;
using Microsoft.AspNetCore.Http.Features;

namespace Dashboard.Service.Host.AspNet;

/// <summary>
/// The request handler of one aspnet variant: <c>POST /{Operation}</c> with the variant's encoding
/// (docs/service-contract.md). Unknown operation → 404; a body that does not parse → 400 with a one-line reason;
/// a body over the limit → 413 (Kestrel); a count out of range → 400.
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
