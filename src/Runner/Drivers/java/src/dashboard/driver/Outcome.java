package dashboard.driver;

import dashboard.common.Catalogue;

/** Sample outcomes, the numbers of the catalogue's outcome kinds (SampleOutcome, docs/driver-protocol.md). */
final class Outcome {
    static final int SUCCESS = Catalogue.outcome("Success");
    static final int TIMEOUT = Catalogue.outcome("Timeout");
    static final int FAULT = Catalogue.outcome("Fault");
    static final int CONNECTION = Catalogue.outcome("Connection");
    static final int AUTHENTICATION = Catalogue.outcome("Authentication");
    static final int OTHER = Catalogue.outcome("Other");
    static final int WRONG_REPLY = Catalogue.outcome("WrongReply");

    private Outcome() {
    }
}
