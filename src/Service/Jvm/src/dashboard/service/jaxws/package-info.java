/**
 * The request and response wrapper beans wsgen writes into this package at build time (build.sh). The package-level
 * schema gives the service namespace's schema {@code elementFormDefault="qualified"}, so the published WSDL says that the
 * parameters and results are qualified the way every mainstream toolkit reads it (svcutil/WCF, npm soap, wsimport), not
 * with a {@code form="qualified"} on each element that toolkits reading only the schema default miss
 * (docs/service-contract.md, "Interoperability of the WSDL").
 */
@XmlSchema(namespace = "urn:dashboard:benchmark:2026", elementFormDefault = XmlNsForm.QUALIFIED)
package dashboard.service.jaxws;

import javax.xml.bind.annotation.XmlNsForm;
import javax.xml.bind.annotation.XmlSchema;
