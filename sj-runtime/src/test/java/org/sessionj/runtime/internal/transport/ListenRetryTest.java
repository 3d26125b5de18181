package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;

/**
 * {@code TransportManager.listen} tries another port only where that can help: the port it chose for
 * the first setup transport was taken in another setup transport's port space. Every other failure
 * ends the first attempt with a message naming the transport, the port and the reason.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ListenRetryTest {
    private static final TransportPreferences BOTH = TransportPreferences.of(List.of("net", "jvm"), List.of("net", "jvm"));

    @Test
    void aChosenPortTakenInTheSecondTransportsSpaceIsRetriedOnAnotherPort() {
        Fake net = new Fake("net", false);
        Fake jvm = new Fake("jvm", true);
        jvm.takenFor = 3; // the first three ports the network transport picks are taken in-JVM
        TransportManager manager = TransportManager.of(List.of(net, jvm), BOTH);
        AcceptorGroup group = manager.listen(manager.defaults(), 0);
        try {
            assertThat(net.listens.get()).isEqualTo(4);
            assertThat(jvm.listens.get()).isEqualTo(4);
            assertThat(group.port()).isEqualTo(net.lastPort);
            assertThat(net.closed.get()).as("each abandoned attempt's acceptor is closed").isEqualTo(3);
        } finally {
            group.close();
        }
    }

    @Test
    void aChosenPortTakenEveryTimeGivesUpAfterTwentyAttemptsNamingThePorts() {
        Fake net = new Fake("net", false);
        Fake jvm = new Fake("jvm", true);
        jvm.takenFor = Integer.MAX_VALUE;
        TransportManager manager = TransportManager.of(List.of(net, jvm), BOTH);
        assertThatThrownBy(() -> manager.listen(manager.defaults(), 0))
                .isInstanceOf(SJIOException.class)
                .hasMessageContaining("20 ports free for net were taken in another setup transport's port space")
                .hasMessageContaining("jvm " + net.lastPort)
                .hasMessageContaining("port " + net.lastPort + " is taken");
        assertThat(net.listens.get()).isEqualTo(20);
        assertThat(net.closed.get()).isEqualTo(20);
    }

    @Test
    void aFailureThatIsNoPortConflictFailsAtOnceWithTheTransportAndTheReason() {
        Fake net = new Fake("net", false);
        Fake jvm = new Fake("jvm", true);
        jvm.failure = new IOException("permission denied for the shared directory");
        TransportManager manager = TransportManager.of(List.of(net, jvm), BOTH);
        assertThatThrownBy(() -> manager.listen(manager.defaults(), 0))
                .isInstanceOf(SJIOException.class)
                .hasMessage("cannot listen on a free session port with jvm: permission denied for the shared directory")
                .hasCauseInstanceOf(IOException.class);
        assertThat(jvm.listens.get()).as("no retry").isEqualTo(1);
        assertThat(net.closed.get()).as("the acceptor already open is closed").isEqualTo(1);
    }

    @Test
    void theFirstTransportFailingIsNotRetriedEvenWhenItsPortIsTaken() {
        Fake net = new Fake("net", false);
        net.failure = new BindException("no ephemeral port left");
        Fake jvm = new Fake("jvm", true);
        TransportManager manager = TransportManager.of(List.of(net, jvm), BOTH);
        assertThatThrownBy(() -> manager.listen(manager.defaults(), 0))
                .isInstanceOf(SJIOException.class)
                .hasMessage("cannot listen on a free session port with net: no ephemeral port left");
        assertThat(net.listens.get()).isEqualTo(1);
        assertThat(jvm.listens.get()).isZero();
    }

    @Test
    void aPortNamedByTheProgramAndTakenFailsAtOnceAndSaysPortZeroPicksAFreeOne() {
        Fake net = new Fake("net", false);
        Fake jvm = new Fake("jvm", true);
        jvm.takenFor = 1;
        TransportManager manager = TransportManager.of(List.of(net, jvm), BOTH);
        assertThatThrownBy(() -> manager.listen(manager.defaults(), 4321))
                .isInstanceOf(SJIOException.class)
                .hasMessage("cannot listen on session port 4321 with jvm: port 4321 is taken"
                        + " (a server socket on port 0 picks a free one)");
        assertThat(net.listens.get()).isEqualTo(1);
        assertThat(jvm.listens.get()).isEqualTo(1);
    }

    @Test
    void aSessionTransportsFailureIsNotRetried() {
        Fake net = new Fake("net", false);
        Fake extra = new Fake("extra", false);
        extra.failure = new BindException("port taken");
        TransportManager manager = TransportManager.of(List.of(net, extra),
                TransportPreferences.of(List.of("net"), List.of("net", "extra")));
        assertThatThrownBy(() -> manager.listen(manager.defaults(), 0))
                .isInstanceOf(SJIOException.class)
                .hasMessageStartingWith("cannot listen on a free session port with extra: port taken");
        assertThat(extra.listens.get()).isEqualTo(1);
        assertThat(net.listens.get()).isEqualTo(1);
    }

    /**
     * hostile22 H22-2: a same-host session transport of the default list (ipc) whose directory another local user
     * made first cannot listen; the server socket listens on the others and leaves it out. Before, the whole
     * server socket failed. A program that names the transport still gets the failure.
     */
    @Test
    void aDefaultSameHostSessionTransportThatCannotListenIsLeftOutUnlessNamed() {
        Fake net = new Fake("net", false);
        Fake local = new Fake("local", false);
        local.sameHostOnly = true;
        local.servesSetup = false;
        local.failure = new IOException("the ipc socket directory /tmp/x must belong to alice");
        TransportManager manager = TransportManager.of(List.of(net, local), TransportPreferences.unset());
        AcceptorGroup group = manager.listen(manager.defaults(), 0);
        try {
            assertThat(local.listens.get()).isEqualTo(1);
            assertThat(group.port()).isEqualTo(net.lastPort);
        } finally {
            group.close();
        }
        TransportManager named = TransportManager.of(List.of(net, local),
                TransportPreferences.of(List.of("net"), List.of("local", "net")));
        assertThatThrownBy(() -> named.listen(named.defaults(), 0))
                .isInstanceOf(SJIOException.class)
                .hasMessageStartingWith("cannot listen on a free session port with local: the ipc socket directory");
        // a network session transport on by default still fails the server socket, as before
        Fake extra = new Fake("extra", false);
        extra.servesSetup = false;
        extra.failure = new IOException("no such device");
        TransportManager network = TransportManager.of(List.of(net, extra), TransportPreferences.unset());
        assertThatThrownBy(() -> network.listen(network.defaults(), 0))
                .isInstanceOf(SJIOException.class)
                .hasMessageStartingWith("cannot listen on a free session port with extra: no such device");
    }

    /** A transport with ports of its own; it can refuse a port as taken, or fail outright. */
    private static final class Fake extends FakeTransport {
        private final boolean inJvmOnly;
        boolean sameHostOnly;
        boolean servesSetup = true;
        final AtomicInteger listens = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final List<Integer> ports = new ArrayList<>();
        int takenFor;
        IOException failure;
        int lastPort;
        private int next = 40_000;

        Fake(String name, boolean inJvmOnly) {
            super(name);
            this.inJvmOnly = inJvmOnly;
        }

        @Override
        public ConnectionAcceptor listen(int port) throws IOException {
            listens.incrementAndGet();
            if (failure != null) {
                throw failure;
            }
            if (port != 0 && takenFor > 0) {
                takenFor--;
                throw new BindException("port " + port + " is taken");
            }
            int bound = port == 0 ? next++ : port;
            lastPort = bound;
            ports.add(bound);
            java.util.concurrent.CountDownLatch open = new java.util.concurrent.CountDownLatch(1);
            return new ConnectionAcceptor() {
                @Override
                public int port() {
                    return bound;
                }

                @Override
                public Connection accept(long timeoutNanos) throws IOException {
                    try {
                        open.await(); // nobody connects; the group's pump waits here until closed
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IOException("closed");
                }

                @Override
                public void close() {
                    if (open.getCount() > 0) {
                        closed.incrementAndGet();
                        open.countDown();
                    }
                }
            };
        }

        @Override
        public boolean inJvmOnly() {
            return inJvmOnly;
        }

        @Override
        public boolean sameHostOnly() {
            return sameHostOnly || inJvmOnly;
        }

        @Override
        public boolean servesSetup() {
            return servesSetup;
        }

        @Override
        public String portSpace() {
            return name();
        }
    }
}
