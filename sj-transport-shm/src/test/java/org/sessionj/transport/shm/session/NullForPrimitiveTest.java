package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * A box received into its primitive ({@code receiveInt()} on {@code ?(Integer)}; sj-processor rejects it,
 * SJ013, so only unchecked code gets here) when the peer sent null: the action fails its session like any
 * other failed action, so the peer learns of it at once instead of waiting for the next message.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NullForPrimitiveTest {
    /** The client's side: a box, then an int back. */
    @Protocol("cbegin.?(Integer).!<int>")
    public interface BoxThenInt {
    }

    /** The server's side. */
    @Protocol("^(BoxThenInt)")
    public interface BoxThenIntServer {
    }

    @Test
    @SuppressWarnings("sessionj") // receives ?(Integer) as an int on purpose
    void aNullUnboxedFailsTheSessionAndThePeerLearnsOfIt() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        try (SJServerSocket server = runtime.serverSocket(BoxThenIntServer.class, 0)) {
            CompletableFuture<Throwable> client = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(BoxThenInt.class, "localhost", server.port()).request()) {
                    s.send(s.receiveInt());
                    return null;
                } catch (SJIOException e) {
                    return e;
                }
            }, r -> Thread.ofVirtual().start(r));
            SJSocket s = server.accept(Duration.ofSeconds(20));
            s.send((Integer) null);
            // Before: the client's session stayed open after its failed receive, and this waited the 20 s out.
            assertThatThrownBy(() -> s.<Integer>receive(Duration.ofSeconds(20)))
                    .isInstanceOf(SJIOException.class).isNotInstanceOf(SJTimeoutException.class)
                    .hasMessageContaining("received null");
            assertThat(client.get(20, TimeUnit.SECONDS)).hasMessageContaining("received null for ?(java.lang.Integer)");
        }
    }
}
