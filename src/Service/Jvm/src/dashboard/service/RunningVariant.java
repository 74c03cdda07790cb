package dashboard.service;

/** A variant that listens; {@link #close()} stops it and is safe to call more than once. */
interface RunningVariant extends AutoCloseable {
    HostEndpoint endpoint();

    @Override
    void close();
}
