using System.Security.Cryptography;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;
using System.Xml;

namespace Dashboard.Service.Host.WcfBindings;

/// <summary>
/// The message credential of <c>WcfWsHttpsUserName</c> (WSHttpBinding TransportWithMessageCredential + UserName, what the
/// WCF client on .NET sends as <c>UserNameOverTransport</c> with no security context token): the request's
/// <c>wsse:Security</c> header (WS-Security 1.0, OASIS 2004) must hold a <c>wsse:UsernameToken</c> whose
/// <c>wsse:Username</c> is a credential profile's user and whose <c>wsse:Password</c> (type PasswordText, the only one WCF
/// sends) is that profile's password, compared in constant time. The header's <c>wsu:Timestamp</c> is not checked and
/// the reply carries no security header (the client's <c>EnableUnsecuredResponse</c>); TLS (the host's server
/// certificate) protects both. Thread-safe.
/// </summary>
/// <param name="passwordsByUser">The profiles' passwords (UTF-8) by user name.</param>
public sealed class UserNameTokenCheck(IReadOnlyDictionary<string, byte[]> passwordsByUser)
{
    /// <summary>The WS-Security 1.0 secext namespace (the header's, the token's and the fault subcode's).</summary>
    public const string SecurityNamespace = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";

    /// <summary>True when <paramref name="request"/> carries a UsernameToken of a known user with its password.</summary>
    public bool IsValid(Message request)
    {
        ArgumentNullException.ThrowIfNull(request);
        var index = request.Headers.FindHeader("Security", SecurityNamespace);
        if (index < 0)
        {
            return false;
        }

        string? user = null, password = null;
        using (var reader = request.Headers.GetReaderAtHeader(index))
        {
            if (reader.IsEmptyElement)
            {
                return false;
            }

            var depth = reader.Depth;
            reader.Read();
            while (reader.Depth > depth && !reader.EOF)
            {
                if (reader.NodeType == XmlNodeType.Element && reader.NamespaceURI == SecurityNamespace && reader.LocalName is "Username" or "Password")
                {
                    var local = reader.LocalName;
                    var value = reader.ReadElementContentAsString();
                    if (local == "Username")
                    {
                        user = value;
                    }
                    else
                    {
                        password = value;
                    }

                    continue;
                }

                reader.Read();
            }
        }

        return user is not null && password is not null && passwordsByUser.TryGetValue(user, out var expected)
            && CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(password), expected);
    }

    /// <summary>WS-Security's refusal of a token (SOAP Sender, subcode <c>wsse:FailedAuthentication</c>), as a WCF service answers a wrong password.</summary>
    public static Message FailedAuthentication(MessageVersion version) => BenchmarkDispatcher.Fault(
        version,
        FaultCode.CreateSenderFaultCode(new FaultCode("FailedAuthentication", SecurityNamespace)),
        "At least one security token in the message could not be validated.");
}
