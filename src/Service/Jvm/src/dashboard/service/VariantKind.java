package dashboard.service;

import java.util.Arrays;
import java.util.Optional;

/** The variants this JVM can serve, with the catalogue's transport and encoding names (VariantCatalogue.cs). */
enum VariantKind {
    MetroSoap11("metro", "HTTP/1.1", "SOAP 1.1 text XML"),
    MetroSoap11FastInfoset("metro", "HTTP/1.1", "SOAP 1.1 FastInfoset (binary XML)"),
    MetroSoap12Wsa("metro", "HTTP/1.1", "SOAP 1.2 + WS-Addressing, text XML"),
    IceTcp("ice", "Ice protocol over TCP", "Ice binary encoding 1.1");

    final String stack;
    final String transport;
    final String encoding;

    VariantKind(String stack, String transport, String encoding) {
        this.stack = stack;
        this.transport = transport;
        this.encoding = encoding;
    }

    static Optional<VariantKind> parse(String name) {
        return Arrays.stream(values()).filter(v -> v.name().equals(name)).findFirst();
    }

    HostEndpoint endpoint(String address, String wsdl) {
        return new HostEndpoint(name(), stack, address, transport, encoding, "None", "None", wsdl);
    }
}
