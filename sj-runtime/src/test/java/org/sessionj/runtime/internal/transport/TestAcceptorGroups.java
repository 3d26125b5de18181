package org.sessionj.runtime.internal.transport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;

/** Acceptor groups over test acceptors, for tests outside this package (the group's constructor is package-private). */
public final class TestAcceptorGroups {
    private TestAcceptorGroups() {
    }

    /** A group of {@code acceptors}, each served by a setup transport named {@code t0}, {@code t1}, …, on session port 1. */
    public static AcceptorGroup of(List<ConnectionAcceptor> acceptors) {
        List<AcceptorGroup.Member> members = new ArrayList<>();
        List<Transport> transports = new ArrayList<>();
        for (int i = 0; i < acceptors.size(); i++) {
            Transport transport = new Named("t" + i);
            transports.add(transport);
            members.add(new AcceptorGroup.Member(transport, acceptors.get(i), true));
        }
        return new AcceptorGroup(members, new TransportManager.Plan(transports, transports, false), 1);
    }

    /** An acceptor whose {@code accept} throws {@code failure} (an unchecked exception or an Error). */
    public static ConnectionAcceptor throwing(Throwable failure) {
        return new OnPortOne() {
            @Override
            public Connection accept(long timeoutNanos) {
                if (failure instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) failure;
            }
        };
    }

    /** An acceptor handing out the connections put in {@code incoming}, in order, waiting for the next. */
    public static ConnectionAcceptor queued(java.util.concurrent.BlockingQueue<Connection> incoming) {
        return new OnPortOne() {
            @Override
            public Connection accept(long timeoutNanos) throws IOException {
                try {
                    return incoming.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException();
                }
            }
        };
    }

    /** An acceptor that never accepts anything until closed. */
    public static ConnectionAcceptor idle() {
        return new OnPortOne() {
            private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);

            @Override
            public Connection accept(long timeoutNanos) throws IOException {
                try {
                    if (timeoutNanos < 0) {
                        closed.await();
                    } else {
                        closed.await(timeoutNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (closed.getCount() == 0) {
                    throw new IOException("closed");
                }
                return null;
            }

            @Override
            public void close() {
                closed.countDown();
            }
        };
    }

    /** A test acceptor on session port 1 that holds nothing to close. */
    private abstract static class OnPortOne implements ConnectionAcceptor {
        @Override
        public int port() {
            return 1;
        }

        @Override
        public void close() {
        }
    }

    /** A transport named {@code name} that never listens, connects or reaches anything. */
    public static Transport named(String name) {
        return new Named(name);
    }

    private static final class Named extends FakeTransport {
        Named(String name) {
            super(name);
        }
    }
}
