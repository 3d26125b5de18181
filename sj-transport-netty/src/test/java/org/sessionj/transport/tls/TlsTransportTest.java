package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.AuthenticatedConnection;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettyAcceptor;
import org.sessionj.transport.tcp.TcpTransport;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTransportTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long BRIEFLY = TimeUnit.MILLISECONDS.toNanos(200);
    private static final KeyMaterial SERVER = Certificates.selfSigned("server", Certificates.localhostNames());
    private static final KeyMaterial CLIENT = Certificates.selfSigned("client", List.of());
    private static final KeyMaterial STRANGER = Certificates.selfSigned("stranger", Certificates.localhostNames());


    private static TlsTransport server(TlsConfig.ClientAuth clientAuth, KeyMaterial... trusted) {
        TlsConfig.Builder config = TlsConfig.builder().keyMaterial(SERVER).clientAuth(clientAuth);
        for (KeyMaterial t : trusted) {
            config.trust(t.certificate());
        }
        return new TlsTransport(config.build());
    }

    private static TlsTransport client(KeyMaterial key, KeyMaterial trusted) {
        TlsConfig.Builder config = TlsConfig.builder().trust(trusted.certificate());
        if (key != null) {
            config.keyMaterial(key);
        }
        return new TlsTransport(config.build());
    }

    private static Principal principal(Connection c) {
        AuthenticatedConnection authenticated = c.capability(AuthenticatedConnection.class);
        assertThat(authenticated).as("a TLS connection is authenticated").isNotNull();
        return authenticated.peerPrincipal();
    }

    @Test
    void isFoundByTheServiceLoader() {
        assertThat(ServiceLoader.load(Transport.class).stream().map(p -> p.get().name())).contains("tls", "tcp");
    }

    @Test
    void mutualAuthenticationShowsEachSideThePeersPrincipal() throws IOException {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.REQUIRE, CLIENT).listen(0));
        Connection requester = track(client(CLIENT, SERVER).connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        assertThat(principal(requester).getName()).isEqualTo("CN=server");
        assertThat(principal(accepter).getName()).isEqualTo("CN=client");
        requester.write(frame(requester, "hello over mTLS"));
        requester.flush();
        assertThat(text(accepter.read(10 * SECOND))).isEqualTo("hello over mTLS");
        accepter.write(frame(accepter, "hello back"));
        accepter.flush();
        assertThat(text(requester.read(10 * SECOND))).isEqualTo("hello back");
    }

    @Test
    void withoutClientAuthenticationTheServerSeesNoPrincipal() throws IOException {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.NONE).listen(0));
        Connection requester = track(client(CLIENT, SERVER).connect("127.0.0.1", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        assertThat(principal(accepter)).isNull();
        assertThat(principal(requester).getName()).isEqualTo("CN=server");
    }

    @Test
    void optionalClientAuthenticationLetsAClientWithoutCertificateIn() throws IOException {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.OPTIONAL, CLIENT).listen(0));
        track(client(null, SERVER).connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        assertThat(principal(accepter)).isNull();
    }

    @Test
    void anUntrustedServerCertificateFailsConnect() throws IOException {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.NONE).listen(0));
        assertThatThrownBy(() -> track(client(null, STRANGER).connect("localhost", acceptor.port(), 10 * SECOND)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("TLS handshake with localhost:" + acceptor.port() + " failed")
                .hasMessageContaining("the peer's certificate is not trusted");
        assertThat(acceptor.accept(BRIEFLY)).as("the server hands over nothing").isNull();
    }

    @Test
    void aClientWithoutCertificateFailsWhenTheServerRequiresOne() throws IOException {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.REQUIRE, CLIENT).listen(0));
        assertThatThrownBy(() -> track(client(null, SERVER).connect("localhost", acceptor.port(), 10 * SECOND)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("localhost:" + acceptor.port())
                .hasMessageContaining("rejected our certificate");
        assertThat(acceptor.accept(BRIEFLY)).isNull();
    }

    @Test
    void aClientWithAnUntrustedCertificateFailsWhenTheServerRequiresOne() throws IOException {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.REQUIRE, CLIENT).listen(0));
        assertThatThrownBy(() -> track(client(STRANGER, SERVER).connect("localhost", acceptor.port(), 10 * SECOND)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("localhost:" + acceptor.port())
                .hasMessageContaining("rejected our certificate");
        assertThat(acceptor.accept(BRIEFLY)).isNull();
    }

    @Test
    void aCertificateThatDoesNotNameTheHostFailsUnlessVerificationIsOff() throws IOException {
        KeyMaterial elsewhere = Certificates.selfSigned("elsewhere", List.of("elsewhere.example"));
        TlsTransport serverSide = new TlsTransport(TlsConfig.builder().keyMaterial(elsewhere).build());
        ConnectionAcceptor acceptor = track(serverSide.listen(0));
        TlsTransport verifying = new TlsTransport(TlsConfig.builder().trust(elsewhere.certificate()).build());
        assertThatThrownBy(() -> track(verifying.connect("localhost", acceptor.port(), 10 * SECOND)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("TLS handshake with localhost:" + acceptor.port() + " failed")
                .hasMessageContaining("does not name the host");
        TlsTransport trusting = new TlsTransport(
                TlsConfig.builder().trust(elsewhere.certificate()).verifyHostname(false).build());
        Connection requester = track(trusting.connect("localhost", acceptor.port(), 10 * SECOND));
        assertThat(principal(requester).getName()).isEqualTo("CN=elsewhere");
    }

    @Test
    void aTlsClientNeverFallsBackToPlaintextWithATcpServer() throws IOException {
        ConnectionAcceptor plain = track(new TcpTransport().listen(0));
        assertThatThrownBy(() -> track(client(null, SERVER).connect("localhost", plain.port(), 10 * SECOND)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("localhost:" + plain.port())
                .hasMessageContaining("closed the connection");
    }

    @Test
    void aPlaintextClientIsNeverHandedToTheTlsServer() throws IOException {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.NONE).listen(0));
        try (Socket socket = new Socket("localhost", acceptor.port())) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(5);
            out.write("hello".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(socket.getInputStream().read()).as("the server closes on the plaintext").isEqualTo(-1);
        }
        assertThat(acceptor.accept(BRIEFLY)).isNull();
    }

    /**
     * The tls transport speaks TLS 1.3 only: its peers are SJ runtimes, and TLS 1.2's client-initiated
     * renegotiation let one connection make the server run full handshakes on demand.
     */
    @Test
    void aTls12ClientIsRefusedSoNoRenegotiationCanBeAskedFor() throws Exception {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.NONE).listen(0));
        javax.net.ssl.SSLContext tls12 = javax.net.ssl.SSLContext.getInstance("TLSv1.2");
        tls12.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        }}, null);
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) tls12.getSocketFactory()
                .createSocket("localhost", acceptor.port())) {
            socket.setSoTimeout(10_000);
            socket.setEnabledProtocols(new String[] {"TLSv1.2"});
            assertThatThrownBy(socket::startHandshake).isInstanceOf(java.io.IOException.class);
        }
        Connection requester = track(client(null, SERVER).connect("localhost", acceptor.port(), 10 * SECOND));
        assertThat(requester.capability(AuthenticatedConnection.class)).as("a TLS 1.3 client still connects").isNotNull();
    }

    @Test
    void listeningWithoutKeyMaterialFailsClearly() {
        TlsTransport keyless = new TlsTransport(TlsConfig.builder().build());
        assertThatThrownBy(() -> keyless.listen(0))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("needs key material")
                .hasMessageContaining("sessionj.tls.cert");
        // Every server socket of a runtime tries tls among its session transports: without key material
        // the refusal must come before the client context (the JDK's whole trust store) is built.
        assertThat(keyless.contextsBuilt()).as("TLS contexts built for a listen that cannot succeed").isFalse();
    }

    @Test
    void theServiceLoaderInstanceReadsTheSystemProperties(@TempDir Path dir) throws IOException {
        List<Path> files = Certificates.write(SERVER, dir);
        System.setProperty("sessionj.tls.cert", files.get(0).toString());
        System.setProperty("sessionj.tls.key", files.get(1).toString());
        System.setProperty("sessionj.tls.trust", files.get(0).toString());
        try {
            Transport tls = ServiceLoader.load(Transport.class).stream().map(ServiceLoader.Provider::get)
                    .filter(t -> t.name().equals("tls")).findFirst().orElseThrow();
            ConnectionAcceptor acceptor = track(tls.listen(0));
            Connection requester = track(tls.connect("localhost", acceptor.port(), 10 * SECOND));
            Connection accepter = track(acceptor.accept(10 * SECOND));
            requester.write(frame(requester, "configured by properties"));
            requester.flush();
            assertThat(text(accepter.read(10 * SECOND))).isEqualTo("configured by properties");
            assertThat(principal(requester).getName()).isEqualTo("CN=server");
        } finally {
            System.clearProperty("sessionj.tls.cert");
            System.clearProperty("sessionj.tls.key");
            System.clearProperty("sessionj.tls.trust");
        }
    }

    /** The number of connections waiting in the kernel's accept queue of the listening socket on {@code port}. */
    private static int acceptQueue(int port) throws IOException {
        String local = String.format(":%04X", port);
        int found = -1;
        for (String file : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path path = Path.of(file);
            if (!Files.exists(path)) {
                continue;
            }
            for (String line : Files.readAllLines(path)) {
                String[] f = line.strip().split("\\s+");
                if (f.length > 4 && f[1].endsWith(local) && f[3].equals("0A")) { // LISTEN: rx_queue is the accept queue
                    found = Math.max(found, 0) + Integer.parseInt(f[4].substring(f[4].indexOf(':') + 1), 16);
                }
            }
        }
        assertThat(found).as("a listening socket on port %d", port).isNotNegative();
        return found;
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 30 * SECOND;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void aConnectionWaitingForAHandshakeSlotKeepsTheServerFromAcceptingAcrossEveryRetry() throws Exception {
        ConnectionAcceptor acceptor = track(server(TlsConfig.ClientAuth.NONE).listen(0));
        NettyAcceptor netty = (NettyAcceptor) acceptor;
        AtomicInteger tries = new AtomicInteger();
        acceptor.countHandshakes((transport, drop) -> {
            tries.incrementAndGet();
            return null; // every slot taken, for as long as the test runs
        });
        Socket first = track(new Socket("localhost", acceptor.port()));
        await(() -> tries.get() >= 1 && !netty.accepting(), "the first connection waiting for a slot, accepting paused");
        Socket second = track(new Socket("localhost", acceptor.port()));
        Socket third = track(new Socket("localhost", acceptor.port()));
        await(() -> {
            try {
                return acceptQueue(acceptor.port()) == 2;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "the next two in the kernel's accept queue");
        int seen = tries.get();
        await(() -> tries.get() >= seen + 10, "ten more tries of the waiting connection");
        assertThat(netty.acceptingResumed()).as("no retry turned accepting back on").isZero();
        assertThat(netty.accepting()).isFalse();
        assertThat(acceptQueue(acceptor.port())).as("the later connections still wait in the kernel").isEqualTo(2);
        assertThat(acceptor.accept(BRIEFLY)).isNull();
        first.close();
        second.close();
        third.close();
    }
}
