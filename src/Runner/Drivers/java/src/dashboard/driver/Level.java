package dashboard.driver;

import java.util.Map;

/** A level line: how many clients, warm-up requests per client, and requests per client or a duration. */
record Level(int index, int clients, int warmup, Long requests, Long durationMs) {

    static Level from(Map<?, ?> map) {
        int index = (int) number(map, "index", true);
        int clients = (int) number(map, "clients", true);
        int warmup = (int) number(map, "warmup", true);
        Long requests = map.get("requests") == null ? null : number(map, "requests", true);
        Long duration = map.get("durationMs") == null ? null : number(map, "durationMs", true);
        if (clients < 1) {
            throw new IllegalArgumentException("clients must be at least 1, got " + clients);
        }
        if ((requests == null) == (duration == null)) {
            throw new IllegalArgumentException("exactly one of requests and durationMs must be non-null");
        }
        return new Level(index, clients, warmup, requests, duration);
    }

    private static long number(Map<?, ?> map, String key, boolean nonNegative) {
        if (!(map.get(key) instanceof Long n) || (nonNegative && n < 0)) {
            throw new IllegalArgumentException("level needs a non-negative integer '" + key + "', got " + map.get(key));
        }
        return n;
    }
}
