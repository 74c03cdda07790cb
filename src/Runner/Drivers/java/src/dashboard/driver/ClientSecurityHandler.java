package dashboard.driver;

import dashboard.security.WsSecurity;
import java.security.cert.X509Certificate;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.soap.SOAPException;
import javax.xml.soap.SOAPMessage;
import javax.xml.ws.handler.MessageContext;
import javax.xml.ws.handler.soap.SOAPHandler;
import javax.xml.ws.handler.soap.SOAPMessageContext;
import org.apache.ws.security.WSSecurityException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The java driver's WS-Security X.509 through WSS4J (docs/security.md), as a JAX-WS SOAP handler on each client's proxy
 * (UsernameToken is {@link ClientUsernameTokenHandler}'s). It signs each request with the client's key and encrypts its
 * Body to the server's certificate; decrypts each reply with the client's key and verifies its signature against the
 * CA (a reply that does not verify fails the request with {@link ReplyRefusedException}: outcome 4). Faults pass
 * through unverified, so the service's {@code wsse:*} fault codes reach the caller.
 */
final class ClientSecurityHandler implements SOAPHandler<SOAPMessageContext> {
    /**
     * Test switch (system property, docs in the driver README): change the signed Body after signing and before
     * encrypting, so the service sees a signature that no longer matches. Never set in runs.
     */
    static final String ALTER_SIGNED_BODY = "dashboard.driver.alterSignedBody";

    private final WsSecurity.X509Party x509;
    private final X509Certificate serverCertificate;
    private final boolean alterSignedBody = Boolean.getBoolean(ALTER_SIGNED_BODY);

    private ClientSecurityHandler(WsSecurity.X509Party x509, X509Certificate serverCertificate) {
        this.x509 = x509;
        this.serverCertificate = serverCertificate;
    }

    static ClientSecurityHandler x509(WsSecurity.X509Party client, X509Certificate serverCertificate) {
        return new ClientSecurityHandler(client, serverCertificate);
    }

    /** A reply whose security header does not verify (signature, trust, decryption): the request failed authentication. */
    static final class ReplyRefusedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ReplyRefusedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    @Override
    public Set<QName> getHeaders() {
        return Set.of(WsSecurity.securityHeader());
    }

    @Override
    public boolean handleMessage(SOAPMessageContext context) {
        boolean outbound = Boolean.TRUE.equals(context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY));
        SOAPMessage message = context.getMessage();
        try {
            if (outbound) {
                Document doc = WsSecurity.copy(message);
                if (alterSignedBody) {
                    WsSecurity.signAlterAndEncrypt(doc, x509, serverCertificate, ClientSecurityHandler::alterFirstText);
                } else {
                    WsSecurity.signAndEncrypt(doc, x509, serverCertificate);
                }
                WsSecurity.replace(message, doc);
            } else {
                Document doc = WsSecurity.copy(message);
                WsSecurity.verifyAndDecrypt(doc, x509);
                WsSecurity.replace(message, doc);
            }
        } catch (WSSecurityException e) {
            if (outbound) {
                throw new IllegalStateException("cannot secure the request: " + e.getMessage(), e);
            }
            throw new ReplyRefusedException("the reply's security header is refused: " + WsSecurity.faultCode(e) + ": " + e.getMessage(), e);
        } catch (SOAPException e) {
            throw new IllegalStateException("cannot copy the SOAP message: " + e.getMessage(), e);
        }
        return true;
    }

    /** Changes the first text node under {@code element} (a digit or letter becomes another one). */
    private static void alterFirstText(Element element) {
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.TEXT_NODE && !n.getNodeValue().isEmpty()) {
                String v = n.getNodeValue();
                n.setNodeValue((v.charAt(0) == '1' ? "2" : "1") + v.substring(1));
                return;
            }
            if (n instanceof Element child) {
                alterFirstText(child);
                return;
            }
        }
        element.appendChild(element.getOwnerDocument().createTextNode("altered"));
    }

    @Override
    public boolean handleFault(SOAPMessageContext context) {
        return true;
    }

    @Override
    public void close(MessageContext context) {
        // nothing held per exchange
    }
}
