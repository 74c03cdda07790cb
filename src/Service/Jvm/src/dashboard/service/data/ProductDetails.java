package dashboard.service.data;

import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlType;

/** One product of a {@link ProductInfo}: 15 strings. */
@XmlType(name = "ProductDetails", propOrder = {"url", "asin", "productName", "catalog", "releaseDate", "manufacturer",
        "distributor", "imageUrlSmall", "imageUrlMedium", "imageUrlLarge", "listPrice", "ourPrice", "usedPrice", "isbn", "mpaaRating"})
public class ProductDetails {
    @XmlElement(name = "Url") public String url;
    @XmlElement(name = "Asin") public String asin;
    @XmlElement(name = "ProductName") public String productName;
    @XmlElement(name = "Catalog") public String catalog;
    @XmlElement(name = "ReleaseDate") public String releaseDate;
    @XmlElement(name = "Manufacturer") public String manufacturer;
    @XmlElement(name = "Distributor") public String distributor;
    @XmlElement(name = "ImageUrlSmall") public String imageUrlSmall;
    @XmlElement(name = "ImageUrlMedium") public String imageUrlMedium;
    @XmlElement(name = "ImageUrlLarge") public String imageUrlLarge;
    @XmlElement(name = "ListPrice") public String listPrice;
    @XmlElement(name = "OurPrice") public String ourPrice;
    @XmlElement(name = "UsedPrice") public String usedPrice;
    @XmlElement(name = "Isbn") public String isbn;
    @XmlElement(name = "MpaaRating") public String mpaaRating;
}
