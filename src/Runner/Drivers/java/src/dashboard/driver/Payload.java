package dashboard.driver;

import dashboard.common.Catalogue;
import java.util.Map;

/**
 * A payload of the catalogue (dashboard.common.Catalogue): which operation it calls and with what size or count. The
 * stack-specific classes build the arguments and the reply checks from this and from the catalogue's values below.
 */
record Payload(String id, String operation, int size) {
    private static final Map<String, String> UDTYPE_MAX = Catalogue.fields("UDTypeMax");
    static final int BYTE_MAX = Integer.parseInt(UDTYPE_MAX.get("ByteValue"));
    static final short SHORT_MAX = Short.parseShort(UDTYPE_MAX.get("ShortValue"));
    static final String DECIMAL_MAX = UDTYPE_MAX.get("DecimalValue");
    static final String TRANSFER_AMOUNT = Catalogue.argumentText("TransferFunds", 2);
    static final String TRANSFER_SUCCEEDED = Catalogue.expectedText("TransferFunds");
    static final String STRING_256 = Catalogue.expectedText("Get256Bytes");
    /** The catalogue's ProductDetails, member by member in contract order. */
    static final String[] PRODUCT_DETAILS = Catalogue.fields("ProductDetails").values().toArray(String[]::new);

    static Payload of(String id) {
        Catalogue.Payload p = Catalogue.payload(id);
        return new Payload(p.id(), p.operation(), p.size());
    }

    /** A call of the payload's operation on a proxy of type P, with its reply check. */
    @FunctionalInterface
    interface Call<P> {
        void invoke(P proxy) throws Exception;
    }
}
