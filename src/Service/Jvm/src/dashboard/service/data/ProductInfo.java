package dashboard.service.data;

import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlElementWrapper;
import javax.xml.bind.annotation.XmlType;

/** The whitepaper's product list (seed 001). */
@XmlType(name = "ProductInfo", propOrder = {"totalResults", "totalPages", "listName", "details"})
public class ProductInfo {
    @XmlElement(name = "TotalResults") public String totalResults;
    @XmlElement(name = "TotalPages") public String totalPages;
    @XmlElement(name = "ListName") public String listName;
    @XmlElementWrapper(name = "Details") @XmlElement(name = "ProductDetails") public ProductDetails[] details;
}
