package dashboard.driver;

import java.util.concurrent.ConcurrentHashMap;

/** One-line descriptions of failures; the first failure of each outcome kind is logged to stderr. */
final class Failures {
    private static final ConcurrentHashMap<Integer, Boolean> LOGGED = new ConcurrentHashMap<>();

    private Failures() {
    }

    static void note(Throwable t, int outcome) {
        if (LOGGED.putIfAbsent(outcome, Boolean.TRUE) == null) {
            System.err.println("java-driver: first request with outcome " + outcome + ": " + describe(t));
        }
    }

    static String describe(Throwable t) {
        if (t == null) {
            return "unknown failure";
        }
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (b.length() > 0) {
                b.append(" <- ");
            }
            b.append(c.getClass().getSimpleName());
            if (c.getMessage() != null) {
                b.append(": ").append(c.getMessage().replace('\n', ' '));
            } else if (c instanceof com.zeroc.Ice.SecurityException security && security.reason != null) {
                b.append(": ").append(security.reason.replace('\n', ' ')); // IceSSL's handshake failure
            }
        }
        return b.toString();
    }

    /** True when {@code t} or one of its causes is an instance of {@code type}. */
    static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
