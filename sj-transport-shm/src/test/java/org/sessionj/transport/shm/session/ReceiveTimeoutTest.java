package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.Peers.Threads;
import org.sessionj.transport.shm.session.TestProtocols.FeedClient;
import org.sessionj.transport.shm.session.TestProtocols.FeedServer;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;

/**
 * The receive timeout ({@code sessionj.receiveTimeout}, off by default): every input without a
 * timeout of its own fails after it, naming the session, the expected action and the setting.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReceiveTimeoutTest {
    private final SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm")
            .defaultTimeout(Duration.ofMillis(200)).build());

    @Test
    void everyKindOfInputWithoutItsOwnTimeoutFailsAfterTheReceiveTimeoutNamingSessionActionAndSetting() throws Exception {
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            CountDownLatch done = new CountDownLatch(1);
            FutureTask<Void> silent = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = runtime.service(IntClient.class, "localhost", server.port()).request()) {
                    done.await(); // sends nothing until the accepter timed out
                } catch (RuntimeException expected) {
                    // the accepter failed the session; closing says so
                }
                return null;
            });
            try (SJSocket s = server.accept()) {
                long started = System.nanoTime();
                assertThatThrownBy(s::receiveInt).isInstanceOf(SJTimeoutException.class)
                        .hasMessageContaining("no input within PT0.2S for ?(int)")
                        .hasMessageContaining("in the session " + s.protocol().substring(0, 10))
                        .hasMessageContaining("(sessionj.receiveTimeout)");
                assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
            }
            done.countDown();
            Peers.join(silent);
        }
        try (SJServerSocket server = runtime.serverSocket(FeedServer.class, 0)) {
            CountDownLatch done = new CountDownLatch(1);
            FutureTask<Void> silent = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = server.accept()) {
                    done.await(); // sends nothing until the requester timed out
                } catch (RuntimeException expected) {
                    // the requester failed the session; closing says so
                }
                return null;
            });
            SJSocket s = runtime.service(FeedClient.class, "localhost", server.port()).request();
            assertThatThrownBy(s::inwhile).isInstanceOf(SJTimeoutException.class)
                    .hasMessageContaining("?[").hasMessageContaining("(sessionj.receiveTimeout)");
            s.close(); // a failed session closes quietly
            done.countDown();
            Peers.join(silent);
        }
    }

    @Test
    void aReceivesOwnTimeoutIsNamedAsSuch() throws Exception {
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            CountDownLatch done = new CountDownLatch(1);
            FutureTask<Void> silent = Peers.start(Threads.VIRTUAL, () -> {
                try (SJSocket s = runtime.service(IntClient.class, "localhost", server.port()).request()) {
                    done.await(); // sends nothing until the accepter timed out
                } catch (RuntimeException expected) {
                    // the accepter failed the session; closing says so
                }
                return null;
            });
            try (SJSocket s = server.accept()) {
                assertThatThrownBy(() -> s.receive(Duration.ofMillis(50))).isInstanceOf(SJTimeoutException.class)
                        .hasMessageContaining("no input within PT0.05S for ?(int)")
                        .hasMessageContaining("(the receive's timeout)");
            }
            done.countDown();
            Peers.join(silent);
        }
    }

    @Test
    void offByDefault() {
        assertThat(SJRuntimeConfig.builder().build().defaultTimeout()).isNull();
    }
}
