package dashboard.driver;

import com.sun.xml.ws.api.handler.MessageHandler;
import com.sun.xml.ws.api.handler.MessageHandlerContext;
import com.sun.xml.ws.api.message.Headers;
import dashboard.security.WsSecurity;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.ws.handler.MessageContext;
import org.apache.ws.security.WSSecurityException;

/**
 * The java driver's WS-Security UsernameToken (docs/security.md), as a Metro {@link MessageHandler} on each client's
 * proxy: every request gets a {@code wsse:Security} header with a UsernameToken (PasswordText, nonce, created) built by
 * WSS4J in a small document of its own and added to the RI's header list, so the body is marshalled once, straight to
 * the connection, as on the unsecure variants (a SOAP handler would turn each request into a SAAJ message and back).
 * Throws IllegalStateException (outcome: other) when WSS4J cannot build the token.
 */
final class ClientUsernameTokenHandler implements MessageHandler<MessageHandlerContext> {
    private final String userName;
    private final String password;

    ClientUsernameTokenHandler(String userName, String password) {
        this.userName = userName;
        this.password = password;
    }

    @Override
    public Set<QName> getHeaders() {
        return Set.of(WsSecurity.securityHeader());
    }

    @Override
    public boolean handleMessage(MessageHandlerContext context) {
        if (Boolean.TRUE.equals(context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY))) {
            try {
                String soapNs = context.getWSBinding().getSOAPVersion().nsUri;
                context.getMessage().getHeaders().add(Headers.create(WsSecurity.usernameTokenHeader(soapNs, userName, password)));
            } catch (WSSecurityException e) {
                throw new IllegalStateException("cannot secure the request: " + e.getMessage(), e);
            }
        }
        return true;
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
