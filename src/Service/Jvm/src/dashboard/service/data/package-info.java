/** JAXB data types of the benchmark contract, in the data namespace (docs/service-contract.md). */
@XmlSchema(namespace = "urn:dashboard:benchmark:2026:data", elementFormDefault = XmlNsForm.QUALIFIED)
@XmlAccessorType(XmlAccessType.FIELD)
package dashboard.service.data;

import javax.xml.bind.annotation.XmlAccessType;
import javax.xml.bind.annotation.XmlAccessorType;
import javax.xml.bind.annotation.XmlNsForm;
import javax.xml.bind.annotation.XmlSchema;
