package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.support.RecyclableFrame;
import org.sessionj.transport.tcp.TcpTransport;

/**
 * A TCP connection's frames are heap buffers that come back to the writer once the event loop has sent
 * them: no pooled allocation on the session's thread, none at all in steady state.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OutboundFrameTest {
    private static final long TEN_SECONDS = TimeUnit.SECONDS.toNanos(10);
    // The event-loop path, whatever sessionj.tcp.io says: blocking connections have frames of their own.
    private final TcpTransport tcp = new TcpTransport(NettySettings.fromSystemProperties());
    private final ConnectionAcceptor acceptor;
    private final Connection writer;
    private final Connection reader;

    OutboundFrameTest() throws IOException {
        acceptor = tcp.listen(0);
        writer = tcp.connect("localhost", acceptor.port(), TEN_SECONDS);
        reader = acceptor.accept(TEN_SECONDS);
    }

    @AfterEach
    void close() {
        writer.close();
        reader.close();
        acceptor.close();
    }

    /** Writes {@code frame} and reads it on the other end: by then the event loop has released it. */
    private ByteBuf roundTrip(ByteBuf frame) throws IOException {
        writer.write(frame);
        writer.flush();
        return reader.read(TEN_SECONDS);
    }

    @Test
    void aSentFrameIsTheWritersNextOneEmptyWithOneReferenceAndNotDirect() throws IOException {
        ByteBuf first = writer.frameBuffer(256);
        assertThat(first).isInstanceOf(RecyclableFrame.class);
        assertThat(first.isDirect()).as("no pooled direct buffer on the writer's thread").isFalse();
        ByteBuf received = roundTrip(first.writeInt(7));
        assertThat(received.readInt()).isEqualTo(7);
        received.release();

        ByteBuf second = writer.frameBuffer(256);
        assertThat(second).isSameAs(first);
        assertThat(second.refCnt()).isEqualTo(1);
        assertThat(second.readableBytes()).isZero();
        ByteBuf again = roundTrip(second.writeInt(8));
        assertThat(again.readInt()).isEqualTo(8);
        again.release();
    }

    @Test
    void aFrameLargerThanABatchTravelsAsItIsAndComesBackToo() throws IOException {
        ByteBuf large = writer.frameBuffer(16);
        for (int i = 0; i < 4096; i++) {
            large.writeInt(i);
        }
        ByteBuf received = roundTrip(large);
        assertThat(received.readableBytes()).isEqualTo(4 * 4096);
        for (int i = 0; i < 4096; i++) {
            assertThat(received.readInt()).isEqualTo(i);
        }
        received.release();
        assertThat(writer.frameBuffer(16)).isSameAs(large);
    }

    @Test
    void aFrameThatGrewPastTheBoundIsLeftToTheCollector() throws IOException {
        ByteBuf big = writer.frameBuffer(16);
        big.writeZero(RecyclableFrame.MAX_RECYCLED + 1);
        roundTrip(big).release();
        assertThat(big.refCnt()).isZero();
        assertThat(writer.frameBuffer(16)).isNotSameAs(big);
    }

    @Test
    void onlyOneSpareIsKept() throws IOException {
        ByteBuf first = writer.frameBuffer(16).writeByte(1);
        ByteBuf second = writer.frameBuffer(16).writeByte(2);
        assertThat(second).isNotSameAs(first);
        writer.write(first);
        writer.write(second);
        writer.flush();
        reader.read(TEN_SECONDS).release();
        reader.read(TEN_SECONDS).release();
        ByteBuf next = writer.frameBuffer(16);
        assertThat(next == first || next == second).as("the spare is one of the two").isTrue();
        ByteBuf fresh = writer.frameBuffer(16);
        assertThat(fresh).isNotSameAs(first).isNotSameAs(second); // ByteBuf.equals compares contents
        assertThat(first.refCnt() + second.refCnt()).as("the other one was freed").isEqualTo(1);
    }
}
