package dashboard.service.data;

import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlElementWrapper;
import javax.xml.bind.annotation.XmlSchemaType;
import javax.xml.bind.annotation.XmlType;
import javax.xml.datatype.XMLGregorianCalendar;

/** The whitepaper's order (seed 001): about 256 bytes of data, two order lines. */
@XmlType(name = "Order", propOrder = {"customerId", "shippingAddress1", "shippingAddress2", "shippingCity", "shippingState",
        "shippingZip", "shippingCountry", "shipType", "creditCardType", "creditCardNumber", "creditCardExpiration",
        "creditCardName", "orderItems"})
public class Order {
    @XmlElement(name = "CustomerId") public int customerId;
    @XmlElement(name = "ShippingAddress1") public String shippingAddress1;
    @XmlElement(name = "ShippingAddress2") public String shippingAddress2;
    @XmlElement(name = "ShippingCity") public String shippingCity;
    @XmlElement(name = "ShippingState") public String shippingState;
    @XmlElement(name = "ShippingZip") public String shippingZip;
    @XmlElement(name = "ShippingCountry") public String shippingCountry;
    @XmlElement(name = "ShipType") public String shipType;
    @XmlElement(name = "CreditCardType") public String creditCardType;
    @XmlElement(name = "CreditCardNumber") public String creditCardNumber;
    @XmlElement(name = "CreditCardExpiration") @XmlSchemaType(name = "dateTime") public XMLGregorianCalendar creditCardExpiration;
    @XmlElement(name = "CreditCardName") public String creditCardName;
    @XmlElementWrapper(name = "OrderItems") @XmlElement(name = "OrderLine") public OrderLine[] orderItems;
}
