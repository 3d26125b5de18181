package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;

/**
 * A failed session's close over ipc ({@link Connection#closeFailed}) does not wait for a reader that takes
 * nothing: what is in the ring stays for the reader, the backlog behind it is dropped at once. Before, the failed
 * session's {@code close()} waited up to its 10 s bound for the reader to take the backlog, holding the program's
 * thread. The bound asserted (5 s) is generous for a loaded machine and still half the old wait; the rest is what
 * the reader gets: frames in order from the first, then the end.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IpcFailedCloseTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @TempDir
    Path sockets;

    @Test
    void aFailedCloseDropsTheBacklogAtOnceAndTheReaderGetsTheRingThenTheEnd() throws Exception {
        IpcTransport transport = new IpcTransport(IpcSettings.fromSystemProperties().withSocketDirectory(sockets)
                .withPoolSize(0).withRingBytes(8192));
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Connection writer = track(transport.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection reader = track(acceptor.accept(10 * SECOND));
        int frames = 200; // about 13 rings' worth, nobody reading: most wait in the backlog
        for (int i = 0; i < frames; i++) {
            writer.write(writer.alloc().buffer(512).writeInt(i).writeZero(508));
        }
        writer.flush();
        long start = System.nanoTime();
        writer.closeFailed();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.println("IpcFailedCloseTest: closeFailed returned in " + tookMillis + " ms");
        assertThat(tookMillis).as("the failed close, with a backlog the reader never takes").isLessThan(5_000);
        assertThat(writer.isClosed()).isTrue();

        int read = 0;
        try {
            for (ByteBuf frame = reader.read(10 * SECOND); frame != null; frame = reader.read(10 * SECOND)) {
                assertThat(frame.readInt()).as("frames in order").isEqualTo(read);
                frame.release();
                read++;
            }
        } catch (IOException end) {
            // the end: the close record if the ring had room for it, else the socket's end
        }
        assertThat(read).as("the frames in the ring, not the dropped backlog").isPositive().isLessThan(frames);
    }
}
