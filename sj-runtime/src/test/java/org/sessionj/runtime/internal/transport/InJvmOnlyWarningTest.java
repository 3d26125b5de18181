package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;

/** A server that only this JVM can reach because no network transport is installed says so. */
class InJvmOnlyWarningTest {

    @Test
    void onlyInJvmSetupTransportsInstalledIsReportedWithTheArtifactToAdd() {
        assertThat(TransportManager.inJvmOnlyWarning(List.of(fake("shm", true, true), fake("ipc", false, false)), 4242))
                .hasValueSatisfying(message -> assertThat(message)
                        .startsWith("session port 4242 is served only by in-JVM transports (shm, ipc installed)")
                        .contains("cannot reach it").contains("org.sessionj:sj-transport-netty")
                        .contains("org.sessionj:sj-all"));
    }

    @Test
    void aNetworkSetupTransportInstalledIsNotReported() {
        assertThat(TransportManager.inJvmOnlyWarning(List.of(fake("shm", true, true), fake("tcp", false, true)), 1))
                .isEmpty();
    }

    @Test
    void noSetupTransportAtAllIsLeftToTheServerSocketsOwnError() {
        assertThat(TransportManager.inJvmOnlyWarning(List.of(fake("ipc", false, false)), 1)).isEmpty();
    }

    private static Transport fake(String name, boolean inJvmOnly, boolean servesSetup) {
        return new Transport() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public ConnectionAcceptor listen(int port) throws IOException {
                throw new IOException("not used");
            }

            @Override
            public Connection connect(String host, int port, long timeoutNanos) throws IOException {
                throw new IOException("not used");
            }

            @Override
            public boolean canReach(String host, int port) {
                return false;
            }

            @Override
            public boolean inJvmOnly() {
                return inJvmOnly;
            }

            @Override
            public boolean servesSetup() {
                return servesSetup;
            }
        };
    }
}
