package org.sessionj.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;

/**
 * A benchmark-only transport ({@code "sink"}) whose peer accepts every session and discards every
 * frame: it isolates the cost of the session layer itself (monitor, encoding, batching).
 */
public final class SinkTransport implements Transport {

    @Override
    public String name() {
        return "sink";
    }

    @Override
    public ConnectionAcceptor listen(int port) throws IOException {
        throw new IOException("the sink transport only connects");
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) {
        return new SinkConnection();
    }

    @Override
    public boolean canReach(String host, int port) {
        return host.equals("sink");
    }

    /**
     * Answers the negotiation and session request (docs/negotiation.md: AGREED on "sink", the setup
     * transport, then ACCEPT), then swallows everything.
     */
    static final class SinkConnection implements Connection {
        private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        private static final byte[] NAME = "sink".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        private boolean requested;
        long bytes;

        @Override
        public ByteBufAllocator alloc() {
            return alloc;
        }

        @Override
        public void write(ByteBuf frame) {
            requested = true;
            bytes += frame.readableBytes();
            frame.release();
        }

        @Override
        public void flush() {
        }

        @Override
        public ByteBuf read(long timeoutNanos) throws IOException {
            if (!requested) {
                throw new IOException("the sink answers only a session request");
            }
            requested = false;
            ByteBuf answer = alloc.buffer();
            answer.writeByte(0x44).writeByte(1).writeByte(1); // AGREED, A1, one offer
            answer.writeShort(4).writeBytes(NAME).writeInt(0); // "sink", port 0
            answer.writeShort(4).writeBytes(NAME); // agreed on "sink"
            return answer.writeByte(0x41); // ACCEPT
        }

        @Override
        public boolean isReadable() {
            return false;
        }

        @Override
        public void readinessListener(Runnable listener) {
        }

        @Override
        public String transportName() {
            return "sink";
        }

        @Override
        public boolean isClosed() {
            return false;
        }

        @Override
        public void close() {
        }
    }
}
