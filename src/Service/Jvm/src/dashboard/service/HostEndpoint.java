package dashboard.service;

/**
 * One served variant, in the shape of the host's GET /endpoints entries (docs/jvm-service.md); written as JSON by
 * {@link dashboard.common.Json#write} with its components as the member names, in this order.
 */
record HostEndpoint(String name, String stack, String address, String transport, String encoding,
        String securityMode, String credentialType, String wsdl) {
}
