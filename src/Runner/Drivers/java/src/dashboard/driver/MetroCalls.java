package dashboard.driver;

import dashboard.driver.soap.Benchmark;
import dashboard.driver.soap.EmptyObject;
import dashboard.driver.soap.Order;
import dashboard.driver.soap.ProductDetails;
import dashboard.driver.soap.ProductInfo;
import dashboard.driver.soap.UDType;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Payload arguments (built once, read-only) and reply checks for the wsimport-generated JAX-WS proxy. */
final class MetroCalls {
    private MetroCalls() {
    }

    static Payload.Call<Benchmark> of(Payload p) {
        int n = p.size();
        return switch (p.operation()) {
            case "EmptyMethod" -> Benchmark::emptyMethod;
            case "ByteSimple" -> port -> WrongReplyException.check(port.byteSimple((short) Payload.BYTE_MAX) == Payload.BYTE_MAX, "byte");
            case "IntSimple" -> port -> WrongReplyException.check(port.intSimple(Integer.MAX_VALUE) == Integer.MAX_VALUE, "int");
            case "DoubleSimple" -> port -> WrongReplyException.check(port.doubleSimple(Double.MAX_VALUE) == Double.MAX_VALUE, "double");
            case "StringSimple" -> {
                String s = "a".repeat(n);
                yield port -> WrongReplyException.check(s.equals(port.stringSimple(s)), "string");
            }
            case "ObjectSimple" -> {
                EmptyObject o = new EmptyObject();
                yield port -> WrongReplyException.check(port.objectSimple(o) != null, "object");
            }
            case "UDTypeSimple" -> {
                UDType u = udType();
                yield port -> WrongReplyException.check(isMaximum(port.udTypeSimple(u)), "UDType");
            }
            case "ByteArray" -> {
                byte[] bytes = new byte[n];
                Arrays.fill(bytes, (byte) 0xFF);
                yield port -> WrongReplyException.check(Arrays.equals(bytes, port.byteArray(bytes)), "byte[]");
            }
            case "IntArray" -> {
                List<Integer> ints = Collections.nCopies(n, Integer.MAX_VALUE);
                yield port -> WrongReplyException.check(ints.equals(port.intArray(ints)), "int[]");
            }
            case "DoubleArray" -> {
                List<Double> doubles = Collections.nCopies(n, Double.MAX_VALUE);
                yield port -> WrongReplyException.check(doubles.equals(port.doubleArray(doubles)), "double[]");
            }
            case "ObjectArray" -> {
                List<EmptyObject> objects = Collections.nCopies(n, new EmptyObject());
                yield port -> {
                    List<EmptyObject> reply = port.objectArray(objects);
                    WrongReplyException.check(reply.size() == n && !reply.contains(null), "object[]");
                };
            }
            case "UDTypeArray" -> {
                List<UDType> udts = Collections.nCopies(n, udType());
                yield port -> {
                    List<UDType> reply = port.udTypeArray(udts);
                    WrongReplyException.check(reply.size() == n && reply.stream().allMatch(MetroCalls::isMaximum), "UDType[]");
                };
            }
            case "GetOrders" -> port -> {
                List<Order> orders = port.getOrders(n);
                WrongReplyException.check(orders.size() == n && orders.stream().allMatch(
                        o -> o.getOrderItems() != null && o.getOrderItems().getOrderLine().size() == 2), "orders");
            };
            case "TransferFunds" -> {
                BigDecimal amount = new BigDecimal(Payload.TRANSFER_AMOUNT);
                yield port -> WrongReplyException.check(Payload.TRANSFER_SUCCEEDED.equals(port.transferFunds(1, 2, amount)), "transfer");
            }
            case "CreateProductInfo" -> port -> WrongReplyException.check(isProductInfo(port.createProductInfo(n), n), "product info");
            case "GetRBytes" -> port -> {
                byte[] reply = port.getRBytes(n);
                WrongReplyException.check(reply != null && reply.length == n, "random bytes");
            };
            case "Get256Bytes" -> port -> WrongReplyException.check(Payload.STRING_256.equals(port.get256Bytes()), "256 bytes");
            default -> throw new IllegalArgumentException("no Metro call for operation " + p.operation());
        };
    }

    private static UDType udType() {
        UDType u = new UDType();
        u.setByteValue((short) Payload.BYTE_MAX);
        u.setShortValue(Payload.SHORT_MAX);
        u.setIntValue(Integer.MAX_VALUE);
        u.setLongValue(Long.MAX_VALUE);
        u.setFloatValue(Float.MAX_VALUE);
        u.setDoubleValue(Double.MAX_VALUE);
        u.setDecimalValue(new BigDecimal(Payload.DECIMAL_MAX));
        u.setBoolValue(true);
        return u;
    }

    private static boolean isMaximum(UDType u) {
        return u != null && u.getByteValue() == Payload.BYTE_MAX && u.getShortValue() == Payload.SHORT_MAX
                && u.getIntValue() == Integer.MAX_VALUE && u.getLongValue() == Long.MAX_VALUE
                && u.getFloatValue() == Float.MAX_VALUE && u.getDoubleValue() == Double.MAX_VALUE
                && new BigDecimal(Payload.DECIMAL_MAX).equals(u.getDecimalValue()) && u.isBoolValue();
    }

    private static boolean isProductInfo(ProductInfo info, int count) {
        if (info == null || !Integer.toString(count).equals(info.getTotalResults()) || !"1".equals(info.getTotalPages())
                || !"Books".equals(info.getListName()) || info.getDetails() == null
                || info.getDetails().getProductDetails().size() != count) {
            return false;
        }
        for (ProductDetails d : info.getDetails().getProductDetails()) {
            String[] actual = {d.getUrl(), d.getAsin(), d.getProductName(), d.getCatalog(), d.getReleaseDate(),
                d.getManufacturer(), d.getDistributor(), d.getImageUrlSmall(), d.getImageUrlMedium(), d.getImageUrlLarge(),
                d.getListPrice(), d.getOurPrice(), d.getUsedPrice(), d.getIsbn(), d.getMpaaRating() == null ? "" : d.getMpaaRating()};
            if (!Arrays.equals(Payload.PRODUCT_DETAILS, actual)) {
                return false;
            }
        }
        return true;
    }
}
