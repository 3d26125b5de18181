package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;

/**
 * A writer that sends more than the buffers hold and closes at once, while the reader is still behind:
 * the reader gets every frame, then a clean close (not "broken"), over both links.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpCloseTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int FRAMES = 48;
    private static final int SIZE = 64 << 10;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCloseBehindABacklogArrivesAfterEveryFrame(boolean websocket) throws Exception {
        HttpTransport transport = new HttpTransport(TestConfigs.of("sessionj.http.websocket", String.valueOf(websocket)));
        try (ConnectionAcceptor acceptor = transport.listen(0)) {
            Connection writer = transport.connect("localhost", acceptor.port(), 5 * SECOND);
            Connection reader = acceptor.accept(5 * SECOND);
            CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
                int count = 0;
                try {
                    Thread.sleep(300); // behind on purpose: the writer's last bytes wait for room
                    while (true) {
                        ByteBuf frame = reader.read(10 * SECOND);
                        assertThat(frame).isNotNull();
                        assertThat(frame.readableBytes()).isEqualTo(SIZE);
                        frame.release();
                        count++;
                    }
                } catch (java.io.IOException e) {
                    assertThat(e).hasMessageContaining("closed by the peer");
                    return count;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            for (int i = 0; i < FRAMES; i++) {
                writer.write(writer.alloc().buffer(SIZE).writeZero(SIZE));
            }
            writer.flush();
            writer.close();
            assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo(FRAMES);
            reader.close();
            assertThatThrownBy(() -> writer.write(writer.alloc().buffer(1).writeByte(1)))
                    .isInstanceOf(java.io.IOException.class);
        }
    }
}
