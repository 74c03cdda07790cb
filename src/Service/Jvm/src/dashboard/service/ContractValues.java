package dashboard.service;

import dashboard.service.data.Order;
import dashboard.service.data.OrderLine;
import dashboard.service.data.ProductDetails;
import dashboard.service.data.ProductInfo;
import java.util.GregorianCalendar;
import java.util.TimeZone;
import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;

/** The values the whitepaper and book-chapter operations answer with (src/Service/Contracts/DataContracts). */
final class ContractValues {
    static final String TRANSFER_SUCCEEDED = "successful";
    static final String STRING_256 = "x".repeat(256);

    private static final DatatypeFactory DATATYPES = newDatatypeFactory();

    private ContractValues() {
    }

    /** One order as the whitepaper builds it, expiring now (UTC). */
    static Order order() {
        Order o = new Order();
        o.customerId = 100;
        o.shippingAddress1 = "012345678901234567890123456789";
        o.shippingAddress2 = "012345678901234567890123456789";
        o.shippingCity = "0123456789";
        o.shippingState = "0123456789012345";
        o.shippingZip = "12345-1234";
        o.shippingCountry = "United States";
        o.shipType = "Courier";
        o.creditCardType = "XYZ";
        o.creditCardNumber = "0123456789012345";
        o.creditCardExpiration = nowUtc();
        o.creditCardName = "01234567890123456789";
        o.orderItems = new OrderLine[] {line(1, 10), line(2, 5)};
        return o;
    }

    /** A product list with {@code count} identical details. */
    static ProductInfo productInfo(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        ProductInfo info = new ProductInfo();
        info.totalResults = Integer.toString(count);
        info.totalPages = "1";
        info.listName = "Books";
        info.details = new ProductDetails[count];
        for (int i = 0; i < count; i++) {
            info.details[i] = productDetails();
        }
        return info;
    }

    static ProductDetails productDetails() {
        ProductDetails d = new ProductDetails();
        d.url = "http://www.example.com/exec/obidos/ASIN/043935806X";
        d.asin = "043935806X";
        d.productName = "Any Book Available";
        d.catalog = "Books";
        d.releaseDate = "07/01/2003";
        d.manufacturer = "Scholastic";
        d.distributor = "Scholastic";
        d.imageUrlSmall = "http://images.example.com/images/P/043935806X.01.THUMBZZZ.jpg";
        d.imageUrlMedium = "http://images.example.com/images/P/043935806X.01.MZZZZZZZ.jpg";
        d.imageUrlLarge = "http://images.example.com/images/P/043935806X.01.LZZZZZZZ.jpg";
        d.listPrice = "29.99";
        d.ourPrice = "12.00";
        d.usedPrice = "3.95";
        d.isbn = "043935806X";
        d.mpaaRating = "";
        return d;
    }

    private static OrderLine line(int itemId, int quantity) {
        OrderLine l = new OrderLine();
        l.itemId = itemId;
        l.quantity = quantity;
        return l;
    }

    private static XMLGregorianCalendar nowUtc() {
        GregorianCalendar now = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
        return DATATYPES.newXMLGregorianCalendar(now);
    }

    private static DatatypeFactory newDatatypeFactory() {
        try {
            return DatatypeFactory.newInstance();
        } catch (DatatypeConfigurationException e) {
            throw new IllegalStateException("no XML datatype factory: " + e.getMessage(), e);
        }
    }
}
