package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJServerSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.transport.tcp.PingRounds;
import org.sessionj.transport.tcp.SessionProtocols;

/**
 * One address cannot fill a TLS server's handshakes (the hostile-peer pass replayed one captured
 * ClientHello on 1,000 connections and held a real client 7-12 s): past
 * {@code sessionj.tls.maxHandshakesPerAddress} connections of its own in their TLS handshake, the
 * next connection from that address is closed at once, while a client from another address is served.
 * The flooder connects from 127.0.0.2 (Linux routes all of 127/8 to lo), the real client from 127.0.0.1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsPerAddressLimitTest {
    private static final int CAP = 2;
    private final List<Socket> raw = new ArrayList<>();

    @BeforeEach
    void configureTls(@TempDir Path dir) throws IOException {
        List<Path> files = Certificates.write(Certificates.selfSigned("localhost", Certificates.localhostNames()), dir);
        System.setProperty("sessionj.tls.cert", files.get(0).toString());
        System.setProperty("sessionj.tls.key", files.get(1).toString());
        System.setProperty("sessionj.tls.trust", files.get(0).toString());
        System.setProperty("sessionj.tls.maxHandshakesPerAddress", String.valueOf(CAP));
    }

    @AfterEach
    void clear() throws IOException {
        System.clearProperty("sessionj.tls.cert");
        System.clearProperty("sessionj.tls.key");
        System.clearProperty("sessionj.tls.trust");
        System.clearProperty("sessionj.tls.maxHandshakesPerAddress");
        for (Socket s : raw) {
            s.close();
        }
    }

    /** A connection from {@code local} that never sends a ClientHello. */
    private Socket silentFrom(String local, int port) throws IOException {
        Socket s = new Socket();
        raw.add(s);
        s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Reads until the server closes the connection; false on a read timeout (20 s). */
    private static boolean closedByServer(Socket s) {
        try {
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
                // an alert record, if any
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Test
    void oneAddressPastItsCapIsClosedAtOnceAndAnotherAddressIsServed() throws Exception {
        SJRuntime server = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
        SJRuntime client = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
        try (SJServerSocket socket = server.serverSocket(SessionProtocols.PingServer.class, 0)) {
            SessionServerSocket counted = (SessionServerSocket) socket;
            silentFrom("127.0.0.2", socket.port());
            silentFrom("127.0.0.2", socket.port());
            await(() -> counted.pendingHandshakes() == CAP, CAP + " TLS handshakes from 127.0.0.2");
            Socket third = silentFrom("127.0.0.2", socket.port());
            long start = System.nanoTime();
            assertThat(closedByServer(third)).as("the third connection from 127.0.0.2 is closed").isTrue();
            assertThat(System.nanoTime() - start).as("at once, not after a handshake timeout")
                    .isLessThan(TimeUnit.SECONDS.toNanos(5));
            assertThat(counted.pendingHandshakes()).as("the refused one held no slot").isEqualTo(CAP);

            PingRounds.run(client, socket, 3); // from 127.0.0.1: served, the flooder's two still held

            assertThat(raw.get(0).isClosed()).isFalse();
            raw.get(0).close();
            raw.get(1).close();
            await(() -> counted.pendingHandshakes() == 0, "the flooder's slots back once it closed");
            Socket again = silentFrom("127.0.0.2", socket.port());
            await(() -> counted.pendingHandshakes() == 1, "127.0.0.2 may start a handshake again");
            again.close();
        }
    }
}
