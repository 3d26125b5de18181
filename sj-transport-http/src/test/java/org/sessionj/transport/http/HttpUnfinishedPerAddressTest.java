package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;

/**
 * A plain-HTTP slowloris from one address (hostile H4): connections that send a request head a byte at a time
 * held every connection of the relay for its request deadline, and every other client was refused. One address
 * may now have at most {@code sessionj.http.maxUnfinishedPerAddress} connections whose request has not arrived
 * whole; the next is closed at once while other addresses are served, and connections whose requests did arrive
 * whole (kept alive) do not count.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpUnfinishedPerAddressTest {
    private static final String CAP = "sessionj.http.maxUnfinishedPerAddress";
    private final List<Socket> raw = new ArrayList<>();
    private HttpRelay relay;

    @AfterEach
    void close() throws IOException {
        System.clearProperty(CAP);
        for (Socket s : raw) {
            s.close();
        }
        if (relay != null) {
            relay.close();
        }
    }

    private Socket connect(String local, int port) throws IOException {
        Socket s = new Socket();
        raw.add(s);
        s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }

    private static final String REQUEST = "GET " + Wire.TARGET + "?name=nobody:1 HTTP/1.1\r\nHost: localhost\r\n\r\n";

    /** The status of the response to a request for an unknown target (404 from a relay), the connection kept. */
    private static int status(Socket s) throws IOException {
        send(s, REQUEST);
        InputStream in = s.getInputStream();
        String head = "";
        while (!head.endsWith("\r\n\r\n")) {
            int b = in.read();
            assertThat(b).as("the relay answered before closing; so far: " + head).isNotNegative();
            head += (char) b;
        }
        int length = 0;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return Integer.parseInt(head.substring(9, 12));
    }

    /** Whether the server closes {@code s} (false on a read timeout: it is still open). */
    private static boolean closedByServer(Socket s, int timeoutMillis) throws IOException {
        s.setSoTimeout(timeoutMillis);
        try {
            return s.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void oneAddressHasAtMostItsCapOfConnectionsWithAnUnfinishedRequestAndOthersAreServed() throws Exception {
        System.setProperty(CAP, "2");
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), null, RelayLimits.defaults());
        // Two connections from 127.0.0.2 start a request head and stop (a slowloris).
        send(connect("127.0.0.2", relay.port()), "POST /sessionj/v1/open HTTP/1.1\r\nHost: x\r\n");
        send(connect("127.0.0.2", relay.port()), "POST /sessionj/v1/open HTTP/1.1\r\nHost: x\r\n");
        InetAddress two = InetAddress.getByName("127.0.0.2");
        await(() -> relay.unfinishedRequestsFrom(two) == 2, "two counted");
        Socket third = connect("127.0.0.2", relay.port());
        assertThat(closedByServer(third, 20_000)).as("the third from 127.0.0.2 closed at once").isTrue();
        assertThat(relay.refusedUnfinishedPerAddress()).isEqualTo(1);
        assertThat(status(connect("127.0.0.1", relay.port()))).as("127.0.0.1 served").isEqualTo(404);

        // Requests that arrived whole do not count: two kept-alive clients of 127.0.0.3, then a third.
        Socket a = connect("127.0.0.3", relay.port());
        Socket b = connect("127.0.0.3", relay.port());
        assertThat(status(a)).isEqualTo(404);
        assertThat(status(b)).isEqualTo(404);
        Socket c = connect("127.0.0.3", relay.port());
        assertThat(status(c)).as("served: its address's requests all arrived whole").isEqualTo(404);
        assertThat(status(a)).as("a kept-alive connection's next request").isEqualTo(404);
        assertThat(relay.refusedUnfinishedPerAddress()).isEqualTo(1);

        // A kept-alive connection that then trickles a request counts again: the cap holds for it too.
        InetAddress three = InetAddress.getByName("127.0.0.3");
        assertThat(relay.unfinishedRequestsFrom(three)).isZero();
        send(a, "GET /sessionj");
        send(b, "GET /sessionj");
        await(() -> relay.unfinishedRequestsFrom(three) == 2, "both trickling requests counted");
        Socket d = connect("127.0.0.3", relay.port());
        assertThat(closedByServer(d, 20_000)).as("past the cap again").isTrue();
        assertThat(relay.refusedUnfinishedPerAddress()).isEqualTo(2);
        assertThat(closedByServer(c, 200)).as("the idle kept-alive connection stays").isFalse();
    }
}
