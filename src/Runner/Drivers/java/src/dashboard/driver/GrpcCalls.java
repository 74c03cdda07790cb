package dashboard.driver;

import com.google.protobuf.ByteString;
import dashboard.driver.grpc.BenchmarkGrpc.BenchmarkBlockingStub;
import dashboard.driver.grpc.ByteArrayValue;
import dashboard.driver.grpc.ByteValue;
import dashboard.driver.grpc.CountRequest;
import dashboard.driver.grpc.DoubleArrayValue;
import dashboard.driver.grpc.DoubleValue;
import dashboard.driver.grpc.Empty;
import dashboard.driver.grpc.EmptyObject;
import dashboard.driver.grpc.IntArrayValue;
import dashboard.driver.grpc.IntValue;
import dashboard.driver.grpc.ObjectArrayValue;
import dashboard.driver.grpc.ObjectValue;
import dashboard.driver.grpc.Order;
import dashboard.driver.grpc.ProductDetails;
import dashboard.driver.grpc.ProductInfo;
import dashboard.driver.grpc.SizeRequest;
import dashboard.driver.grpc.StringValue;
import dashboard.driver.grpc.TransferFundsRequest;
import dashboard.driver.grpc.UDType;
import dashboard.driver.grpc.UDTypeArrayValue;
import dashboard.driver.grpc.UDTypeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Payload arguments and reply checks for the protoc-generated gRPC stub (src/Service/Contracts/Protos/benchmark.proto):
 * byte as uint32, decimal as its invariant string, object as a present EmptyObject. Each call builds its request message
 * afresh (a client serializes each call; the values are made once).
 */
final class GrpcCalls {
    private static final Empty EMPTY = Empty.getDefaultInstance();

    private GrpcCalls() {
    }

    static Payload.Call<BenchmarkBlockingStub> of(Payload p) {
        int n = p.size();
        return switch (p.operation()) {
            case "EmptyMethod" -> stub -> stub.emptyMethod(EMPTY);
            case "ByteSimple" -> stub -> WrongReplyException.check(
                    stub.byteSimple(ByteValue.newBuilder().setValue(Payload.BYTE_MAX).build()).getValue() == Payload.BYTE_MAX, "byte");
            case "IntSimple" -> stub -> WrongReplyException.check(
                    stub.intSimple(IntValue.newBuilder().setValue(Integer.MAX_VALUE).build()).getValue() == Integer.MAX_VALUE, "int");
            case "DoubleSimple" -> stub -> WrongReplyException.check(
                    stub.doubleSimple(DoubleValue.newBuilder().setValue(Double.MAX_VALUE).build()).getValue() == Double.MAX_VALUE, "double");
            case "StringSimple" -> {
                String s = "a".repeat(n);
                yield stub -> WrongReplyException.check(s.equals(stub.stringSimple(StringValue.newBuilder().setValue(s).build()).getValue()), "string");
            }
            case "ObjectSimple" -> stub -> WrongReplyException.check(
                    stub.objectSimple(ObjectValue.newBuilder().setValue(EmptyObject.getDefaultInstance()).build()).hasValue(), "object");
            case "UDTypeSimple" -> {
                UDType u = udType();
                yield stub -> WrongReplyException.check(u.equals(stub.uDTypeSimple(UDTypeValue.newBuilder().setValue(u).build()).getValue()), "UDType");
            }
            case "ByteArray" -> {
                byte[] bytes = new byte[n];
                Arrays.fill(bytes, (byte) 0xFF);
                yield stub -> WrongReplyException.check(Arrays.equals(bytes,
                        stub.byteArray(ByteArrayValue.newBuilder().setValue(ByteString.copyFrom(bytes)).build()).getValue().toByteArray()), "byte[]");
            }
            case "IntArray" -> {
                List<Integer> ints = Collections.nCopies(n, Integer.MAX_VALUE);
                yield stub -> WrongReplyException.check(ints.equals(
                        stub.intArray(IntArrayValue.newBuilder().addAllValue(ints).build()).getValueList()), "int[]");
            }
            case "DoubleArray" -> {
                List<Double> doubles = Collections.nCopies(n, Double.MAX_VALUE);
                yield stub -> WrongReplyException.check(doubles.equals(
                        stub.doubleArray(DoubleArrayValue.newBuilder().addAllValue(doubles).build()).getValueList()), "double[]");
            }
            case "ObjectArray" -> {
                List<EmptyObject> objects = Collections.nCopies(n, EmptyObject.getDefaultInstance());
                yield stub -> WrongReplyException.check(
                        stub.objectArray(ObjectArrayValue.newBuilder().addAllValue(objects).build()).getValueCount() == n, "object[]");
            }
            case "UDTypeArray" -> {
                List<UDType> udts = new ArrayList<>(Collections.nCopies(n, udType()));
                yield stub -> WrongReplyException.check(udts.equals(
                        stub.uDTypeArray(UDTypeArrayValue.newBuilder().addAllValue(udts).build()).getValueList()), "UDType[]");
            }
            case "GetOrders" -> stub -> {
                List<Order> orders = stub.getOrders(CountRequest.newBuilder().setCount(n).build()).getValueList();
                WrongReplyException.check(orders.size() == n && orders.stream().allMatch(o -> o.getOrderItemsCount() == 2), "orders");
            };
            case "TransferFunds" -> stub -> WrongReplyException.check(Payload.TRANSFER_SUCCEEDED.equals(stub.transferFunds(
                    TransferFundsRequest.newBuilder().setFromAccount(1).setToAccount(2).setAmount(Payload.TRANSFER_AMOUNT).build()).getValue()), "transfer");
            case "CreateProductInfo" -> stub -> WrongReplyException.check(
                    isProductInfo(stub.createProductInfo(CountRequest.newBuilder().setCount(n).build()), n), "product info");
            case "GetRBytes" -> stub -> WrongReplyException.check(
                    stub.getRBytes(SizeRequest.newBuilder().setSize(n).build()).getValue().size() == n, "random bytes");
            case "Get256Bytes" -> stub -> WrongReplyException.check(Payload.STRING_256.equals(stub.get256Bytes(EMPTY).getValue()), "256 bytes");
            default -> throw new IllegalArgumentException("no gRPC call for operation " + p.operation());
        };
    }

    private static UDType udType() {
        return UDType.newBuilder().setByteValue(Payload.BYTE_MAX).setShortValue(Payload.SHORT_MAX).setIntValue(Integer.MAX_VALUE)
                .setLongValue(Long.MAX_VALUE).setFloatValue(Float.MAX_VALUE).setDoubleValue(Double.MAX_VALUE)
                .setDecimalValue(Payload.DECIMAL_MAX).setBoolValue(true).build();
    }

    private static boolean isProductInfo(ProductInfo info, int count) {
        if (!Integer.toString(count).equals(info.getTotalResults()) || !"1".equals(info.getTotalPages())
                || !"Books".equals(info.getListName()) || info.getDetailsCount() != count) {
            return false;
        }
        for (ProductDetails d : info.getDetailsList()) {
            String[] actual = {d.getUrl(), d.getAsin(), d.getProductName(), d.getCatalog(), d.getReleaseDate(), d.getManufacturer(),
                d.getDistributor(), d.getImageUrlSmall(), d.getImageUrlMedium(), d.getImageUrlLarge(), d.getListPrice(),
                d.getOurPrice(), d.getUsedPrice(), d.getIsbn(), d.getMpaaRating()};
            if (!Arrays.equals(Payload.PRODUCT_DETAILS, actual)) {
                return false;
            }
        }
        return true;
    }
}
