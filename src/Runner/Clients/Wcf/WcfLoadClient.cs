using System.Net;
using System.Net.Sockets;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;
using System.ServiceModel.Security;
using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients.DotNet;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients.Wcf;

/// <summary>
/// One closed-loop <c>wcf</c> client: its own <see cref="ChannelFactory{TChannel}"/> of <see cref="IBenchmarkSoap"/> and its
/// own channel, hence its own <see cref="HttpClient"/> and TCP connection, as a WCF client application with one proxy per
/// user had.
/// </summary>
/// <remarks>
/// <para><b>Wire bytes.</b> WCF's HTTP transport on .NET is an <see cref="HttpClient"/>; WCF lets an endpoint behavior put a
/// <c>Func&lt;HttpClientHandler, HttpMessageHandler&gt;</c> into the binding parameters, and calls it with the handler it
/// configured when it builds the factory's <see cref="HttpClient"/> (<see cref="SocketHandlerBehavior"/>). The function returns a
/// <see cref="SocketsHttpHandler"/> (the handler <see cref="HttpClientHandler"/> wraps on .NET) with the settings WCF gave its
/// handler that matter here (the credentials and <c>PreAuthenticate</c> of Basic, cookies off) and a <c>ConnectCallback</c>
/// that opens the socket itself and wraps it in a <see cref="ByteCountingStream"/>, exactly as the <c>dotnet</c> client
/// does: a call's request bytes are those written to the socket during the call, its response's those read (HTTP headers,
/// a Basic challenge round trip and TLS records included). TLS runs over the counted stream, trusting only the host's CA with
/// the host name checked (<see cref="DotNetSecurity"/>); WCF's own certificate validation is therefore not involved.
/// NetTcpBinding (the wcfbindings stack's net.tcp variants) opens its own sockets, which WCF on .NET offers no hook for:
/// its samples' bytes are unknown (<see cref="Sample.UnknownBytes"/>); its TLS (Transport security) is WCF's own, with the
/// server's certificate checked against the host's CA by <see cref="CaCertificateValidator"/>.</para>
/// <para><b>Errors.</b> A <see cref="MessageSecurityException"/> (HTTP 401/403, an unsecured or WS-Security fault), a
/// <see cref="SecurityNegotiationException"/> (TLS refused) or a SOAP fault whose code is a WS-Security refusal is
/// Authentication; <see cref="TimeoutException"/> Timeout; <see cref="EndpointNotFoundException"/> and other communication
/// errors caused by the socket Connection; any other SOAP fault or a reply WCF cannot read Fault; a reply that reads but
/// differs from the payload's expected one WrongReply. After an error that faults the channel a new channel is made from the
/// same factory (same connection pool), as a WCF application must.</para>
/// <para>WCF's calls take no cancellation token: a cancelled level abandons its in-flight call (no sample), as the other
/// drivers do.</para>
/// </remarks>
public sealed class WcfLoadClient : ILoadClient
{
    private static readonly string[] SecurityFaultCodes = ["FailedAuthentication", "FailedCheck", "InvalidSecurity", "SecurityTokenUnavailable", "InvalidSecurityToken"];

    private readonly HostEndpoint _endpoint;
    private readonly PayloadCase _payload;
    private readonly object?[] _arguments;
    private readonly object?[] _wireArguments;
    private readonly ChannelFactory<IBenchmarkSoap> _factory;
    private IBenchmarkSoap? _channel;
    private readonly CountedConnection _connection = new();

    /// <summary>Creates the client; nothing is connected until <see cref="OpenAsync"/>.</summary>
    /// <param name="endpoint">The endpoint as the host listed it (a Metro SOAP variant the wcf client calls).</param>
    /// <param name="payload">The payload case.</param>
    /// <param name="timeout">Per-request (and open) timeout: the binding's send, receive and open timeouts and the connect timeout.</param>
    /// <param name="security">The CA of TLS variants (owned by the caller).</param>
    /// <param name="credentials">The Basic or UserName credentials, or null (then the service's refusals are counted).</param>
    /// <exception cref="ArgumentException">The wcf client cannot call the endpoint's variant.</exception>
    public WcfLoadClient(HostEndpoint endpoint, PayloadCase payload, TimeSpan timeout, DotNetSecurity security, DriverCredentials? credentials)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(payload);
        ArgumentNullException.ThrowIfNull(security);
        _endpoint = endpoint;
        _payload = payload;
        _arguments = payload.CreateArguments();
        _wireArguments = WcfOperations.ToWire(_arguments);
        var binding = WcfBinding.For(endpoint.Name, timeout);
        var tlsOverTcp = binding is NetTcpBinding { Security.Mode: SecurityMode.Transport };
        // net.tcp's TLS is WCF's own SslStream, and WCF then compares the address's host with the certificate's DNS names
        // only (an address such as 127.0.0.1 never matches): the certificate's name is checked against the address's host
        // by CaCertificateValidator instead (IP addresses included, as the other clients' TLS does), and WCF is told the
        // certificate's common name, which every host certificate has (docs/security.md).
        var address = tlsOverTcp
            ? new EndpointAddress(new Uri(endpoint.Address), new DnsEndpointIdentity(ServerCommonName))
            : new EndpointAddress(endpoint.Address);
        _factory = new ChannelFactory<IBenchmarkSoap>(binding, address);
        _factory.Endpoint.EndpointBehaviors.Add(new SocketHandlerBehavior(this, security, timeout));
        if (tlsOverTcp)
        {
            // net.tcp's TLS is WCF's own SslStream: the server's certificate is checked here, against the host's CA alone.
            _factory.Credentials.ServiceCertificate.SslCertificateAuthentication = new X509ServiceCertificateAuthentication
            {
                CertificateValidationMode = X509CertificateValidationMode.Custom,
                CustomCertificateValidator = new CaCertificateValidator(security, new Uri(endpoint.Address).Host),
                RevocationMode = System.Security.Cryptography.X509Certificates.X509RevocationMode.NoCheck,
            };
        }
        if (tlsOverTcp && security.ClientCertificate is { } certificate)
        {
            // NetTcpBinding Transport with TcpClientCredentialType.Certificate: WCF's SSL stream upgrade presents it.
            _factory.Credentials.ClientCertificate.Certificate = certificate;
        }

        if (credentials?.UserName is { } user)
        {
            _factory.Credentials.UserName.UserName = user;
            _factory.Credentials.UserName.Password = credentials.Password;
        }
    }

    /// <inheritdoc />
    /// <remarks>Opens the factory and a channel and calls <c>EmptyMethod</c> once (not recorded): the connection is open and
    /// the service answers before the clock starts. A refusal of the credentials lets the level run (every sample then says
    /// Authentication); anything else that prevents the call fails the cell with the reason.</remarks>
    public async ValueTask OpenAsync(CancellationToken cancellationToken)
    {
        try
        {
            await Task.Factory.FromAsync(_factory.BeginOpen, _factory.EndOpen, null).WaitAsync(cancellationToken);
            var channel = NewChannel();
            await WcfOperations.CallAsync(channel, "EmptyMethod", []).WaitAsync(cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (Exception e) when (Classify(e) == SampleOutcome.Authentication)
        {
            ReplaceFaultedChannel();
        }
        catch (TimeoutException e)
        {
            throw new LoadClientException($"cannot connect to {_endpoint.Name} at {_endpoint.Address}: no answer within {_factory.Endpoint.Binding.SendTimeout.TotalSeconds:0} s", e);
        }
        catch (Exception e) when (e is CommunicationException or InvalidOperationException)
        {
            throw new LoadClientException($"cannot call {_endpoint.Name} at {_endpoint.Address} with WCF: {Reason(e)}", e);
        }
    }

    /// <inheritdoc />
    public async ValueTask<CallResult> CallAsync(CancellationToken cancellationToken)
    {
        var mark = _connection.Mark();
        SampleOutcome outcome;
        try
        {
            // A new channel connects here on net.tcp (its TLS handshake included), so its refusal is this call's outcome.
            var channel = _channel ?? NewChannel();
            var reply = await WcfOperations.CallAsync(channel, _payload.Operation, _wireArguments).WaitAsync(cancellationToken);
            outcome = _payload.IsExpectedReply(_arguments, reply) ? SampleOutcome.Success : SampleOutcome.WrongReply;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (Exception e) when (e is CommunicationException or TimeoutException or InvalidOperationException)
        {
            outcome = Classify(e);
            ReplaceFaultedChannel();
        }

        return _connection.Result(outcome, mark);
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        if (_channel is ICommunicationObject channel)
        {
            channel.Abort();
        }

        _factory.Abort();
        return ValueTask.CompletedTask;
    }

    /// <summary>The outcome an exception thrown by a WCF call stands for (see the class remarks).</summary>
    public static SampleOutcome Classify(Exception error)
    {
        ArgumentNullException.ThrowIfNull(error);
        return error switch
        {
            MessageSecurityException or SecurityNegotiationException or SecurityAccessDeniedException => SampleOutcome.Authentication,
            FaultException fault when IsSecurityFault(fault.Code) => SampleOutcome.Authentication,
            FaultException => SampleOutcome.Fault,
            TimeoutException => SampleOutcome.Timeout,
            EndpointNotFoundException => SampleOutcome.Connection,
            CommunicationException when HasTlsRefusal(error) => SampleOutcome.Authentication,
            CommunicationException when Has<SocketException>(error) || Has<IOException>(error) || Has<HttpRequestException>(error) => SampleOutcome.Connection,
            CommunicationException => SampleOutcome.Fault,
            _ => SampleOutcome.Other,
        };
    }

    private static bool IsSecurityFault(FaultCode? code)
    {
        for (; code is not null; code = code.SubCode)
        {
            if (SecurityFaultCodes.Contains(code.Name, StringComparer.Ordinal))
            {
                return true;
            }
        }

        return false;
    }

    private static bool HasTlsRefusal(Exception error)
    {
        for (var e = error; e is not null; e = e.InnerException)
        {
            if (e is System.Security.Authentication.AuthenticationException || (e is HttpRequestException h && DotNetSecurity.IsTlsRefusal(h)))
            {
                return true;
            }
        }

        return false;
    }

    private static bool Has<T>(Exception error)
        where T : Exception
    {
        for (var e = error.InnerException; e is not null; e = e.InnerException)
        {
            if (e is T)
            {
                return true;
            }
        }

        return false;
    }

    private IBenchmarkSoap NewChannel()
    {
        var channel = _factory.CreateChannel();
        try
        {
            ((IClientChannel)channel).Open();
        }
        catch
        {
            ((IClientChannel)channel).Abort();
            throw;
        }

        _channel = channel;
        return channel;
    }

    private void ReplaceFaultedChannel()
    {
        if (_channel is ICommunicationObject { State: not CommunicationState.Opened } channel)
        {
            channel.Abort();
            _channel = null;
        }
    }

    private static string Reason(Exception e)
    {
        var inner = e;
        while (inner.InnerException is { } next && inner is CommunicationException)
        {
            inner = next;
        }

        var text = inner == e ? e.Message : $"{e.Message} ({inner.Message})";
        return text.ReplaceLineEndings(" ");
    }

    /// <summary>The common name of every host's server certificate (src/Service/Host/Security/SecurityMaterial.cs).</summary>
    private const string ServerCommonName = "localhost";

    /// <summary>Accepts a server certificate that chains to the host's CA alone and names the address's host (<see cref="DotNetSecurity.IsTrustedServerCertificate"/>).</summary>
    private sealed class CaCertificateValidator(DotNetSecurity security, string host) : System.IdentityModel.Selectors.X509CertificateValidator
    {
        public override void Validate(System.Security.Cryptography.X509Certificates.X509Certificate2 certificate)
        {
            if (!security.IsTrustedServerCertificate(certificate))
            {
                throw new SecurityNegotiationException($"the server's certificate '{certificate.Subject}' is not issued by the host's CA");
            }

            if (!certificate.MatchesHostname(host.Trim('[', ']')))
            {
                throw new SecurityNegotiationException($"the server's certificate '{certificate.Subject}' does not name {host}");
            }
        }
    }

    /// <summary>Gives WCF's <see cref="HttpClient"/> a socket handler of ours (see the class remarks): counted bytes, one connection, our CA.</summary>
    private sealed class SocketHandlerBehavior(WcfLoadClient client, DotNetSecurity security, TimeSpan timeout) : IEndpointBehavior
    {
        public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters) =>
            bindingParameters.Add(new Func<HttpClientHandler, HttpMessageHandler>(CreateHandler));

        public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime)
        {
        }

        public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
        {
        }

        public void Validate(ServiceEndpoint endpoint)
        {
        }

        private SocketsHttpHandler CreateHandler(HttpClientHandler configured)
        {
            var handler = client._connection.CreateHandler(timeout);
            handler.Credentials = configured.Credentials;
            handler.PreAuthenticate = configured.PreAuthenticate;
            security.Configure(handler);
            configured.Dispose();
            return handler;
        }
    }
}
