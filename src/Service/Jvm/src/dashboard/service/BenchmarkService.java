package dashboard.service;

import dashboard.service.data.EmptyObject;
import dashboard.service.data.Order;
import dashboard.service.data.ProductInfo;
import dashboard.service.data.UDType;
import java.math.BigDecimal;
import java.util.concurrent.ThreadLocalRandom;
import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.jws.WebResult;
import javax.jws.WebService;
import javax.jws.soap.SOAPBinding;
import javax.xml.bind.annotation.XmlElement;

/**
 * The 17 operations of docs/service-contract.md as a JAX-WS document/literal wrapped endpoint. Stateless: one
 * instance may serve every variant and thread. The binding (SOAP 1.1/1.2) and features are chosen when published.
 */
@WebService(name = "Benchmark", serviceName = "BenchmarkService", portName = "BenchmarkPort",
        targetNamespace = BenchmarkService.NAMESPACE)
@SOAPBinding(style = SOAPBinding.Style.DOCUMENT, use = SOAPBinding.Use.LITERAL,
        parameterStyle = SOAPBinding.ParameterStyle.WRAPPED)
public class BenchmarkService {
    public static final String NAMESPACE = "urn:dashboard:benchmark:2026";
    private static final int MAX_RANDOM_BYTES = 64 * 1024 * 1024;

    /**
     * A request whose wrapper lacks an argument element: JAXB leaves the boxed parameter null and the call is answered
     * with a SOAP fault naming the argument, instead of echoing the type's default (0, null) as a primitive parameter
     * would. The parameters are boxed for this and marked {@code @XmlElement(required = true)}, so the WSDL still says
     * every argument must be there (no {@code minOccurs="0"}).
     */
    private static <T> T required(T value, String name) {
        if (value == null) {
            throw new IllegalArgumentException("missing argument '" + name + "'");
        }
        return value;
    }

    @WebMethod(operationName = "EmptyMethod")
    public void emptyMethod() {
    }

    @WebMethod(operationName = "ByteSimple")
    @WebResult(name = "ByteSimpleResult", targetNamespace = NAMESPACE)
    public short byteSimple(@XmlElement(required = true) @WebParam(name = "value", targetNamespace = NAMESPACE) Short value) {
        required(value, "value");
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("value must be an unsigned byte (0..255): " + value);
        }
        return value;
    }

    @WebMethod(operationName = "IntSimple")
    @WebResult(name = "IntSimpleResult", targetNamespace = NAMESPACE)
    public int intSimple(@XmlElement(required = true) @WebParam(name = "value", targetNamespace = NAMESPACE) Integer value) {
        required(value, "value");
        return value;
    }

    @WebMethod(operationName = "DoubleSimple")
    @WebResult(name = "DoubleSimpleResult", targetNamespace = NAMESPACE)
    public double doubleSimple(@XmlElement(required = true) @WebParam(name = "value", targetNamespace = NAMESPACE) Double value) {
        required(value, "value");
        return value;
    }

    @WebMethod(operationName = "StringSimple")
    @WebResult(name = "StringSimpleResult", targetNamespace = NAMESPACE)
    public String stringSimple(@XmlElement(required = true) @WebParam(name = "value", targetNamespace = NAMESPACE) String value) {
        required(value, "value");
        return value;
    }

    @WebMethod(operationName = "ObjectSimple")
    @WebResult(name = "ObjectSimpleResult", targetNamespace = NAMESPACE)
    public EmptyObject objectSimple(@XmlElement(required = true) @WebParam(name = "value", targetNamespace = NAMESPACE) EmptyObject value) {
        required(value, "value");
        return value;
    }

    @WebMethod(operationName = "UDTypeSimple")
    @WebResult(name = "UDTypeSimpleResult", targetNamespace = NAMESPACE)
    public UDType udTypeSimple(@XmlElement(required = true) @WebParam(name = "value", targetNamespace = NAMESPACE) UDType value) {
        required(value, "value");
        return value;
    }

    @WebMethod(operationName = "ByteArray")
    @WebResult(name = "ByteArrayResult", targetNamespace = NAMESPACE)
    public byte[] byteArray(@XmlElement(required = true) @WebParam(name = "value", targetNamespace = NAMESPACE) byte[] value) {
        required(value, "value");
        return value;
    }

    @WebMethod(operationName = "IntArray")
    @WebResult(name = "IntArrayResult", targetNamespace = NAMESPACE)
    public int[] intArray(@WebParam(name = "value", targetNamespace = NAMESPACE) int[] value) {
        return value;
    }

    @WebMethod(operationName = "DoubleArray")
    @WebResult(name = "DoubleArrayResult", targetNamespace = NAMESPACE)
    public double[] doubleArray(@WebParam(name = "value", targetNamespace = NAMESPACE) double[] value) {
        return value;
    }

    @WebMethod(operationName = "ObjectArray")
    @WebResult(name = "ObjectArrayResult", targetNamespace = NAMESPACE)
    public EmptyObject[] objectArray(@WebParam(name = "value", targetNamespace = NAMESPACE) EmptyObject[] value) {
        return value;
    }

    @WebMethod(operationName = "UDTypeArray")
    @WebResult(name = "UDTypeArrayResult", targetNamespace = NAMESPACE)
    public UDType[] udTypeArray(@WebParam(name = "value", targetNamespace = NAMESPACE) UDType[] value) {
        return value;
    }

    @WebMethod(operationName = "GetOrders")
    @WebResult(name = "GetOrdersResult", targetNamespace = NAMESPACE)
    public Order[] getOrders(@XmlElement(required = true) @WebParam(name = "count", targetNamespace = NAMESPACE) Integer count) {
        required(count, "count");
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        Order[] orders = new Order[count];
        for (int i = 0; i < count; i++) {
            orders[i] = ContractValues.order();
        }
        return orders;
    }

    @WebMethod(operationName = "TransferFunds")
    @WebResult(name = "TransferFundsResult", targetNamespace = NAMESPACE)
    public String transferFunds(@XmlElement(required = true) @WebParam(name = "fromAccount", targetNamespace = NAMESPACE) Integer fromAccount, @XmlElement(required = true) @WebParam(name = "toAccount", targetNamespace = NAMESPACE) Integer toAccount,
            @XmlElement(required = true) @WebParam(name = "amount", targetNamespace = NAMESPACE) BigDecimal amount) {
        required(fromAccount, "fromAccount");
        required(toAccount, "toAccount");
        required(amount, "amount");
        return ContractValues.TRANSFER_SUCCEEDED;
    }

    @WebMethod(operationName = "CreateProductInfo")
    @WebResult(name = "CreateProductInfoResult", targetNamespace = NAMESPACE)
    public ProductInfo createProductInfo(@XmlElement(required = true) @WebParam(name = "count", targetNamespace = NAMESPACE) Integer count) {
        required(count, "count");
        return ContractValues.productInfo(count);
    }

    @WebMethod(operationName = "GetRBytes")
    @WebResult(name = "GetRBytesResult", targetNamespace = NAMESPACE)
    public byte[] getRBytes(@XmlElement(required = true) @WebParam(name = "size", targetNamespace = NAMESPACE) Integer size) {
        required(size, "size");
        if (size < 0 || size > MAX_RANDOM_BYTES) {
            throw new IllegalArgumentException("size must be 0.." + MAX_RANDOM_BYTES + ": " + size);
        }
        byte[] bytes = new byte[size];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }

    @WebMethod(operationName = "Get256Bytes")
    @WebResult(name = "Get256BytesResult", targetNamespace = NAMESPACE)
    public String get256Bytes() {
        return ContractValues.STRING_256;
    }
}
