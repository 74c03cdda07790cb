package dashboard.driver;

/** One closed-loop client: its own proxy and connection. Used by one thread at a time. */
interface BenchmarkClient extends AutoCloseable {
    /** Opens (or checks) the client's connection before the level's clients are released; throws when it cannot. */
    void connect() throws Exception;

    /** One request of the payload case: send, receive the whole reply, check it. */
    void invoke() throws Exception;

    /** Bytes written to this client's socket so far, or -1 when the stack does not let the driver count them. */
    long sentBytes();

    /** Bytes read from this client's socket so far, or -1. */
    long receivedBytes();

    @Override
    void close();
}
