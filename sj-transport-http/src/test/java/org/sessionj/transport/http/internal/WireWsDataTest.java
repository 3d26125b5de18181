package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** {@link Wire#wsData}: the payload of a WebSocket data message, its bytes and who owns them. */
class WireWsDataTest {
    private static ByteBuf bytes(int length) {
        ByteBuf b = Unpooled.buffer(length);
        for (int i = 0; i < length; i++) {
            b.writeByte(i * 7);
        }
        return b;
    }

    private static byte[] expected(int length) {
        byte[] e = new byte[1 + length];
        e[0] = Wire.WS_DATA;
        for (int i = 0; i < length; i++) {
            e[1 + i] = (byte) (i * 7);
        }
        return e;
    }

    @Test
    void aSmallPayloadIsCopiedBehindItsKindIntoOneBufferAndTheSourceReleased() {
        ByteBuf source = bytes(Wire.WS_COPY_LIMIT);
        ByteBuf message = Wire.wsData(PooledByteBufAllocator.DEFAULT, source);
        try {
            assertThat(message).isNotInstanceOf(CompositeByteBuf.class);
            assertThat(ByteBufUtil.getBytes(message)).isEqualTo(expected(Wire.WS_COPY_LIMIT));
            assertThat(source.refCnt()).isZero();
        } finally {
            message.release();
        }
    }

    @Test
    void aSmallPayloadStartsAtItsReaderIndex() {
        ByteBuf source = Unpooled.buffer().writeBytes(new byte[] {9, 9, 1, 2, 3});
        source.skipBytes(2);
        ByteBuf message = Wire.wsData(PooledByteBufAllocator.DEFAULT, source);
        try {
            assertThat(ByteBufUtil.getBytes(message)).containsExactly(Wire.WS_DATA, 1, 2, 3);
        } finally {
            message.release();
        }
    }

    @Test
    void aLargePayloadTravelsAsItIsAndIsReleasedWithTheMessage() {
        ByteBuf source = bytes(Wire.WS_COPY_LIMIT + 1);
        ByteBuf message = Wire.wsData(PooledByteBufAllocator.DEFAULT, source);
        assertThat(source.refCnt()).as("not copied: the message holds the source").isEqualTo(1);
        assertThat(ByteBufUtil.getBytes(message)).isEqualTo(expected(Wire.WS_COPY_LIMIT + 1));
        message.release();
        assertThat(source.refCnt()).isZero();
    }

    @Test
    void theSharedKindByteSurvivesEveryLargeMessageReleased() {
        for (int i = 0; i < 5; i++) {
            ByteBuf message = Wire.wsData(PooledByteBufAllocator.DEFAULT, bytes(Wire.WS_COPY_LIMIT + 10));
            assertThat(message.getByte(message.readerIndex())).isEqualTo(Wire.WS_DATA);
            message.release();
        }
    }
}
