package dashboard.service;

import dashboard.security.WsSecurity;
import java.security.cert.X509Certificate;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.Semaphore;
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
 *
 * <p>Admission: an exchange holds its envelope as SAAJ's DOM and a DOM copy (tens of MB for a 1000-element array), so
 * at most {@code maxConcurrentCalls} exchanges are processed at once, from reading the request to securing the reply;
 * the others wait before their request is read (as WCF's {@code ServiceThrottlingBehavior.MaxConcurrentCalls} holds
 * calls back). Without it, 300 clients × {@code UDTypeArray1000} filled a 3.6 GB heap and the JVM spent its time in full
 * collections (measured 2026-11-24: 402 full GCs, 1,037 s of 24 min).</p>
 */
final class ServerSecurityHandler implements SOAPHandler<SOAPMessageContext> {
    /** The request's signing certificate, handed from the request to its reply (same exchange, same thread). */
    private static final ThreadLocal<X509Certificate> REQUEST_SIGNER = new ThreadLocal<>();

    /** Whether this thread's exchange holds a permit of {@link #inProcess} (request, service and reply: one thread). */
    private static final ThreadLocal<Boolean> HOLDS_PERMIT = new ThreadLocal<>();

    private final SecurityMaterial material;
    private final boolean soap12;
    private final Semaphore inProcess;

    /**
     * {@code maxConcurrentCalls}: exchanges processed at once (≥ 1; the service's default is 4 per core,
     * {@code -Ddashboard.maxConcurrentX509Calls}). Throws IllegalArgumentException when below 1.
     */
    ServerSecurityHandler(SecurityMaterial material, boolean soap12, int maxConcurrentCalls) {
        if (maxConcurrentCalls < 1) {
            throw new IllegalArgumentException("maxConcurrentCalls must be at least 1, was " + maxConcurrentCalls);
        }
        this.material = material;
        this.soap12 = soap12;
        this.inProcess = new Semaphore(maxConcurrentCalls, true);
    }

    @Override
    public Set<QName> getHeaders() {
        return Set.of(WsSecurity.securityHeader()); // understood here: the RI's mustUnderstand check lets it through
    }

    @Override
    public boolean handleMessage(SOAPMessageContext context) {
        boolean outbound = Boolean.TRUE.equals(context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY));
        if (outbound) {
            try {
                secureReply(context.getMessage());
            } finally {
                releasePermit();
            }
            return true;
        }
        REQUEST_SIGNER.remove();
        releasePermit(); // a permit left by an exchange that ended without a reply or close (never expected)
        inProcess.acquireUninterruptibly(); // before getMessage(): a waiting request is not parsed yet
        HOLDS_PERMIT.set(Boolean.TRUE);
        SOAPMessage message = context.getMessage();
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
        releasePermit(); // the fault goes back without passing this handler again
        return false;
    }

    private void releasePermit() {
        if (HOLDS_PERMIT.get() != null) {
            HOLDS_PERMIT.remove();
            inProcess.release();
        }
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
        releasePermit();
        return true;
    }

    @Override
    public void close(MessageContext context) {
        REQUEST_SIGNER.remove();
        releasePermit(); // the exchange is over whichever way it went
    }
}
