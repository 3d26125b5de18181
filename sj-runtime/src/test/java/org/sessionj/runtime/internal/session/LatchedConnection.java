package org.sessionj.runtime.internal.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.concurrent.CountDownLatch;
import org.sessionj.runtime.spi.Connection;

/**
 * A test requester's connection whose reads the subclass decides: frames written are dropped, nothing
 * is readable ahead of a read, and {@link #closed} counts down when the server closes it.
 */
abstract class LatchedConnection implements Connection {
    final CountDownLatch closed = new CountDownLatch(1);

    @Override
    public ByteBufAllocator alloc() {
        return ByteBufAllocator.DEFAULT;
    }

    @Override
    public void write(ByteBuf frame) {
        frame.release();
    }

    @Override
    public void flush() {
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
        return "t0";
    }

    @Override
    public boolean isClosed() {
        return closed.getCount() == 0;
    }

    @Override
    public void close() {
        closed.countDown();
    }
}
