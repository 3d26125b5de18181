package org.sessionj.runtime.internal.transport;

import java.io.IOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;

/**
 * The base of the tests' transports: named, and it neither listens, connects nor reaches anything;
 * a test overrides only what it looks at. Public, so that a subclass can be made by class name as a
 * built-in transport is.
 */
public abstract class FakeTransport implements Transport {
    private final String name;

    /**
     * A transport named {@code name}.
     *
     * @param name its configuration name
     */
    protected FakeTransport(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ConnectionAcceptor listen(int port) throws IOException {
        throw new UnsupportedOperationException("test transport");
    }

    @Override
    public Connection connect(String host, int port, long timeoutNanos) throws IOException {
        throw new UnsupportedOperationException("test transport");
    }

    @Override
    public boolean canReach(String host, int port) {
        return false;
    }

    @Override
    public String toString() {
        return "FakeTransport[" + name + "]";
    }
}
