package dashboard.service;

import dashboard.security.WsSecurity;
import java.security.cert.X509Certificate;
import java.util.Iterator;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.soap.SOAPElement;
import javax.xml.soap.SOAPException;
import javax.xml.soap.SOAPHeader;
import javax.xml.soap.SOAPMessage;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.handler.MessageContext;
import javax.xml.ws.handler.soap.SOAPHandler;
import javax.xml.ws.handler.soap.SOAPMessageContext;
import org.apache.ws.security.WSSecurityException;
import org.w3c.dom.Document;

/**
 * WS-Security X.509 on a Metro endpoint through WSS4J (docs/security.md), as a JAX-WS SOAP handler (it runs after the
 * RI's WS-Addressing tube on requests, before it on replies): signing and encrypting the body needs all of it as a DOM.
 * The request must be signed (Body and Timestamp) by a certificate that chains to ca.crt and its Body encrypted to
 * server.p12's certificate; it is decrypted and verified, else {@code wsse:FailedCheck} (signature or decryption
 * invalid, e.g. a changed body), {@code wsse:FailedAuthentication} (untrusted signer) or {@code wsse:InvalidSecurity}.
 * The reply is signed with the server's key and its Body encrypted to the certificate that signed the request.
 * Faults: {@link SecurityFaults}. UsernameToken is {@link UsernameTokenHandler}'s.
 */
final class ServerSecurityHandler implements SOAPHandler<SOAPMessageContext> {
    /** The request's signing certificate, handed from the request to its reply (same exchange, same thread). */
    private static final ThreadLocal<X509Certificate> REQUEST_SIGNER = new ThreadLocal<>();

    private final SecurityMaterial material;
    private final boolean soap12;

    ServerSecurityHandler(SecurityMaterial material, boolean soap12) {
        this.material = material;
        this.soap12 = soap12;
    }

    @Override
    public Set<QName> getHeaders() {
        return Set.of(WsSecurity.securityHeader()); // understood here: the RI's mustUnderstand check lets it through
    }

    @Override
    public boolean handleMessage(SOAPMessageContext context) {
        boolean outbound = Boolean.TRUE.equals(context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY));
        SOAPMessage message = context.getMessage();
        if (outbound) {
            secureReply(message);
            return true;
        }
        REQUEST_SIGNER.remove();
        String refusal;
        String reason;
        try {
            Document doc = WsSecurity.copy(message);
            REQUEST_SIGNER.set(WsSecurity.verifyAndDecrypt(doc, material.x509()));
            WsSecurity.replace(message, doc);
            return true;
        } catch (WSSecurityException e) {
            refusal = WsSecurity.faultCode(e);
            reason = e.getMessage();
        } catch (SOAPException | RuntimeException e) {
            refusal = "InvalidSecurity";
            reason = "the security header cannot be processed: " + e.getClass().getSimpleName();
        }
        // Answer with the fault ourselves (returning false turns the exchange around): a fault thrown from a handler
        // would leave the RI's reply without the WS-Addressing headers its own clients require.
        context.setMessage(SecurityFaults.create(soap12, refusal, reason, requestMessageId(message)));
        if (soap12) {
            // The reply's Content-Type carries action="…" from the exchange's SOAP action, which the RI's clients compare
            // with wsa:Action: make it the fault's.
            context.put(BindingProvider.SOAPACTION_URI_PROPERTY, SecurityFaults.WSA_FAULT_ACTION);
        }
        return false;
    }

    private static String requestMessageId(SOAPMessage request) {
        try {
            SOAPHeader header = request.getSOAPHeader();
            if (header != null) {
                Iterator<?> ids = header.getChildElements(new QName(SecurityFaults.WSA, "MessageID"));
                if (ids.hasNext() && ids.next() instanceof SOAPElement id) {
                    return id.getValue();
                }
            }
        } catch (SOAPException e) {
            // no header to relate to
        }
        return null;
    }

    private void secureReply(SOAPMessage message) {
        X509Certificate recipient = REQUEST_SIGNER.get();
        REQUEST_SIGNER.remove();
        if (recipient == null) {
            throw new IllegalStateException("no verified request signer to encrypt the reply to");
        }
        try {
            Document doc = WsSecurity.copy(message);
            WsSecurity.signAndEncrypt(doc, material.x509(), recipient);
            WsSecurity.replace(message, doc);
        } catch (WSSecurityException | SOAPException e) {
            throw new IllegalStateException("cannot secure the reply: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean handleFault(SOAPMessageContext context) {
        REQUEST_SIGNER.remove(); // faults go back unsigned: the client may not be who it claims
        return true;
    }

    @Override
    public void close(MessageContext context) {
        // nothing held per exchange beyond the thread-local cleared above
    }
}
