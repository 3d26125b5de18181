package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.transport.shm.BlockedThreads;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;

/**
 * Unchecked code that lets two threads use one session socket at once gets a clear
 * {@link SJException} for the second one; the first goes on undisturbed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConcurrentMisuseTest {

    @Test
    void aSecondThreadEnteringAnActionWhileAnotherIsInsideOneFailsClearly() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            CompletableFuture<SJSocket> client = CompletableFuture.supplyAsync(
                    () -> SJService.create(IntClient.class, "localhost", server.port()).request());
            try (SJSocket s = server.accept(Duration.ofSeconds(10)); SJSocket c = client.get(10, TimeUnit.SECONDS)) {
                AtomicReference<Object> received = new AtomicReference<>();
                Thread reader = Thread.ofPlatform().name("the-owner").start(() -> received.set(s.receiveInt()));
                BlockedThreads.awaitParked(reader); // the owner blocks in receiveInt
                assertThatThrownBy(() -> s.send(1)).isInstanceOf(SJException.class)
                        .hasMessageContaining("concurrent use of a session socket")
                        .hasMessageContaining("the-owner").hasMessageContaining("send()");
                c.send(7);
                reader.join(10_000);
                assertThat(received.get()).as("the owner's action was not disturbed").isEqualTo(7);
                s.send(8); // the owner is out: the socket is usable from this thread again
                assertThat(c.receiveInt()).isEqualTo(8);
            }
        }
    }
}
