package dashboard.driver;

/** A reply that parsed but is not what the payload case expects (outcome 6). */
final class WrongReplyException extends Exception {
    WrongReplyException(String message) {
        super(message, null, false, false);
    }

    static void check(boolean ok, String what) throws WrongReplyException {
        if (!ok) {
            throw new WrongReplyException("wrong reply: " + what);
        }
    }
}
