package dashboard.service;

import dashboard.common.Json;

/** One served variant, in the shape of the host's GET /endpoints entries (docs/jvm-service.md). */
record HostEndpoint(String name, String stack, String address, String transport, String encoding,
        String securityMode, String credentialType, String wsdl) {

    String toJson() {
        return "{\"name\":" + Json.quote(name) + ",\"stack\":" + Json.quote(stack) + ",\"address\":" + Json.quote(address)
                + ",\"transport\":" + Json.quote(transport) + ",\"encoding\":" + Json.quote(encoding)
                + ",\"securityMode\":" + Json.quote(securityMode) + ",\"credentialType\":" + Json.quote(credentialType)
                + ",\"wsdl\":" + Json.quote(wsdl) + "}";
    }
}
