package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * What the TLS handshake-limit tests share: the server's key material (and any other setting) in
 * system properties for one test, raw connections that never send a ClientHello, and looks at what the
 * server did with them. Closing clears the properties and closes the connections.
 */
final class SilentTlsPeers implements AutoCloseable {
    /** The raw connections made so far, in order. */
    final List<Socket> raw = new ArrayList<>();
    private final Map<String, String> properties = new LinkedHashMap<>();

    /**
     * Key material for localhost written to {@code dir} and set as {@code sessionj.tls.cert}, {@code key} and
     * {@code trust}, then {@code keyValues} (key, value, …) set too.
     */
    SilentTlsPeers(Path dir, String... keyValues) throws IOException {
        List<Path> files = Certificates.write(Certificates.selfSigned("localhost", Certificates.localhostNames()), dir);
        set("sessionj.tls.cert", files.get(0).toString());
        set("sessionj.tls.key", files.get(1).toString());
        set("sessionj.tls.trust", files.get(0).toString());
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            set(keyValues[i], keyValues[i + 1]);
        }
    }

    private void set(String key, String value) {
        properties.put(key, value);
        System.setProperty(key, value);
    }

    /** A connection to {@code port} on loopback from {@code local} (null: any), that never sends a ClientHello. */
    Socket silent(String local, int port) throws IOException {
        Socket s = new Socket();
        raw.add(s);
        if (local != null) {
            s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
        }
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    /** Waits (at most 20 s) until {@code condition} holds. */
    static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Reads until the server closes the connection (it may send a TLS alert first); false on a read timeout (20 s). */
    static boolean closedByServer(Socket s) {
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

    @Override
    public void close() throws IOException {
        properties.keySet().forEach(System::clearProperty);
        for (Socket s : raw) {
            s.close();
        }
    }
}
