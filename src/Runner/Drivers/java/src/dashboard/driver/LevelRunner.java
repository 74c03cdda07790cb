package dashboard.driver;

import dashboard.common.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs one level: one thread per client, each with its own client object and sample buffer, released together.
 * Clients are kept across levels (a long-lived client stays warm); a client abandoned on cancel is replaced.
 */
final class LevelRunner {
    /** How long a cancelled level waits for in-flight requests before abandoning them. */
    private static final long CANCEL_GRACE_MS = 1_000;

    /** How often a running level writes its progress ({@code p} record). */
    private static final long PROGRESS_INTERVAL_NS = 1_000_000_000L;

    /** The body of a {@code p} record: requests after warm-up so far, µs since the level's start. */
    private record Progress(long requests, long elapsedUs) {
    }

    private final ClientFactory factory;
    private final java.io.PrintStream progress;
    private final List<BenchmarkClient> clients = new ArrayList<>();

    /** {@code progress} receives the {@code p} records of running levels (the protocol's stdout), or null for none. */
    LevelRunner(ClientFactory factory, java.io.PrintStream progress) {
        this.factory = factory;
        this.progress = progress;
    }

    /** The result of a level; {@code noClientConnected} holds the reason when none could connect. */
    record Result(StringBuilder samples, long startedUnixMs, long elapsedUs, boolean cancelled, String noClientConnected) {
    }

    Result run(Level level, LevelControl control) {
        Throwable lastConnectFailure = null;
        int connected = 0;
        while (clients.size() < level.clients()) {
            clients.add(factory.create(clients.size()));
        }
        for (int i = 0; i < level.clients(); i++) {
            try {
                clients.get(i).connect();
                connected++;
            } catch (Exception e) {
                if (factory.classify(e) == Outcome.AUTHENTICATION) {
                    // Refused for its credentials (e.g. an untrusted server certificate): the client runs, and each of
                    // its requests tries again and is counted as an authentication error (outcome 4).
                    Failures.note(e, Outcome.AUTHENTICATION);
                    connected++;
                } else {
                    lastConnectFailure = e;
                }
            }
        }
        if (connected == 0) {
            return new Result(new StringBuilder(), System.currentTimeMillis(), 0, false, Failures.describe(lastConnectFailure));
        }

        long perClient = level.warmup() + (level.requests() == null ? 1024 : level.requests());
        SampleBuffer[] buffers = new SampleBuffer[level.clients()];
        long[] endNs = new long[level.clients()];
        Thread[] threads = new Thread[level.clients()];
        CountDownLatch gate = new CountDownLatch(1);
        long[] origin = new long[1];
        for (int i = 0; i < level.clients(); i++) {
            buffers[i] = new SampleBuffer((int) Math.min(perClient, 1 << 20));
            ClientLoop loop = new ClientLoop(clients.get(i), factory, level, control, buffers[i], gate, origin, endNs, i);
            threads[i] = new Thread(loop, "client-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        long startedUnixMs = System.currentTimeMillis();
        origin[0] = System.nanoTime();
        gate.countDown(); // the latch publishes origin[0] to every client

        boolean abandoned = false;
        // Samples already written as s records, per client: the level's samples go out once a second while it runs
        // (with its p record), so a driver killed mid-level has handed the runner what it measured until the last second.
        int[] written = new int[level.clients()];
        long[] nextReport = {origin[0] + PROGRESS_INTERVAL_NS};
        Runnable tick = () -> {
            long now = System.nanoTime();
            if (progress == null || now < nextReport[0]) {
                return;
            }
            nextReport[0] = now + PROGRESS_INTERVAL_NS;
            long requests = 0;
            for (SampleBuffer b : buffers) {
                requests += Math.max(0, b.count() - level.warmup());
            }
            StringBuilder streamed = new StringBuilder();
            for (int c = 0; c < buffers.length; c++) {
                written[c] = buffers[c].write(streamed, c, origin[0], written[c]);
            }
            progress.append(streamed);
            progress.println(Json.record("p", new Progress(requests, (now - origin[0]) / 1000)));
            progress.flush();
        };
        for (int i = 0; i < threads.length; i++) {
            if (!awaitClient(threads[i], control, tick)) {
                abandoned = true;
                clients.set(i, factory.create(i)); // the old one may still be in a request; do not reuse it
            }
        }

        long lastEnd = origin[0];
        StringBuilder out = new StringBuilder(level.clients() * (int) Math.min(perClient, 100_000) * 32);
        for (int i = 0; i < threads.length; i++) {
            synchronized (endNs) {
                lastEnd = Math.max(lastEnd, endNs[i]);
            }
            buffers[i].write(out, i, origin[0], written[i]);
        }
        if (abandoned) {
            lastEnd = System.nanoTime();
        }
        return new Result(out, startedUnixMs, (lastEnd - origin[0]) / 1000, control.isCancelled(), null);
    }

    /**
     * Waits for a client thread, calling {@code tick} every 50 ms meanwhile (progress); after a cancel, waits only for
     * the grace period. False when the thread was abandoned.
     */
    private static boolean awaitClient(Thread thread, LevelControl control, Runnable tick) {
        try {
            while (thread.isAlive()) {
                tick.run();
                long waitMs = 50;
                if (control.isCancelled()) {
                    long left = control.cancelledAtMs() + CANCEL_GRACE_MS - System.currentTimeMillis();
                    if (left <= 0) {
                        return false;
                    }
                    waitMs = Math.min(waitMs, left);
                }
                thread.join(waitMs);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !thread.isAlive();
        }
    }

    void closeAll() {
        clients.forEach(BenchmarkClient::close);
        clients.clear();
    }

    /** The closed loop of one client: warm-up, then measured requests or measured time. */
    private record ClientLoop(BenchmarkClient client, ClientFactory factory, Level level, LevelControl control,
            SampleBuffer buffer, CountDownLatch gate, long[] origin, long[] endNs, int index) implements Runnable {

        @Override
        public void run() {
            try {
                gate.await();
            } catch (InterruptedException e) {
                return;
            }
            for (int i = 0; i < level.warmup() && !control.isCancelled(); i++) {
                request(true);
            }
            if (level.requests() != null) {
                for (long i = 0; i < level.requests() && !control.isCancelled(); i++) {
                    request(false);
                }
            } else {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(level.durationMs());
                while (!control.isCancelled() && System.nanoTime() < deadline) {
                    request(false);
                }
            }
            long end = System.nanoTime();
            synchronized (endNs) {
                endNs[index] = end;
            }
        }

        private void request(boolean warmup) {
            long sent0 = client.sentBytes();
            long received0 = client.receivedBytes();
            int outcome = Outcome.SUCCESS;
            long start = System.nanoTime();
            try {
                client.invoke();
            } catch (Throwable t) {
                outcome = t instanceof WrongReplyException ? Outcome.WRONG_REPLY : factory.classify(t);
                Failures.note(t, outcome);
            }
            long latency = System.nanoTime() - start;
            long sent1 = client.sentBytes();
            long received1 = client.receivedBytes();
            buffer.add(start, latency, outcome, warmup, delta(sent0, sent1), delta(received0, received1));
        }

        private static long delta(long before, long after) {
            return before < 0 || after < 0 ? -1 : after - before;
        }
    }
}
