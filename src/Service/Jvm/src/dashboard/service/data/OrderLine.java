package dashboard.service.data;

import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlType;

/** One line of an {@link Order}. */
@XmlType(name = "OrderLine", propOrder = {"itemId", "quantity"})
public class OrderLine {
    @XmlElement(name = "ItemId") public int itemId;
    @XmlElement(name = "Quantity") public int quantity;
}
