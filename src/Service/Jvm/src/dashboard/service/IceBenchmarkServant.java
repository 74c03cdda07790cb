package dashboard.service;

import com.zeroc.Ice.Current;
import dashboard.slice.Bench.BenchmarkService;
import dashboard.slice.Bench.EmptyObject;
import dashboard.slice.Bench.Order;
import dashboard.slice.Bench.OrderLine;
import dashboard.slice.Bench.ProductDetails;
import dashboard.slice.Bench.ProductInfo;
import dashboard.slice.Bench.UDType;
import java.util.concurrent.ThreadLocalRandom;

/** The Slice contract's servant: stateless, shared by every connection and dispatch thread. */
final class IceBenchmarkServant implements BenchmarkService {
    private static final int MAX_RANDOM_BYTES = 64 * 1024 * 1024;

    @Override
    public void EmptyMethod(Current current) {
    }

    @Override
    public byte ByteSimple(byte value, Current current) {
        return value;
    }

    @Override
    public int IntSimple(int value, Current current) {
        return value;
    }

    @Override
    public double DoubleSimple(double value, Current current) {
        return value;
    }

    @Override
    public String StringSimple(String value, Current current) {
        return value;
    }

    @Override
    public EmptyObject ObjectSimple(EmptyObject value, Current current) {
        return value;
    }

    @Override
    public UDType UDTypeSimple(UDType value, Current current) {
        return value;
    }

    @Override
    public byte[] ByteArray(byte[] value, Current current) {
        return value;
    }

    @Override
    public int[] IntArray(int[] value, Current current) {
        return value;
    }

    @Override
    public double[] DoubleArray(double[] value, Current current) {
        return value;
    }

    @Override
    public EmptyObject[] ObjectArray(EmptyObject[] value, Current current) {
        return value;
    }

    @Override
    public UDType[] UDTypeArray(UDType[] value, Current current) {
        return value;
    }

    @Override
    public Order[] GetOrders(int count, Current current) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        Order[] orders = new Order[count];
        long now = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            dashboard.service.data.Order o = ContractValues.order();
            orders[i] = new Order(o.customerId, o.shippingAddress1, o.shippingAddress2, o.shippingCity, o.shippingState,
                    o.shippingZip, o.shippingCountry, o.shipType, o.creditCardType, o.creditCardNumber, now,
                    o.creditCardName, new OrderLine[] {new OrderLine(1, 10), new OrderLine(2, 5)});
        }
        return orders;
    }

    @Override
    public String TransferFunds(int fromAccount, int toAccount, String amount, Current current) {
        return ContractValues.TRANSFER_SUCCEEDED;
    }

    @Override
    public ProductInfo CreateProductInfo(int count, Current current) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        dashboard.service.data.ProductDetails d = ContractValues.productDetails();
        ProductDetails[] details = new ProductDetails[count];
        for (int i = 0; i < count; i++) {
            details[i] = new ProductDetails(d.url, d.asin, d.productName, d.catalog, d.releaseDate, d.manufacturer,
                    d.distributor, d.imageUrlSmall, d.imageUrlMedium, d.imageUrlLarge, d.listPrice, d.ourPrice,
                    d.usedPrice, d.isbn, d.mpaaRating);
        }
        return new ProductInfo(Integer.toString(count), "1", "Books", details);
    }

    @Override
    public byte[] GetRBytes(int size, Current current) {
        if (size < 0 || size > MAX_RANDOM_BYTES) {
            throw new IllegalArgumentException("size must be 0.." + MAX_RANDOM_BYTES + ": " + size);
        }
        byte[] bytes = new byte[size];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }

    @Override
    public String Get256Bytes(Current current) {
        return ContractValues.STRING_256;
    }
}
