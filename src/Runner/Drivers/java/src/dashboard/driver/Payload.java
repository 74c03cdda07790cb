package dashboard.driver;

import java.util.Map;

/**
 * The payload ids of PayloadCatalogue.cs: which operation each calls and with what size or count.
 * The stack-specific classes build the arguments and the reply checks from this.
 */
record Payload(String id, String operation, int size) {
    static final int BYTE_MAX = 255;
    static final short SHORT_MAX = Short.MAX_VALUE;
    static final String DECIMAL_MAX = "79228162514264337593543950335";
    static final String TRANSFER_AMOUNT = "100.00";
    static final String TRANSFER_SUCCEEDED = "successful";
    static final String STRING_256 = "x".repeat(256);
    /** ProductDetails.Create() of ProductDetails.cs, member by member in contract order. */
    static final String[] PRODUCT_DETAILS = {
        "http://www.example.com/exec/obidos/ASIN/043935806X", "043935806X", "Any Book Available", "Books", "07/01/2003",
        "Scholastic", "Scholastic", "http://images.example.com/images/P/043935806X.01.THUMBZZZ.jpg",
        "http://images.example.com/images/P/043935806X.01.MZZZZZZZ.jpg",
        "http://images.example.com/images/P/043935806X.01.LZZZZZZZ.jpg", "29.99", "12.00", "3.95", "043935806X", ""};

    private static final Map<String, Payload> ALL = Map.ofEntries(
            entry("Empty", "EmptyMethod", 0),
            entry("Byte", "ByteSimple", 0),
            entry("Int", "IntSimple", 0),
            entry("Double", "DoubleSimple", 0),
            entry("StringEmpty", "StringSimple", 0),
            entry("String1", "StringSimple", 1),
            entry("String500", "StringSimple", 500),
            entry("String1000", "StringSimple", 1000),
            entry("Object", "ObjectSimple", 0),
            entry("UDType", "UDTypeSimple", 0),
            entry("ByteArray500", "ByteArray", 500),
            entry("ByteArray1000", "ByteArray", 1000),
            entry("IntArray500", "IntArray", 500),
            entry("IntArray1000", "IntArray", 1000),
            entry("DoubleArray500", "DoubleArray", 500),
            entry("DoubleArray1000", "DoubleArray", 1000),
            entry("ObjectArray500", "ObjectArray", 500),
            entry("ObjectArray1000", "ObjectArray", 1000),
            entry("UDTypeArray500", "UDTypeArray", 500),
            entry("UDTypeArray1000", "UDTypeArray", 1000),
            entry("Orders1", "GetOrders", 1),
            entry("Orders10", "GetOrders", 10),
            entry("Orders100", "GetOrders", 100),
            entry("TransferFunds", "TransferFunds", 0),
            entry("ProductInfo", "CreateProductInfo", 1),
            entry("Bytes128", "GetRBytes", 128),
            entry("Bytes4K", "GetRBytes", 4 * 1024),
            entry("Bytes256K", "GetRBytes", 256 * 1024),
            entry("Get256Bytes", "Get256Bytes", 0));

    static Payload of(String id) {
        Payload p = ALL.get(id);
        if (p == null) {
            throw new IllegalArgumentException("unknown payload id '" + id + "'");
        }
        return p;
    }

    private static Map.Entry<String, Payload> entry(String id, String operation, int size) {
        return Map.entry(id, new Payload(id, operation, size));
    }

    /** A call of the payload's operation on a proxy of type P, with its reply check. */
    @FunctionalInterface
    interface Call<P> {
        void invoke(P proxy) throws Exception;
    }
}
