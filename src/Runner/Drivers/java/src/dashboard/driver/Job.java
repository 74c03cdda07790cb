package dashboard.driver;

import java.util.Map;

/** The job line of docs/driver-protocol.md: the endpoint (as GET /endpoints lists it), the payload id, the timeout. */
record Job(String variant, String stack, String address, String payload, int timeoutMs) {

    static Job parse(String line) {
        if (!(Json.parse(line) instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("the job line is not a JSON object");
        }
        if (!"job".equals(map.get("type"))) {
            throw new IllegalArgumentException("the first line must be {\"type\":\"job\",...}, got type " + map.get("type"));
        }
        if (!(map.get("protocol") instanceof Long protocol) || protocol != 1) {
            throw new IllegalArgumentException("protocol must be 1, got " + map.get("protocol"));
        }
        if (!(map.get("endpoint") instanceof Map<?, ?> endpoint)) {
            throw new IllegalArgumentException("the job has no endpoint object");
        }
        long timeout = map.get("timeoutMs") instanceof Long t ? t : 30_000L;
        if (timeout <= 0 || timeout > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeoutMs must be positive, got " + timeout);
        }
        return new Job(text(endpoint, "name"), text(endpoint, "stack"), text(endpoint, "address"), text(map, "payload"),
                (int) timeout);
    }

    private static String text(Map<?, ?> map, String key) {
        if (!(map.get(key) instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("the job needs a string '" + key + "'");
        }
        return s;
    }
}
