package dashboard.driver;

/** Sample outcomes, the numbers of SampleOutcome (docs/driver-protocol.md). */
final class Outcome {
    static final int SUCCESS = 0;
    static final int TIMEOUT = 1;
    static final int FAULT = 2;
    static final int CONNECTION = 3;
    static final int AUTHENTICATION = 4;
    static final int OTHER = 5;
    static final int WRONG_REPLY = 6;

    private Outcome() {
    }
}
