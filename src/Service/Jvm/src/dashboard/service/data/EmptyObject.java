package dashboard.service.data;

import javax.xml.bind.annotation.XmlType;

/** The contract's "object" case: an object without members, written as an empty element. */
@XmlType(name = "EmptyObject")
public class EmptyObject {
}
