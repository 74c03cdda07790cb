package dashboard.driver;

import com.zeroc.Ice.ConnectionInfo;
import com.zeroc.Ice.Endpoint;
import com.zeroc.Ice.Instrumentation.CommunicatorObserver;
import com.zeroc.Ice.Instrumentation.ConnectionObserver;
import com.zeroc.Ice.Instrumentation.ConnectionState;
import com.zeroc.Ice.Instrumentation.DispatchObserver;
import com.zeroc.Ice.Instrumentation.InvocationObserver;
import com.zeroc.Ice.Instrumentation.Observer;
import com.zeroc.Ice.Instrumentation.ObserverUpdater;
import com.zeroc.Ice.Instrumentation.ThreadObserver;
import com.zeroc.Ice.Instrumentation.ThreadState;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the bytes Ice writes to and reads from each connection, keyed by the proxy's connection id: every client
 * has its own connection (ice_connectionId), so the deltas around one synchronous call are that call's bytes.
 */
final class IceByteCounter implements CommunicatorObserver {
    /** Totals of one connection id, written by Ice's threads, read by the client's thread. */
    static final class Totals {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong received = new AtomicLong();
    }

    private final ConcurrentHashMap<String, Totals> byConnectionId = new ConcurrentHashMap<>();

    Totals totals(String connectionId) {
        return byConnectionId.computeIfAbsent(connectionId, k -> new Totals());
    }

    @Override
    public ConnectionObserver getConnectionObserver(ConnectionInfo info, Endpoint endpoint, ConnectionState state,
            ConnectionObserver old) {
        if (old != null) {
            return old;
        }
        Totals t = totals(info.connectionId == null ? "" : info.connectionId);
        return new ConnectionObserver() {
            @Override
            public void sentBytes(int n) {
                t.sent.addAndGet(n);
            }

            @Override
            public void receivedBytes(int n) {
                t.received.addAndGet(n);
            }

            @Override
            public void attach() {
            }

            @Override
            public void detach() {
            }

            @Override
            public void failed(String exceptionName) {
            }
        };
    }

    @Override
    public Observer getConnectionEstablishmentObserver(Endpoint endpoint, String connector) {
        return null;
    }

    @Override
    public Observer getEndpointLookupObserver(Endpoint endpoint) {
        return null;
    }

    @Override
    public ThreadObserver getThreadObserver(String parent, String id, ThreadState state, ThreadObserver old) {
        return null;
    }

    @Override
    public InvocationObserver getInvocationObserver(com.zeroc.Ice.ObjectPrx prx, String operation,
            java.util.Map<String, String> context) {
        return null;
    }

    @Override
    public DispatchObserver getDispatchObserver(com.zeroc.Ice.Current current, int size) {
        return null;
    }

    @Override
    public void setObserverUpdater(ObserverUpdater updater) {
    }
}
