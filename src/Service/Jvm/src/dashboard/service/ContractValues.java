package dashboard.service;

import dashboard.common.Catalogue;
import dashboard.service.data.Order;
import dashboard.service.data.OrderLine;
import dashboard.service.data.ProductDetails;
import dashboard.service.data.ProductInfo;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;

/** The values the whitepaper and book-chapter operations answer with: the catalogue's (dashboard.common.Catalogue). */
final class ContractValues {
    static final String TRANSFER_SUCCEEDED = Catalogue.expectedText("TransferFunds");
    static final String STRING_256 = Catalogue.expectedText("Get256Bytes");

    private static final DatatypeFactory DATATYPES = newDatatypeFactory();
    private static final Map<String, String> ORDER = Catalogue.fields("Order");
    private static final Map<String, String> DETAILS = Catalogue.fields("ProductDetails");
    private static final List<Map<String, String>> ORDER_LINES = Catalogue.items("Order", "OrderItems");

    private ContractValues() {
    }

    /** One order as the whitepaper builds it (the catalogue's value {@code Order}), expiring now (UTC). */
    static Order order() {
        Order o = new Order();
        o.customerId = Integer.parseInt(ORDER.get("CustomerId"));
        o.shippingAddress1 = ORDER.get("ShippingAddress1");
        o.shippingAddress2 = ORDER.get("ShippingAddress2");
        o.shippingCity = ORDER.get("ShippingCity");
        o.shippingState = ORDER.get("ShippingState");
        o.shippingZip = ORDER.get("ShippingZip");
        o.shippingCountry = ORDER.get("ShippingCountry");
        o.shipType = ORDER.get("ShipType");
        o.creditCardType = ORDER.get("CreditCardType");
        o.creditCardNumber = ORDER.get("CreditCardNumber");
        o.creditCardExpiration = nowUtc();
        o.creditCardName = ORDER.get("CreditCardName");
        o.orderItems = ORDER_LINES.stream().map(l -> line(Integer.parseInt(l.get("ItemId")), Integer.parseInt(l.get("Quantity"))))
                .toArray(OrderLine[]::new);
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

    /** The catalogue's value {@code ProductDetails}. */
    static ProductDetails productDetails() {
        ProductDetails d = new ProductDetails();
        d.url = DETAILS.get("Url");
        d.asin = DETAILS.get("Asin");
        d.productName = DETAILS.get("ProductName");
        d.catalog = DETAILS.get("Catalog");
        d.releaseDate = DETAILS.get("ReleaseDate");
        d.manufacturer = DETAILS.get("Manufacturer");
        d.distributor = DETAILS.get("Distributor");
        d.imageUrlSmall = DETAILS.get("ImageUrlSmall");
        d.imageUrlMedium = DETAILS.get("ImageUrlMedium");
        d.imageUrlLarge = DETAILS.get("ImageUrlLarge");
        d.listPrice = DETAILS.get("ListPrice");
        d.ourPrice = DETAILS.get("OurPrice");
        d.usedPrice = DETAILS.get("UsedPrice");
        d.isbn = DETAILS.get("Isbn");
        d.mpaaRating = DETAILS.get("MpaaRating");
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
