package dashboard.service.data;

import java.math.BigDecimal;
import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlSchemaType;
import javax.xml.bind.annotation.XmlType;

/** The thesis's user-defined type: every primitive at its maximum value. ByteValue is unsigned (0..255). */
@XmlType(name = "UDType", propOrder = {"byteValue", "shortValue", "intValue", "longValue", "floatValue", "doubleValue", "decimalValue", "boolValue"})
public class UDType {
    @XmlElement(name = "ByteValue") @XmlSchemaType(name = "unsignedByte") public short byteValue;
    @XmlElement(name = "ShortValue") public short shortValue;
    @XmlElement(name = "IntValue") public int intValue;
    @XmlElement(name = "LongValue") public long longValue;
    @XmlElement(name = "FloatValue") public float floatValue;
    @XmlElement(name = "DoubleValue") public double doubleValue;
    @XmlElement(name = "DecimalValue", required = true) public BigDecimal decimalValue;
    @XmlElement(name = "BoolValue") public boolean boolValue;
}
