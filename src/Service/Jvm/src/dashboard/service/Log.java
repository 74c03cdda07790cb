package dashboard.service;

import java.time.Instant;

/** People-facing log lines, on standard error (standard output carries only the ready/fail line). */
final class Log {
    private Log() {
    }

    static void info(String message) {
        System.err.println(Instant.now() + " jvm-service: " + message);
    }
}
