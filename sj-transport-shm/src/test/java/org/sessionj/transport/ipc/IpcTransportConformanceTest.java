package org.sessionj.transport.ipc;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.TransportConformanceTest;

class IpcTransportConformanceTest extends TransportConformanceTest {
    @TempDir
    static Path sockets;

    @Override
    protected Transport transport() {
        // Small rings, so that the large-frame test fragments and the stream test fills the ring.
        return new IpcTransport(IpcSettings.fromSystemProperties().withSocketDirectory(sockets).withRingBytes(64 * 1024));
    }
}
