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

    @WebMethod(operationName = "EmptyMethod")
    public void emptyMethod() {
    }

    @WebMethod(operationName = "ByteSimple")
    @WebResult(name = "ByteSimpleResult", targetNamespace = NAMESPACE)
    public short byteSimple(@WebParam(name = "value", targetNamespace = NAMESPACE) short value) {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("value must be an unsigned byte (0..255): " + value);
        }
        return value;
    }

    @WebMethod(operationName = "IntSimple")
    @WebResult(name = "IntSimpleResult", targetNamespace = NAMESPACE)
    public int intSimple(@WebParam(name = "value", targetNamespace = NAMESPACE) int value) {
        return value;
    }

    @WebMethod(operationName = "DoubleSimple")
    @WebResult(name = "DoubleSimpleResult", targetNamespace = NAMESPACE)
    public double doubleSimple(@WebParam(name = "value", targetNamespace = NAMESPACE) double value) {
        return value;
    }

    @WebMethod(operationName = "StringSimple")
    @WebResult(name = "StringSimpleResult", targetNamespace = NAMESPACE)
    public String stringSimple(@WebParam(name = "value", targetNamespace = NAMESPACE) String value) {
        return value;
    }

    @WebMethod(operationName = "ObjectSimple")
    @WebResult(name = "ObjectSimpleResult", targetNamespace = NAMESPACE)
    public EmptyObject objectSimple(@WebParam(name = "value", targetNamespace = NAMESPACE) EmptyObject value) {
        return value;
    }

    @WebMethod(operationName = "UDTypeSimple")
    @WebResult(name = "UDTypeSimpleResult", targetNamespace = NAMESPACE)
    public UDType udTypeSimple(@WebParam(name = "value", targetNamespace = NAMESPACE) UDType value) {
        return value;
    }

    @WebMethod(operationName = "ByteArray")
    @WebResult(name = "ByteArrayResult", targetNamespace = NAMESPACE)
    public byte[] byteArray(@WebParam(name = "value", targetNamespace = NAMESPACE) byte[] value) {
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
    public Order[] getOrders(@WebParam(name = "count", targetNamespace = NAMESPACE) int count) {
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
    public String transferFunds(@WebParam(name = "fromAccount", targetNamespace = NAMESPACE) int fromAccount, @WebParam(name = "toAccount", targetNamespace = NAMESPACE) int toAccount,
            @WebParam(name = "amount", targetNamespace = NAMESPACE) BigDecimal amount) {
        return ContractValues.TRANSFER_SUCCEEDED;
    }

    @WebMethod(operationName = "CreateProductInfo")
    @WebResult(name = "CreateProductInfoResult", targetNamespace = NAMESPACE)
    public ProductInfo createProductInfo(@WebParam(name = "count", targetNamespace = NAMESPACE) int count) {
        return ContractValues.productInfo(count);
    }

    @WebMethod(operationName = "GetRBytes")
    @WebResult(name = "GetRBytesResult", targetNamespace = NAMESPACE)
    public byte[] getRBytes(@WebParam(name = "size", targetNamespace = NAMESPACE) int size) {
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
