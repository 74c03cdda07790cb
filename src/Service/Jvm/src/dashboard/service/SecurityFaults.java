package dashboard.service;

import dashboard.security.WsSecurity;
import java.util.UUID;
import javax.xml.namespace.QName;
import javax.xml.soap.MessageFactory;
import javax.xml.soap.SOAPConstants;
import javax.xml.soap.SOAPException;
import javax.xml.soap.SOAPHeader;
import javax.xml.soap.SOAPHeaderElement;
import javax.xml.soap.SOAPMessage;

/**
 * The fault a WS-Security handler answers a refused request with (docs/security.md): a SOAP fault with the WS-Security
 * code ({@link WsSecurity#AUTH_FAULT_CODES}) and a one-line reason, no stack trace; on SOAP 1.2 + WS-Addressing with the
 * reply's addressing headers (Action {@link #WSA_FAULT_ACTION}, a new MessageID, RelatesTo the request's MessageID, To
 * anonymous), which the RI's clients require.
 */
final class SecurityFaults {
    static final String WSA = "http://www.w3.org/2005/08/addressing";
    /** WS-Addressing 1.0 Metadata's default action of a fault that is not in the WSDL (what the RI's clients expect). */
    static final String WSA_FAULT_ACTION = WSA + "/fault";
    private static final MessageFactory SOAP11 = messageFactory(SOAPConstants.SOAP_1_1_PROTOCOL);
    private static final MessageFactory SOAP12 = messageFactory(SOAPConstants.SOAP_1_2_PROTOCOL);

    private SecurityFaults() {
    }

    /**
     * The fault message. {@code relatesTo}: the request's wsa:MessageID, or null (no RelatesTo). Throws
     * IllegalStateException when SAAJ cannot build it.
     */
    static SOAPMessage create(boolean soap12, String code, String reason, String relatesTo) {
        try {
            SOAPMessage fault = (soap12 ? SOAP12 : SOAP11).createMessage();
            WsSecurity.addFault(fault.getSOAPBody(), soap12, code, reason);
            if (soap12) {
                SOAPHeader header = fault.getSOAPHeader();
                SOAPHeaderElement action = header.addHeaderElement(new QName(WSA, "Action"));
                action.setMustUnderstand(true);
                action.addTextNode(WSA_FAULT_ACTION);
                header.addHeaderElement(new QName(WSA, "MessageID")).addTextNode("uuid:" + UUID.randomUUID());
                if (relatesTo != null) {
                    header.addHeaderElement(new QName(WSA, "RelatesTo")).addTextNode(relatesTo);
                }
                header.addHeaderElement(new QName(WSA, "To")).addTextNode(WSA + "/anonymous");
            }
            fault.saveChanges();
            return fault;
        } catch (SOAPException e) {
            throw new IllegalStateException("cannot build the security fault: " + e.getMessage(), e);
        }
    }

    private static MessageFactory messageFactory(String protocol) {
        try {
            return MessageFactory.newInstance(protocol);
        } catch (SOAPException e) {
            throw new IllegalStateException("no SAAJ message factory for " + protocol, e);
        }
    }
}
