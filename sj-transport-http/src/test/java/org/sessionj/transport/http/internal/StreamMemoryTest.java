package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * hostile18 H2: a direct http server's streams were charged to no budget ({@code Budget.unlimited()}): 200 clients that
 * uploaded requests and never downloaded the answers filled a 256 MiB server's direct memory, and an honest session
 * timed out. Now they are charged to one budget for the process; when it is spent the connections holding the most
 * unread bytes are failed, the heaviest first, with a message naming the rule, and the others go on.
 */
class StreamMemoryTest {
    private static final int KIB = 1024;
    private final Halves table = new Halves(60_000, now -> { });

    @AfterEach
    void close() {
        table.close();
    }

    private static ByteBuf bytes(int n) {
        return Unpooled.directBuffer(n).writeZero(n);
    }

    private Half half(StreamMemory memory) {
        Half half = new Half(Wire.newToken(), new ByteStream(1 << 20, memory.budget()),
                new ByteStream(1 << 20, memory.budget()));
        table.add(half);
        return half;
    }

    @Test
    void whenTheBudgetIsSpentTheHeaviestConnectionsAreFailedAndTheUploadThatFoundItSpentGoesThrough() {
        StreamMemory memory = new StreamMemory(1024 * KIB);
        memory.register(table);
        Half heavy = half(memory);
        Half second = half(memory);
        Half light = half(memory);
        Half uploader = half(memory);
        // Answers never downloaded (the server's writes) and uploads never read.
        assertThat(heavy.out().appendFrame(bytes(500 * KIB))).isTrue();
        assertThat(second.in().append(bytes(300 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        assertThat(light.in().append(bytes(32 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        assertThat(uploader.in().append(bytes(100 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        long before = memory.budget().used();
        assertThat(before).isGreaterThan(900 * KIB);

        // 200 KiB more do not fit: the heaviest (500 KiB) goes, which brings the budget under three quarters.
        assertThat(uploader.in().append(bytes(200 * KIB), 100 * KIB, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        assertThat(memory.failed()).isEqualTo(1);
        assertThat(heavy.isDone()).isTrue();
        assertThat(table.get(heavy.token())).isNull();
        ByteStream.Chunk gone = heavy.out().read(0, 1 << 20);
        assertThat(gone.failure()).startsWith("failed by the server to make room: the stream bytes its direct http"
                + " servers hold (").contains("were past sessionj.http.bufferedBytes (1048576) and this connection held"
                + " the most unread (" + (500 * KIB + FrameAssembler.HEADER_BYTES) + " bytes");
        assertThat(heavy.out().appendFrame(bytes(10))).as("the server's next write is refused").isFalse();
        assertThat(second.isDone() || light.isDone() || uploader.isDone()).isFalse();
        assertThat(memory.budget().used()).isEqualTo(before - 500 * KIB - FrameAssembler.HEADER_BYTES + 200 * KIB);
    }

    @Test
    void aLocalWritersFramePastTheBudgetFailsTheHeaviest() {
        StreamMemory memory = new StreamMemory(256 * KIB);
        memory.register(table);
        Half small = half(memory);
        Half big = half(memory);
        Half writer = half(memory);
        assertThat(small.in().append(bytes(40 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        assertThat(big.in().append(bytes(150 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        // The server writes past the budget (a local writer bounds itself per stream): the heaviest is failed.
        assertThat(writer.out().appendFrame(bytes(70 * KIB))).isTrue();
        assertThat(big.isDone()).isTrue();
        assertThat(small.isDone() || writer.isDone()).isFalse();
        assertThat(big.in().read(0, 1 << 20).failure()).as("its server's reader gets the failure, the bytes dropped")
                .startsWith("failed by the server to make room");
        assertThat(memory.budget().used()).isEqualTo(110 * KIB + FrameAssembler.HEADER_BYTES);
    }

    /** {@code count} frames of {@code size} bytes each behind their 4-byte lengths, as a client uploads them. */
    private static ByteBuf frames(int count, int size) {
        ByteBuf bytes = Unpooled.directBuffer(count * (size + 4));
        for (int i = 0; i < count; i++) {
            bytes.writeInt(size).writeZero(size);
        }
        return bytes;
    }

    /**
     * The rest of hostile18 H2: the frames a server's end had assembled from the uploads and its program had not read
     * (up to {@code sessionj.http.streamBytes} per connection, on top of the stream) were charged to no budget, so
     * connections whose programs did not read held that much each beyond {@code sessionj.http.bufferedBytes}. Now
     * they are charged, counted as the connection's, and dropped with it when it is failed to make room.
     */
    @Test
    void framesAssembledAndNotReadAreChargedAndDroppedWithTheirConnection() throws Exception {
        StreamMemory memory = new StreamMemory(1024 * KIB);
        memory.register(table);
        HttpSettings settings = new HttpSettings(2_000, 256 * KIB, 1 << 20, 1 << 20, 60_000, false, 16 << 20);
        Half slow = half(memory);
        ServedConnection notReading = new ServedConnection("http", slow, settings, "from a slow program", memory.budget());
        Half fast = half(memory);
        ServedConnection reading = new ServedConnection("http", fast, settings, "from a reading program",
                memory.budget());
        try {
            // 800 KiB of frames reach the slow program's end: assembled, acknowledged, waiting for its reader.
            assertThat(slow.in().append(frames(80, 10 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
            assertThat(slow.in().buffered()).as("the stream's bytes were taken into frames").isZero();
            assertThat(memory.budget().used()).as("the frames are charged").isEqualTo(800 * KIB);

            // 300 KiB more for the other connection do not fit: the slow one, holding the most, goes with its frames.
            assertThat(fast.in().append(frames(30, 10 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
            assertThat(memory.failed()).isEqualTo(1);
            assertThat(slow.isDone()).isTrue();
            assertThat(fast.isDone()).isFalse();
            assertThat(memory.budget().used()).as("the slow one's frames were given back").isEqualTo(300 * KIB);
            assertThatThrownBy(() -> notReading.read(0)).isInstanceOf(java.io.IOException.class)
                    .hasMessageContaining("failed by the server to make room").hasMessageContaining("held the most"
                            + " unread (" + 800 * KIB + " bytes");

            for (int i = 0; i < 30; i++) {
                ByteBuf frame = reading.read(TimeUnit.SECONDS.toNanos(10));
                assertThat(frame.readableBytes()).isEqualTo(10 * KIB);
                frame.release();
            }
            assertThat(memory.budget().used()).as("frames read are given back").isZero();
        } finally {
            notReading.close();
            reading.close();
        }
    }

    @Test
    void aConnectionHoldingLessThan64KiBIsNeverFailedToMakeRoom() {
        StreamMemory memory = new StreamMemory(64 * KIB);
        memory.register(table);
        Half a = half(memory);
        Half b = half(memory);
        Half c = half(memory);
        assertThat(a.in().append(bytes(40 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        assertThat(b.in().append(bytes(20 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        assertThat(c.out().appendFrame(bytes(10 * KIB))).isTrue();
        assertThat(memory.failed()).isZero();
        assertThat(a.isDone() || b.isDone() || c.isDone()).isFalse();
    }

    @Test
    void aRelaysBudgetMakesNoRoomAsBefore() {
        Budget relay = new Budget(100 * KIB);
        ByteStream stream = new ByteStream(1 << 20, relay);
        assertThat(stream.append(bytes(90 * KIB), 0, false)).isEqualTo(ByteStream.Append.ACCEPTED);
        ByteBuf more = bytes(20 * KIB);
        assertThat(stream.append(more, 90 * KIB, false)).isEqualTo(ByteStream.Append.BUSY);
        more.release();
    }
}
