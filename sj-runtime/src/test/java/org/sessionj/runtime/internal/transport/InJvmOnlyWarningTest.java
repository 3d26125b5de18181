package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
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
        return new FakeTransport(name) {
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
