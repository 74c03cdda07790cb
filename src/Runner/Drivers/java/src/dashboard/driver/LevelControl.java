package dashboard.driver;

/** Cancellation of the level in progress, set from the stdin reader or the SIGINT handler. */
final class LevelControl {
    private volatile boolean cancelled;
    private volatile long cancelledAtMs;

    void cancel() {
        if (!cancelled) {
            cancelledAtMs = System.currentTimeMillis();
            cancelled = true;
        }
    }

    boolean isCancelled() {
        return cancelled;
    }

    long cancelledAtMs() {
        return cancelledAtMs;
    }
}
