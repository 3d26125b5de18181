package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.spi.Connection;

/**
 * A requester's set-up gives each transport's reachability check the time of its attempt
 * ({@code sessionj.setupAttemptTimeout}, the initiation timeout for the last transport), and the connect
 * what the check left of it. Before, the http relay's check had a bound of its own (2 s) which a cold
 * requester missed on a loaded machine, so it gave up on a relay that was up (FirewallRealTest).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SetupAttemptTimeTest {
    private static final long ATTEMPT = TimeUnit.SECONDS.toNanos(3);
    private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(30);
    private static final TransportPreferences BOTH = TransportPreferences.of(List.of("direct", "relay"),
            List.of("direct", "relay"));

    @Test
    void eachCheckGetsItsAttemptsTimeAndTheLastTheWholeTimeout() {
        Recording direct = new Recording("direct", false);
        Recording relay = new Recording("relay", true);
        TransportManager manager = TransportManager.of(List.of(direct, relay), BOTH);

        TransportManager.Opened opened = manager.setup(manager.defaults(), "peer", 4000, TIMEOUT, ATTEMPT);

        assertThat(opened.transport()).isSameAs(relay);
        assertThat(opened.unreachable()).containsExactly("direct");
        assertThat(direct.checks).containsExactly(ATTEMPT);
        assertThat(relay.checks).containsExactly(TIMEOUT);
        assertThat(relay.connects).singleElement().satisfies(connect -> assertThat(connect).isPositive()
                .isLessThanOrEqualTo(TIMEOUT));
    }

    @Test
    void withoutAnAttemptBoundEveryCheckGetsTheTimeoutAndWithoutATimeoutNone() {
        Recording direct = new Recording("direct", false);
        Recording relay = new Recording("relay", false);
        TransportManager manager = TransportManager.of(List.of(direct, relay), BOTH);

        // localhost: resolved without a name server (the message asks for the host's addresses once all failed)
        assertThatThrownBy(() -> manager.setup(manager.defaults(), "localhost", 4000, TIMEOUT, -1))
                .isInstanceOf(SJIOException.class)
                .hasMessage("cannot connect to session port localhost:4000 with any setup transport"
                        + " (direct: cannot reach it; relay: cannot reach it): nothing accepted a connection there"
                        + " (is the server running, and listening on port 4000?)");
        assertThatThrownBy(() -> manager.setup(manager.defaults(), "localhost", 4000, -1, -1))
                .isInstanceOf(SJIOException.class);

        assertThat(direct.checks).containsExactly(TIMEOUT, -1L);
        assertThat(relay.checks).containsExactly(TIMEOUT, -1L);
    }

    /**
     * adv15 A24: a host with no address is named as the cause, rather than read like a server that is down. The
     * host is one the JDK refuses without asking a name server (tests ask none); a misspelt name takes the same path.
     */
    @Test
    void anUnknownHostIsNamedAsTheCause() {
        Recording direct = new Recording("direct", false);
        Recording relay = new Recording("relay", false);
        TransportManager manager = TransportManager.of(List.of(direct, relay), BOTH);
        assertThatThrownBy(() -> manager.setup(manager.defaults(), "[::1", 4000, TIMEOUT, -1))
                .isInstanceOf(SJIOException.class)
                .hasMessageEndingWith("(direct: cannot reach it; relay: cannot reach it): the host name '[::1' is"
                        + " unknown (no address for it: check its spelling)");
    }

    /** A transport that records the bounds it is given and reaches the peer when {@code reaches}. */
    private static final class Recording extends FakeTransport {
        private final boolean reaches;
        final List<Long> checks = new ArrayList<>();
        final List<Long> connects = new ArrayList<>();

        Recording(String name, boolean reaches) {
            super(name);
            this.reaches = reaches;
        }

        @Override
        public Connection connect(String host, int port, long timeoutNanos) {
            connects.add(timeoutNanos);
            return null; // the set-up only hands it on: no connection is needed to see the bounds
        }

        @Override
        public boolean canReach(String host, int port) {
            throw new AssertionError("the set-up asked without a bound");
        }

        @Override
        public boolean canReach(String host, int port, long timeoutNanos) {
            checks.add(timeoutNanos);
            return reaches;
        }

        @Override
        public String portSpace() {
            return name();
        }
    }
}
