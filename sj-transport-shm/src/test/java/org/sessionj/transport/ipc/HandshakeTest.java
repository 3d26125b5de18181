package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The set-up exchange's reads: whole messages, a deadline that ends a read that waits, a peer that hangs up. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HandshakeTest {
    @TempDir
    Path dir;

    /** [0] connected client, [1] the server's end. */
    private SocketChannel[] pair() throws IOException {
        Path file = dir.resolve("h.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(file));
            SocketChannel client = SocketChannel.open(StandardProtocolFamily.UNIX);
            client.connect(UnixDomainSocketAddress.of(file));
            return new SocketChannel[] {client, server.accept()};
        }
    }

    @Test
    void anOpenArrivesWholeAndNamesItsFile() throws Exception {
        SocketChannel[] ends = pair();
        try (SocketChannel a = ends[0]; SocketChannel b = ends[1]) {
            Handshake.sendOpen(a, Path.of("/dev/shm/some file ü.ring"));
            assertThat(Handshake.readOpen(b, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)))
                    .isEqualTo(Path.of("/dev/shm/some file ü.ring"));
            Handshake.answer(b, "no room");
            assertThatThrownBy(() -> Handshake.readAnswer(a, Long.MAX_VALUE)).isInstanceOf(IOException.class)
                    .hasMessageContaining("refused the connection: no room");
        }
    }

    @Test
    void aPeerThatSendsNothingTimesOutAtTheDeadlineAndItsSocketIsClosed() throws Exception {
        SocketChannel[] ends = pair();
        try (SocketChannel a = ends[0]; SocketChannel b = ends[1]) {
            a.write(ByteBuffer.wrap(new byte[] {0x53, 0x4A})); // two bytes of seven, then nothing
            long start = System.nanoTime();
            assertThatThrownBy(() -> Handshake.readOpen(b, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200)))
                    .isInstanceOf(SocketTimeoutException.class).hasMessageContaining("timed out");
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
            assertThat(b.isOpen()).as("closed at the deadline").isFalse();
        }
    }

    @Test
    void aPeerThatHangsUpMidMessageFailsTheReadAtOnce() throws Exception {
        SocketChannel[] ends = pair();
        try (SocketChannel b = ends[1]) {
            ends[0].write(ByteBuffer.wrap(new byte[] {0x53, 0x4A, 0x49}));
            ends[0].close();
            assertThatThrownBy(() -> Handshake.readOpen(b, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)))
                    .isInstanceOf(IOException.class).hasMessageContaining("closed the socket during the connection set-up");
        }
    }

    @Test
    void aBadMagicIsRefusedByName() throws Exception {
        SocketChannel[] ends = pair();
        try (SocketChannel a = ends[0]; SocketChannel b = ends[1]) {
            a.write(ByteBuffer.allocate(7).putInt(0x12345678).put((byte) 1).putShort((short) 0).flip());
            assertThatThrownBy(() -> Handshake.readOpen(b, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)))
                    .isInstanceOf(IOException.class).hasMessageContaining("not an SJ ipc connection request: magic 0x12345678");
        }
    }
}
