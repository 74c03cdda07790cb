package dashboard.driver;

import com.sun.xml.ws.api.handler.MessageHandler;
import com.sun.xml.ws.api.handler.MessageHandlerContext;
import com.sun.xml.ws.api.message.Message;
import com.sun.xml.ws.api.message.Messages;
import com.sun.xml.ws.api.streaming.XMLStreamReaderFactory;
import dashboard.security.WsSecurity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import javax.xml.ws.handler.MessageContext;
import org.apache.ws.security.WSSecurityException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.ls.DOMImplementationLS;
import org.w3c.dom.ls.LSOutput;
import org.w3c.dom.ls.LSSerializer;
import org.xml.sax.SAXException;

/**
 * The java driver's WS-Security X.509 through WSS4J (docs/security.md), as a Metro {@link MessageHandler} on each
 * client's proxy (UsernameToken is {@link ClientUsernameTokenHandler}'s). It signs each request with the client's key
 * and encrypts its Body to the server's certificate; decrypts each reply with the client's key and verifies its
 * signature against the CA (a reply that does not verify fails the request with {@link ReplyRefusedException}: outcome
 * 4). Faults pass through unverified, so the service's {@code wsse:*} fault codes reach the caller.
 *
 * <p>Each message goes RI message → bytes → JDK DOM (WSS4J's input) → bytes → a streamed RI message, never through
 * SAAJ: the JAX-WS RI keeps a request's message until its reply arrives, and as a SAAJ message a {@code UDTypeArray1000}
 * request held its whole DOM that long, and 300 waiting clients filled a 6 GB heap (about 4.7 M SAAJ elements) (bench/README.md,
 * stress 2026-11-24). Streamed, a waiting request holds its secured bytes only (about 0.5 MB). One handler per client
 * proxy, used by that client's thread only.</p>
 */
final class ClientSecurityHandler implements MessageHandler<MessageHandlerContext> {
    /**
     * Test switch (system property, docs in the driver README): change the signed Body after signing and before
     * encrypting, so the service sees a signature that no longer matches. Never set in runs.
     */
    static final String ALTER_SIGNED_BODY = "dashboard.driver.alterSignedBody";

    private final WsSecurity.X509Party x509;
    private final X509Certificate serverCertificate;
    private final boolean alterSignedBody = Boolean.getBoolean(ALTER_SIGNED_BODY);
    private final DocumentBuilder parser;
    private final LSSerializer serializer;
    private final XMLOutputFactory output = XMLOutputFactory.newInstance();

    private ClientSecurityHandler(WsSecurity.X509Party x509, X509Certificate serverCertificate) {
        this.x509 = x509;
        this.serverCertificate = serverCertificate;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            this.parser = factory.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("no DOM parser: " + e.getMessage(), e);
        }
        this.serializer = ((DOMImplementationLS) parser.getDOMImplementation()).createLSSerializer();
        serializer.getDomConfig().setParameter("xml-declaration", false);
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
    public boolean handleMessage(MessageHandlerContext context) {
        boolean outbound = Boolean.TRUE.equals(context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY));
        try {
            Document doc = toDocument(context.getMessage());
            if (outbound) {
                if (alterSignedBody) {
                    WsSecurity.signAlterAndEncrypt(doc, x509, serverCertificate, ClientSecurityHandler::alterFirstText);
                } else {
                    WsSecurity.signAndEncrypt(doc, x509, serverCertificate);
                }
            } else {
                WsSecurity.verifyAndDecrypt(doc, x509);
            }
            context.setMessage(toMessage(doc));
        } catch (WSSecurityException e) {
            if (outbound) {
                throw new IllegalStateException("cannot secure the request: " + e.getMessage(), e);
            }
            throw new ReplyRefusedException("the reply's security header is refused: " + WsSecurity.faultCode(e) + ": " + e.getMessage(), e);
        } catch (XMLStreamException | SAXException | IOException e) {
            throw new IllegalStateException("cannot read the " + (outbound ? "request" : "reply") + " as XML: " + e.getMessage(), e);
        }
        return true;
    }

    /** The message's whole envelope as a JDK DOM (consumes the message). */
    private Document toDocument(Message message) throws XMLStreamException, SAXException, IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * 1024);
        XMLStreamWriter writer = output.createXMLStreamWriter(bytes, "UTF-8");
        message.writeTo(writer); // writes the XML declaration and ends the document
        writer.close();
        return parser.parse(new ByteArrayInputStream(bytes.toByteArray()));
    }

    /** A streamed RI message over the envelope's UTF-8 bytes (what the RI keeps until the reply arrives: no DOM). */
    private Message toMessage(Document doc) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * 1024);
        LSOutput target = ((DOMImplementationLS) parser.getDOMImplementation()).createLSOutput();
        target.setByteStream(bytes);
        target.setEncoding("UTF-8");
        serializer.write(doc, target);
        return Messages.create(XMLStreamReaderFactory.create(null, new ByteArrayInputStream(bytes.toByteArray()), true));
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
    public boolean handleFault(MessageHandlerContext context) {
        return true;
    }

    @Override
    public void close(MessageContext context) {
        // nothing held per exchange
    }
}
