package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.tcp.PingRounds;
import org.sessionj.transport.tcp.SessionProtocols;

/** A complete SJ session over the tls transport, configured by the sessionj.tls.* system properties. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsSessionTest {

    @Test
    void aSessionRunsOverMutuallyAuthenticatedTls(@TempDir Path dir) throws Exception {
        List<Path> files = Certificates.write(Certificates.selfSigned("localhost", Certificates.localhostNames()), dir);
        System.setProperty("sessionj.tls.cert", files.get(0).toString());
        System.setProperty("sessionj.tls.key", files.get(1).toString());
        System.setProperty("sessionj.tls.trust", files.get(0).toString());
        System.setProperty("sessionj.tls.clientAuth", "require");
        SJRuntime tls;
        SJServerSocket server;
        try {
            tls = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
            server = tls.serverSocket(SessionProtocols.PingServer.class, 0);
            // The transport reads the properties on first use: listening was the first use.
        } finally {
            System.clearProperty("sessionj.tls.cert");
            System.clearProperty("sessionj.tls.key");
            System.clearProperty("sessionj.tls.trust");
            System.clearProperty("sessionj.tls.clientAuth");
        }
        try {
            PingRounds.run(tls, server, 200);

            // A runtime whose tls transport is unconfigured (no client certificate, default trust) gets no session.
            SJRuntime anonymous = SJRuntime.create(SJRuntimeConfig.builder().transports("tls").build());
            assertThatThrownBy(() -> anonymous.service(SessionProtocols.PingClient.class, "localhost", server.port()).request())
                    .isInstanceOf(SJIOException.class)
                    .hasMessageContaining("tls:");
        } finally {
            server.close();
        }
    }
}
