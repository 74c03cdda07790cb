package dashboard.driver;

import java.util.Arrays;

/**
 * One client's samples of one level, written by that client's thread only. The count is published last (volatile),
 * so the main thread can read the samples taken so far even from a client it abandoned on cancel.
 */
final class SampleBuffer {
    private static final int FIELDS = 6; // startNs, latencyNs, outcome, warmup, requestBytes, responseBytes
    private volatile long[] data;
    private volatile int count;

    SampleBuffer(int expected) {
        data = new long[Math.max(16, expected) * FIELDS];
    }

    void add(long startNs, long latencyNs, int outcome, boolean warmup, long requestBytes, long responseBytes) {
        long[] d = data;
        int at = count * FIELDS;
        if (at + FIELDS > d.length) {
            d = Arrays.copyOf(d, d.length * 2);
            data = d;
        }
        d[at] = startNs;
        d[at + 1] = latencyNs;
        d[at + 2] = outcome;
        d[at + 3] = warmup ? 1 : 0;
        d[at + 4] = requestBytes;
        d[at + 5] = responseBytes;
        count = count + 1;
    }

    int count() {
        return count;
    }

    /** Appends this buffer's {@code s} records to {@code out}, times relative to {@code originNs}. */
    void write(StringBuilder out, int client, long originNs) {
        write(out, client, originNs, 0);
    }

    /**
     * Appends the {@code s} records of samples {@code from} .. the count now to {@code out} and returns that count, the
     * next call's {@code from}. Safe while the client adds samples: the count is read first (volatile) and every sample
     * below it was written before it was published (in the array read after it, which holds every earlier sample).
     */
    int write(StringBuilder out, int client, long originNs, int from) {
        int n = count;
        long[] d = data;
        for (int i = from; i < n; i++) {
            int at = i * FIELDS;
            out.append("s ").append(client).append(' ')
                    .append((d[at] - originNs) / 1000).append(' ')
                    .append(d[at + 1] / 1000).append(' ')
                    .append(d[at + 2]).append(' ')
                    .append(d[at + 3]).append(' ')
                    .append(d[at + 4]).append(' ')
                    .append(d[at + 5]).append('\n');
        }
        return n;
    }
}
