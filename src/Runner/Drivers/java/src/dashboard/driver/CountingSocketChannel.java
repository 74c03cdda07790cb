package dashboard.driver;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Netty NIO socket channel whose pipeline starts with a byte counter: the first handler, nearest the socket, so it
 * sees every byte the channel writes and reads as it crosses the socket (HTTP/2 frames, and below TLS the TLS records,
 * since grpc-netty adds its TLS handler behind it). grpc-netty creates it through
 * {@code NettyChannelBuilder.channelFactory}, one per connection of one client.
 */
final class CountingSocketChannel extends NioSocketChannel {
    /** The bytes written to and read from one client's connections. */
    static final class Counts {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong received = new AtomicLong();
    }

    CountingSocketChannel(Counts counts) {
        pipeline().addFirst("wire-bytes", new Counter(counts));
    }

    private static final class Counter extends ChannelDuplexHandler {
        private final Counts counts;

        Counter(Counts counts) {
            this.counts = counts;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (msg instanceof ByteBuf b) {
                counts.received.addAndGet(b.readableBytes());
            }
            super.channelRead(ctx, msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            // Counted when handed to the socket's outbound buffer: the reply can arrive before the flush completes.
            if (msg instanceof ByteBuf b) {
                counts.sent.addAndGet(b.readableBytes());
            }
            super.write(ctx, msg, promise);
        }
    }
}
