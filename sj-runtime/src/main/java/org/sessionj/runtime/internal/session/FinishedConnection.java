package org.sessionj.runtime.internal.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import org.sessionj.runtime.spi.Connection;

/**
 * The connection of a delegated session whose peer had already finished its part and closed when the
 * delegation reached it: everything the peer sent travelled with the session, nothing more comes, and
 * nothing can be sent (the session type leaves the new owner nothing to send).
 */
final class FinishedConnection implements Connection {
    /** The connection the session was delegated over, whose allocator this one lends. */
    private final Connection carrier;

    FinishedConnection(Connection carrier) {
        this.carrier = carrier;
    }

    @Override
    public ByteBufAllocator alloc() {
        // Asked only if something writes here (which fails): an in-JVM carrier then looks up Netty's
        // allocator, which nothing on its path does otherwise.
        return carrier.alloc();
    }

    @Override
    public void write(ByteBuf frame) throws IOException {
        frame.release();
        throw new IOException("the peer had finished its part of the session and closed before the delegation");
    }

    @Override
    public void flush() {
    }

    @Override
    public ByteBuf read(long timeoutNanos) throws IOException {
        throw new IOException("the peer had finished its part of the session and closed before the delegation");
    }

    @Override
    public boolean isReadable() {
        return true;
    }

    @Override
    public void readinessListener(Runnable listener) {
        if (listener != null) {
            listener.run();
        }
    }

    @Override
    public String transportName() {
        return "none (the peer had finished)";
    }

    @Override
    public boolean isClosed() {
        return true;
    }

    @Override
    public void close() {
    }
}
