using System.Buffers;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;
using System.Xml;

namespace Dashboard.Service.Host.WcfBindings;

/// <summary>
/// The request handler of an HTTP variant of the wcfbindings stack on Kestrel: <c>POST /benchmark</c> with an envelope of
/// the variant's encoder, read and answered with it — BasicHttp: SOAP 1.1 (<c>text/xml</c>, WCF's
/// <c>TextMessageEncodingBindingElement(Soap11, UTF8)</c>); WSHttp: SOAP 1.2 + WS-Addressing 1.0
/// (<c>application/soap+xml</c>, <see cref="Soap12AddressingEncoder"/>); binary over HTTP: WCF's sessionless binary
/// encoder (<c>application/soap+msbin1</c>, [MC-NBFS], <see cref="BinaryEncoder"/>) — dispatched by
/// <see cref="BenchmarkDispatcher"/> on the WS-Addressing action, or without one on the body's wrapper element as Metro
/// does (the <c>SOAPAction</c> header is not needed); a SOAP fault is HTTP 500 (as a WCF service answers one, SOAP 1.1
/// and 1.2 alike); another content type is 415. <c>GET /benchmark?wsdl</c>
/// serves the Metro service's own WSDL text (the same port type, its <c>soap:address</c> naming this endpoint) — SOAP 1.1
/// for BasicHttp; SOAP 1.2 for WSHttp, with the WS-Addressing Metadata policy <c>wsam:Addressing</c> (required) attached to
/// its binding, as Metro publishes it for an <c>@Addressing(required = true)</c> endpoint, so that a JAX-WS client sends the
/// addressing headers — and <c>?xsd=1</c> / <c>?xsd=2</c> its schemas, when the host was built with the JVM service (its <c>jvm/wsdl</c>).
/// </summary>
/// <param name="encoder">WCF's encoder of the variant (<see cref="Soap11Encoder"/>, <see cref="Soap12AddressingEncoder"/>, <see cref="BinaryEncoder"/>).</param>
/// <param name="dispatcher">Our dispatcher.</param>
/// <param name="buffers">Buffers of the envelopes read and written.</param>
/// <param name="authorize">Null, or the check of each read request (WSHttp with UserName: <see cref="UserNameTokenCheck"/>): a
/// request it refuses is answered with WS-Security's <c>wsse:FailedAuthentication</c> fault and not dispatched.</param>
/// <param name="wsdl">The WSDL folder (<c>BenchmarkService.wsdl</c> and its two schemas), or null when the host has none (or the variant serves none: <see cref="WcfBindingServers.WsdlDirectoryOf"/>).</param>
public sealed class BasicHttpEndpoint(MessageEncoder encoder, BenchmarkDispatcher dispatcher, BufferManager buffers, string? wsdl, Func<Message, bool>? authorize = null)
{
    /// <summary>WCF's SOAP 1.1 text encoder (UTF-8) with the reader quotas' maxima.</summary>
    public static MessageEncoder Soap11Encoder() =>
        new TextMessageEncodingBindingElement(MessageVersion.Soap11, Encoding.UTF8) { ReaderQuotas = XmlDictionaryReaderQuotas.Max }
            .CreateMessageEncoderFactory().Encoder;

    /// <summary>WCF's SOAP 1.2 + WS-Addressing 1.0 text encoder (UTF-8, <c>application/soap+xml</c>: WSHttpBinding's) with the reader quotas' maxima.</summary>
    public static MessageEncoder Soap12AddressingEncoder() =>
        new TextMessageEncodingBindingElement(MessageVersion.Soap12WSAddressing10, Encoding.UTF8) { ReaderQuotas = XmlDictionaryReaderQuotas.Max }
            .CreateMessageEncoderFactory().Encoder;

    /// <summary>WCF's sessionless binary encoder (<c>application/soap+msbin1</c>, [MC-NBFS], SOAP 1.2 + WS-Addressing 1.0) with the reader quotas' maxima.</summary>
    public static MessageEncoder BinaryEncoder() =>
        new BinaryMessageEncodingBindingElement { ReaderQuotas = XmlDictionaryReaderQuotas.Max }
            .CreateMessageEncoderFactory().Encoder;

    /// <summary>Handles one request.</summary>
    public async Task HandleAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var request = context.Request;
        var response = context.Response;
        if (!request.Path.Equals(WcfBindingServers.EndpointPath, StringComparison.OrdinalIgnoreCase))
        {
            response.StatusCode = StatusCodes.Status404NotFound;
            return;
        }

        if (HttpMethods.IsGet(request.Method))
        {
            await ServeMetadataAsync(context);
            return;
        }

        if (!HttpMethods.IsPost(request.Method))
        {
            response.StatusCode = StatusCodes.Status405MethodNotAllowed;
            return;
        }

        if (request.ContentType is not { } type || !encoder.IsContentTypeSupported(type))
        {
            response.StatusCode = StatusCodes.Status415UnsupportedMediaType;
            await response.WriteAsync($"this endpoint reads {encoder.ContentType}, not '{request.ContentType?.ReplaceLineEndings(" ")}'");
            return;
        }

        Message reply;
        using (var body = new MemoryStream((int)Math.Min(request.ContentLength ?? 4096, 1 << 20)))
        {
            try
            {
                await request.Body.CopyToAsync(body, context.RequestAborted);
            }
            catch (BadHttpRequestException e)
            {
                response.StatusCode = e.StatusCode;
                return;
            }

            var size = (int)body.Length;
            var buffer = buffers.TakeBuffer(size);
            body.GetBuffer().AsSpan(0, size).CopyTo(buffer);
            try
            {
                using var message = encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, size), buffers, type);
                reply = authorize is null || authorize(message) ? dispatcher.Dispatch(message) : UserNameTokenCheck.FailedAuthentication(message.Version);
            }
            catch (Exception e) when (e is XmlException or CommunicationException)
            {
                reply = BenchmarkDispatcher.Fault(encoder.MessageVersion, FaultCode.CreateSenderFaultCode(null),
                    $"the request is not an envelope of {encoder.ContentType}: {e.Message.ReplaceLineEndings(" ")}");
            }
        }

        using (reply)
        {
            response.StatusCode = reply.IsFault ? StatusCodes.Status500InternalServerError : StatusCodes.Status200OK;
            response.ContentType = encoder.ContentType;
            var written = encoder.WriteMessage(reply, int.MaxValue, buffers);
            try
            {
                response.ContentLength = written.Count;
                await response.Body.WriteAsync(written.AsMemory(), context.RequestAborted);
            }
            finally
            {
                buffers.ReturnBuffer(written.Array!);
            }
        }
    }

    private async Task ServeMetadataAsync(HttpContext context)
    {
        var query = context.Request.QueryString.Value ?? "";
        var file = query.Equals("?wsdl", StringComparison.OrdinalIgnoreCase) ? "BenchmarkService.wsdl"
            : query == "?xsd=1" ? "BenchmarkService_schema1.xsd"
            : query == "?xsd=2" ? "BenchmarkService_schema2.xsd"
            : null;
        if (file is null || wsdl is null || !File.Exists(Path.Combine(wsdl, file)))
        {
            context.Response.StatusCode = StatusCodes.Status404NotFound;
            return;
        }

        // This endpoint's address as the caller reached it (the Metro WSDLs do the same from the Host header).
        var self = $"{context.Request.Scheme}://{context.Request.Host}{WcfBindingServers.EndpointPath}";
        var text = (await File.ReadAllTextAsync(Path.Combine(wsdl, file)))
            .Replace("REPLACE_WITH_ACTUAL_URL", self, StringComparison.Ordinal)
            .Replace("schemaLocation=\"BenchmarkService_schema1.xsd\"", $"schemaLocation=\"{self}?xsd=1\"", StringComparison.Ordinal)
            .Replace("schemaLocation=\"BenchmarkService_schema2.xsd\"", $"schemaLocation=\"{self}?xsd=2\"", StringComparison.Ordinal);
        if (file == "BenchmarkService.wsdl" && encoder.MessageVersion.Addressing != AddressingVersion.None)
        {
            text = WithAddressingPolicy(text);
        }

        context.Response.ContentType = "text/xml; charset=utf-8";
        await context.Response.WriteAsync(text);
    }

    /// <summary>The policy's <c>wsu:Id</c> in the served SOAP 1.2 WSDL (Metro's name for it).</summary>
    public const string AddressingPolicyId = "BenchmarkPortBinding_WSAM_Addressing_Policy";

    /// <summary>
    /// <paramref name="wsdl"/> (wsgen's SOAP 1.2 WSDL, which declares the <c>wsp</c>, <c>wsu</c> and <c>wsam</c> prefixes) with
    /// WS-Addressing 1.0 Metadata's <c>&lt;wsam:Addressing&gt;</c> (W3C, section 3.1; not optional: this endpoint dispatches on
    /// <c>wsa:Action</c>) referenced from its binding; unchanged when the binding element is not wsgen's.
    /// </summary>
    public static string WithAddressingPolicy(string wsdl)
    {
        ArgumentNullException.ThrowIfNull(wsdl);
        const string binding = "<binding name=\"BenchmarkPortBinding\" type=\"tns:Benchmark\">";
        const string end = "</definitions>";
        if (!wsdl.Contains(binding, StringComparison.Ordinal) || !wsdl.Contains(end, StringComparison.Ordinal))
        {
            return wsdl;
        }

        return wsdl
            .Replace(binding, $"{binding}\n    <wsp:PolicyReference URI=\"#{AddressingPolicyId}\"/>", StringComparison.Ordinal)
            .Replace(end, $"  <wsp:Policy wsu:Id=\"{AddressingPolicyId}\">\n    <wsam:Addressing>\n      <wsp:Policy/>\n    </wsam:Addressing>\n  </wsp:Policy>\n{end}", StringComparison.Ordinal);
    }
}
