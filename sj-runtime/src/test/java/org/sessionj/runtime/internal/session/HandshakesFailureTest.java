package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.TestAcceptorGroups;
import org.sessionj.runtime.spi.Connection;

/**
 * Errors on a server socket's accepting threads (a class that cannot be loaded, say, when the jar the
 * JVM runs from was rewritten under it): the server's own failure must reach {@code accept()} at
 * once, and a handshake that fails with one must close its connection and give its slot back, instead
 * of ending its thread silently and leaving accept() and the requester waiting out their timeouts.
 */
@Timeout(60)
class HandshakesFailureTest {
    @Protocol("sbegin.?(int)")
    interface Served {
    }

    private static final SessionContext CONTEXT = new SessionContext(null, SJRuntimeConfig.defaults(), null);
    private static final long WAIT = TimeUnit.SECONDS.toNanos(30);

    @Test
    void anErrorWhileAcceptingFailsAcceptAtOnceNamingIt() {
        NoClassDefFoundError error = new NoClassDefFoundError("org/sessionj/Simulated");
        AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.throwing(error)));
        try (Handshakes handshakes = new Handshakes(group, ProtocolRegistry.of(Served.class), CONTEXT)) {
            handshakes.start();
            assertThatThrownBy(() -> handshakes.next(WAIT)).isInstanceOf(IOException.class)
                    .hasMessageContaining("accepting connections on session port 1 failed")
                    .hasMessageContaining("NoClassDefFoundError: org/sessionj/Simulated").hasRootCause(error);
            assertThatThrownBy(() -> handshakes.next(WAIT)).isInstanceOf(IOException.class).hasRootCause(error);
        } finally {
            group.close();
        }
    }

    @Test
    void aHandshakeThatFailsWithAnErrorClosesItsConnectionCountsItAndFreesItsSlot() throws Exception {
        BrokenConnection connection = new BrokenConnection(new NoClassDefFoundError("org/sessionj/Simulated"));
        LinkedBlockingQueue<Connection> incoming = new LinkedBlockingQueue<>(List.of(connection));
        AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.queued(incoming)));
        LinkedBlockingQueue<org.sessionj.api.SJException> reported = new LinkedBlockingQueue<>();
        try (Handshakes handshakes = new Handshakes(group, ProtocolRegistry.of(Served.class), CONTEXT)) {
            handshakes.failureListener(reported::add);
            handshakes.start();
            org.sessionj.api.SJException failure = reported.poll(30, TimeUnit.SECONDS);
            assertThat(failure).as("the failed handshake is reported").isNotNull();
            assertThat(failure).hasRootCauseInstanceOf(NoClassDefFoundError.class);
            assertThat(connection.closed.await(30, TimeUnit.SECONDS)).as("its connection is closed").isTrue();
            assertThat(handshakes.failures()).isEqualTo(1);
            // The slot comes back right after the report, on the handshake's thread (before the fix the
            // thread died and it never did: this loop then ends only at the test's timeout).
            while (handshakes.pending() != 0) {
                Thread.onSpinWait();
            }
        } finally {
            group.close();
        }
    }


    /** A connection whose read fails with {@code error}. */
    private static final class BrokenConnection extends LatchedConnection {
        final Error error;

        BrokenConnection(Error error) {
            this.error = error;
        }

        @Override
        public ByteBuf read(long timeoutNanos) {
            throw error;
        }
    }
}
