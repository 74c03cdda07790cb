package dashboard.driver;

import dashboard.slice.Bench.BenchmarkServicePrx;
import dashboard.slice.Bench.EmptyObject;
import dashboard.slice.Bench.Order;
import dashboard.slice.Bench.ProductDetails;
import dashboard.slice.Bench.ProductInfo;
import dashboard.slice.Bench.UDType;
import java.util.Arrays;

/** Payload arguments (built once, read-only) and reply checks for the Slice-generated Ice proxy. */
final class IceCalls {
    private IceCalls() {
    }

    static Payload.Call<BenchmarkServicePrx> of(Payload p) {
        int n = p.size();
        return switch (p.operation()) {
            case "EmptyMethod" -> BenchmarkServicePrx::EmptyMethod;
            case "ByteSimple" -> prx -> WrongReplyException.check(prx.ByteSimple((byte) Payload.BYTE_MAX) == (byte) Payload.BYTE_MAX, "byte");
            case "IntSimple" -> prx -> WrongReplyException.check(prx.IntSimple(Integer.MAX_VALUE) == Integer.MAX_VALUE, "int");
            case "DoubleSimple" -> prx -> WrongReplyException.check(prx.DoubleSimple(Double.MAX_VALUE) == Double.MAX_VALUE, "double");
            case "StringSimple" -> {
                String s = "a".repeat(n);
                yield prx -> WrongReplyException.check(s.equals(prx.StringSimple(s)), "string");
            }
            case "ObjectSimple" -> {
                EmptyObject o = new EmptyObject();
                yield prx -> WrongReplyException.check(prx.ObjectSimple(o) != null, "object");
            }
            case "UDTypeSimple" -> {
                UDType u = udType();
                yield prx -> WrongReplyException.check(u.equals(prx.UDTypeSimple(u)), "UDType");
            }
            case "ByteArray" -> {
                byte[] bytes = new byte[n];
                Arrays.fill(bytes, (byte) 0xFF);
                yield prx -> WrongReplyException.check(Arrays.equals(bytes, prx.ByteArray(bytes)), "byte[]");
            }
            case "IntArray" -> {
                int[] ints = new int[n];
                Arrays.fill(ints, Integer.MAX_VALUE);
                yield prx -> WrongReplyException.check(Arrays.equals(ints, prx.IntArray(ints)), "int[]");
            }
            case "DoubleArray" -> {
                double[] doubles = new double[n];
                Arrays.fill(doubles, Double.MAX_VALUE);
                yield prx -> WrongReplyException.check(Arrays.equals(doubles, prx.DoubleArray(doubles)), "double[]");
            }
            case "ObjectArray" -> {
                EmptyObject[] objects = new EmptyObject[n];
                for (int i = 0; i < n; i++) {
                    objects[i] = new EmptyObject();
                }
                yield prx -> {
                    EmptyObject[] reply = prx.ObjectArray(objects);
                    WrongReplyException.check(reply.length == n && Arrays.stream(reply).allMatch(o -> o != null), "object[]");
                };
            }
            case "UDTypeArray" -> {
                UDType[] udts = new UDType[n];
                Arrays.fill(udts, udType());
                yield prx -> WrongReplyException.check(Arrays.equals(udts, prx.UDTypeArray(udts)), "UDType[]");
            }
            case "GetOrders" -> prx -> {
                Order[] orders = prx.GetOrders(n);
                WrongReplyException.check(orders.length == n
                        && Arrays.stream(orders).allMatch(o -> o.OrderItems != null && o.OrderItems.length == 2), "orders");
            };
            case "TransferFunds" -> prx -> WrongReplyException.check(
                    Payload.TRANSFER_SUCCEEDED.equals(prx.TransferFunds(1, 2, Payload.TRANSFER_AMOUNT)), "transfer");
            case "CreateProductInfo" -> prx -> WrongReplyException.check(isProductInfo(prx.CreateProductInfo(n), n), "product info");
            case "GetRBytes" -> prx -> WrongReplyException.check(prx.GetRBytes(n).length == n, "random bytes");
            case "Get256Bytes" -> prx -> WrongReplyException.check(Payload.STRING_256.equals(prx.Get256Bytes()), "256 bytes");
            default -> throw new IllegalArgumentException("no Ice call for operation " + p.operation());
        };
    }

    private static UDType udType() {
        return new UDType((byte) Payload.BYTE_MAX, Payload.SHORT_MAX, Integer.MAX_VALUE, Long.MAX_VALUE, Float.MAX_VALUE,
                Double.MAX_VALUE, Payload.DECIMAL_MAX, true);
    }

    private static boolean isProductInfo(ProductInfo info, int count) {
        if (info == null || !Integer.toString(count).equals(info.TotalResults) || !"1".equals(info.TotalPages)
                || !"Books".equals(info.ListName) || info.Details == null || info.Details.length != count) {
            return false;
        }
        for (ProductDetails d : info.Details) {
            String[] actual = {d.Url, d.Asin, d.ProductName, d.Catalog, d.ReleaseDate, d.Manufacturer, d.Distributor,
                d.ImageUrlSmall, d.ImageUrlMedium, d.ImageUrlLarge, d.ListPrice, d.OurPrice, d.UsedPrice, d.Isbn, d.MpaaRating};
            if (!Arrays.equals(Payload.PRODUCT_DETAILS, actual)) {
                return false;
            }
        }
        return true;
    }
}
