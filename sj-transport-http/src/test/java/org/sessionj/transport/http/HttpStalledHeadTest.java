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
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;

/**
 * Slowloris connections from many addresses (hostile H4, the rest): each address keeps under its cap of connections
 * with an unfinished request, but together they held every connection of the relay for its request deadline, and
 * every honest client was refused meanwhile. At its connection limit a server now drops the connection whose request
 * has been unfinished longest for a newcomer, once that has lasted the stall time (5 s); before that, the newcomer
 * is refused as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpStalledHeadTest {
    private static final String SLOWLORIS = "POST /sessionj/v1/open HTTP/1.1\r\nHost: x\r\n";
    private static final String REQUEST = "GET " + Wire.TARGET + "?name=nobody:1 HTTP/1.1\r\nHost: localhost\r\n\r\n";
    private final List<Socket> raw = new ArrayList<>();
    private HttpRelay relay;

    @AfterEach
    void close() throws IOException {
        for (Socket s : raw) {
            s.close();
        }
        if (relay != null) {
            relay.close();
        }
    }

    private Socket connect(String local) throws IOException {
        Socket s = new Socket();
        raw.add(s);
        s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), relay.port()), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }

    /** The status of the response to a request for an unknown target (404 from a relay). */
    private static int status(Socket s) throws IOException {
        send(s, REQUEST);
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            assertThat(b).as("the relay answered before closing; so far: " + head).isNotNegative();
            head.append((char) b);
        }
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
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void atItsConnectionLimitTheRelayDropsTheOldestStalledRequestForANewcomer() throws Exception {
        // Four connections at most; a 20 s request deadline, so the stall time is 5 s.
        relay = HttpRelay.start(new InetSocketAddress("localhost", 0), null,
                new RelayLimits(4, 1024, 256, 64, 64, 10_000, 256L << 20, 20_000));
        List<Socket> slow = new ArrayList<>();
        for (int i = 2; i <= 5; i++) {
            Socket s = connect("127.0.0." + i);
            send(s, SLOWLORIS);
            slow.add(s);
        }
        long started = System.nanoTime();
        for (int i = 2; i <= 5; i++) {
            InetAddress from = InetAddress.getByName("127.0.0." + i);
            await(() -> relay.unfinishedRequestsFrom(from) == 1, "the slowloris from " + from + " counted");
        }
        // At the limit, none stalled yet: the newcomer is closed, as before.
        assertThat(closedByServer(connect("127.0.0.6"), 20_000)).as("a newcomer before the stall time").isTrue();
        assertThat(relay.droppedStalled()).isZero();

        await(() -> System.nanoTime() - started > TimeUnit.SECONDS.toNanos(5), "the slowloris stalled for 5 s");
        // The server counts the stall from each accept, a little after the connects here (later still under load):
        // an honest client tries until it is served, as a real one would.
        int served = -1;
        int refused = 0;
        while (served < 0) {
            assertThat(refused).as("honest clients refused at the limit after the stall time").isLessThan(100);
            try {
                served = status(connect("127.0.0.1"));
            } catch (IOException | AssertionError closed) {
                refused++;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
        assertThat(served).as("an honest client at the limit, once a request stalled").isEqualTo(404);
        assertThat(relay.droppedStalled()).isEqualTo(1);
        int closed = 0;
        for (Socket s : slow) {
            closed += closedByServer(s, 300) ? 1 : 0;
        }
        assertThat(closed).as("slowloris connections dropped for the newcomer").isEqualTo(1);
    }
}
