package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;
import org.sessionj.transport.shm.session.TestProtocols.MismatchedServer;

/**
 * An in-JVM request is answered on the requester's own thread (ConnectionAcceptor#handOverInline):
 * by the time {@code request()} returns, the server socket has run the handshake, so the session
 * already waits for {@code accept()} and a refusal is already counted; and with no handshake slot to
 * spare the request still goes through the server socket's own thread.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InlineHandshakeTest {
    private static final Duration NO_WAIT = Duration.ofNanos(1);

    @Test
    void theSessionWaitsForAcceptWhenRequestReturns() {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            for (int i = 0; i < 3; i++) {
                try (SJSocket requester = runtime.service(IntClient.class, "localhost", server.port()).request();
                        SJSocket accepted = server.accept(NO_WAIT)) {
                    requester.send(40 + i);
                    assertThat(accepted.receiveInt()).isEqualTo(40 + i);
                    accepted.send(-i);
                    assertThat(requester.receiveInt()).isEqualTo(-i);
                }
            }
            assertThat(SJRuntime.failedHandshakes(server)).isZero();
        }
    }

    @Test
    void anIncompatibleRequestIsCountedBeforeTheRequesterHearsOfIt() {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        try (SJServerSocket server = runtime.serverSocket(MismatchedServer.class, 0)) {
            assertThatThrownBy(() -> runtime.service(IntClient.class, "localhost", server.port()).request())
                    .isInstanceOf(SJIncompatibleSessionException.class);
            assertThat(SJRuntime.failedHandshakes(server)).isEqualTo(1);
            assertThatThrownBy(() -> server.accept(NO_WAIT)).isInstanceOf(org.sessionj.api.SJTimeoutException.class);
        }
    }

    @Test
    void withoutASpareHandshakeSlotTheRequestIsQueuedForTheServerSocketsThread() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").maxPendingHandshakes(1).build());
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            // The first session holds the only slot until accept() takes it: the second request is queued.
            SJSocket first = runtime.service(IntClient.class, "localhost", server.port()).request();
            var second = Peers.start(Peers.Threads.VIRTUAL,
                    () -> runtime.service(IntClient.class, "localhost", server.port()).request());
            try (SJSocket requester = first; SJSocket accepted = server.accept(NO_WAIT)) {
                requester.send(1);
                assertThat(accepted.receiveInt()).isEqualTo(1);
                accepted.send(2);
                assertThat(requester.receiveInt()).isEqualTo(2);
            }
            try (SJSocket requester = Peers.join(second); SJSocket accepted = server.accept(Duration.ofSeconds(10))) {
                requester.send(3);
                assertThat(accepted.receiveInt()).isEqualTo(3);
                accepted.send(4);
                assertThat(requester.receiveInt()).isEqualTo(4);
            }
            assertThat(SJRuntime.failedHandshakes(server)).isZero();
        }
    }
}
