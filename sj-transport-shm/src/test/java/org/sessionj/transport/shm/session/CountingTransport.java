package org.sessionj.transport.shm.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.transport.shm.ShmTransport;

/**
 * A test transport ({@code "counting"}): the in-JVM transport, with every frame written counted per
 * connection, to observe batching. It offers no reference passing.
 */
public final class CountingTransport implements Transport {
    /** Every requester-side connection made, in order. */
    static final CopyOnWriteArrayList<Counting> REQUESTER_ENDS = new CopyOnWriteArrayList<>();

    private final ShmTransport inner = new ShmTransport();

    @Override
    public String name() {
        return "counting";
    }

    @Override
    public ConnectionAcceptor listen(int port) throws IOException {
        return inner.listen(port);
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        Counting connection = new Counting(inner.connect(host, port, timeoutNanos));
        REQUESTER_ENDS.add(connection);
        return connection;
    }

    @Override
    public boolean canReach(String host, int port) {
        return inner.canReach(host, port);
    }

    /** A connection that counts the frames written through it. */
    static final class Counting implements Connection {
        final AtomicInteger frames = new AtomicInteger();
        private final Connection inner;

        Counting(Connection inner) {
            this.inner = inner;
        }

        @Override
        public ByteBufAllocator alloc() {
            return inner.alloc();
        }

        @Override
        public void write(ByteBuf frame) throws IOException {
            frames.incrementAndGet();
            inner.write(frame);
        }

        @Override
        public void flush() throws IOException {
            inner.flush();
        }

        @Override
        public ByteBuf read(long timeoutNanos) throws IOException {
            return inner.read(timeoutNanos);
        }

        @Override
        public boolean isReadable() {
            return inner.isReadable();
        }

        @Override
        public void readinessListener(Runnable listener) {
            inner.readinessListener(listener);
        }

        @Override
        public String transportName() {
            return "counting";
        }

        @Override
        public boolean isClosed() {
            return inner.isClosed();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
