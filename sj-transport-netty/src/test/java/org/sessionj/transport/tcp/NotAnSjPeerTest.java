package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettySettings;

/**
 * adv15 A24: a server of another protocol on the port (an HTTP server, an SSH daemon) answers with text; the
 * first four bytes read as a frame length were reported as "length 1213486160 exceeds the maximum frame size"
 * and pointed at the frame-size setting. The message now says what answered, on both read paths. A real
 * listener answering as an HTTP server would.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NotAnSjPeerTest extends ConnectionTestSupport {
    private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(10);

    /** A listener that answers every connection with {@code reply} and closes it. */
    private ServerSocket answering(String reply) throws IOException {
        ServerSocket server = track(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
        Thread.ofVirtual().start(() -> {
            try (Socket socket = server.accept(); OutputStream out = socket.getOutputStream()) {
                out.write(reply.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                socket.shutdownOutput();
                socket.getInputStream().readAllBytes(); // until the client closes
            } catch (IOException e) {
                // the test closed the listener
            }
        });
        return server;
    }

    /** Reads the first frame from a listener answering {@code reply}, over {@code mode}; returns the failure. */
    private IOException readFrom(String reply, TcpTransport.IoMode mode) throws IOException {
        ServerSocket server = answering(reply);
        TcpTransport transport = new TcpTransport(NettySettings.fromSystemProperties(), mode);
        Connection connection = track(transport.connect("localhost", server.getLocalPort(), TIMEOUT));
        return assertThrows(IOException.class, () -> connection.read(TIMEOUT));
    }

    @ParameterizedTest
    @EnumSource(TcpTransport.IoMode.class)
    void anHttpServerIsNamed(TcpTransport.IoMode mode) throws Exception {
        assertThat(readFrom("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", mode)).hasMessageContaining(
                "it sent the text 'HTTP…' (read as length 1213486160) where a 4-byte frame length belongs, the start"
                        + " of an HTTP response: an HTTP server answered, not an SJ peer (is this the SJ server's"
                        + " session port?)");
    }

    @ParameterizedTest
    @EnumSource(TcpTransport.IoMode.class)
    void anotherTextProtocolIsNamed(TcpTransport.IoMode mode) throws Exception {
        assertThat(readFrom("SSH-2.0-OpenSSH_9.2\r\n", mode)).hasMessageContaining("it sent the text 'SSH-…'")
                .hasMessageContaining("the peer speaks another protocol than SJ's");
    }
}
