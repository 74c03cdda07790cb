package dashboard.driver;

/** Makes clients of one stack for one job, and sorts their failures into outcomes. */
interface ClientFactory extends AutoCloseable {
    BenchmarkClient create(int index);

    /** The outcome number of a failed request (docs/driver-protocol.md). */
    int classify(Throwable failure);

    /** For the ready line, e.g. "JAX-WS RI 2.3.0.2". */
    String library();

    @Override
    void close();
}
