package org.sessionj.runtime.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.internal.wire.RecordCodec;
import org.sessionj.runtime.internal.wire.RecordLayout;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.internal.wire.WireKind;
import org.sessionj.runtime.spi.Frame;

/** The in-JVM heap frame against Netty's buffer: the same bytes, the same values, the same failures. */
class HeapFrameTest {

    record Point(int x, long y, double z, String label) {
    }

    /** Writes the same things to a heap frame and to a Netty buffer: the bytes must be equal. */
    private static byte[][] both(Consumer<Frame> writes) {
        HeapFrame heap = new HeapFrame(1);
        ByteBuf netty = Unpooled.buffer(1);
        writes.accept(heap);
        writes.accept(new ByteBufFrame(netty));
        byte[] fromHeap = new byte[heap.readableBytes()];
        heap.getBytes(heap.readerIndex(), fromHeap);
        byte[] fromNetty = new byte[netty.readableBytes()];
        netty.getBytes(netty.readerIndex(), fromNetty);
        return new byte[][] {fromHeap, fromNetty};
    }

    @Test
    void everyWriteProducesNettysBigEndianBytes() {
        byte[][] bytes = both(f -> f.writeByte(0x1ff).writeBoolean(true).writeBoolean(false).writeShort(-2)
                .writeChar('\u00e9').writeInt(0x01020304).writeInt(-1).writeLong(0x0102030405060708L)
                .writeLong(Long.MIN_VALUE).writeFloat(-1.5f).writeDouble(Math.PI).writeBytes(new byte[] {9, 8, 7}, 1, 2));
        assertThat(bytes[0]).isEqualTo(bytes[1]).hasSize(1 + 1 + 1 + 2 + 2 + 4 + 4 + 8 + 8 + 4 + 8 + 2);
    }

    @Test
    void readsGiveBackWhatWasWritten() {
        HeapFrame f = new HeapFrame(0);
        f.writeByte(-3).writeByte(200).writeBoolean(true).writeShort(-2).writeShort(65535).writeChar('\u00e9')
                .writeInt(Integer.MIN_VALUE).writeLong(-42L).writeFloat(2.5f).writeDouble(-0.0);
        assertThat(f.readByte()).isEqualTo((byte) -3);
        assertThat(f.readUnsignedByte()).isEqualTo((short) 200);
        assertThat(f.readBoolean()).isTrue();
        assertThat(f.readShort()).isEqualTo((short) -2);
        assertThat(f.readUnsignedShort()).isEqualTo(65535);
        assertThat(f.readChar()).isEqualTo('\u00e9');
        assertThat(f.readInt()).isEqualTo(Integer.MIN_VALUE);
        assertThat(f.readLong()).isEqualTo(-42L);
        assertThat(f.readFloat()).isEqualTo(2.5f);
        assertThat(Double.doubleToRawLongBits(f.readDouble())).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(f.isReadable()).isFalse();
    }

    /** Netty's big-endian bytes, at offsets that are not multiples of 4 or 8, read back as Netty wrote them. */
    @Test
    void readsNettysBigEndianBytesAtAnyOffset() {
        io.netty.buffer.ByteBuf netty = Unpooled.buffer().writeByte(1).writeInt(0x01020304).writeLong(0x0102030405060708L)
                .writeByte(2).writeInt(-2).writeLong(Long.MIN_VALUE + 3);
        byte[] wire = new byte[netty.readableBytes()];
        netty.getBytes(0, wire);
        HeapFrame f = HeapFrame.copyOf(wire, 0, wire.length);
        assertThat(f.readByte()).isEqualTo((byte) 1);
        assertThat(f.readInt()).isEqualTo(0x01020304);
        assertThat(f.readLong()).isEqualTo(0x0102030405060708L);
        assertThat(f.readByte()).isEqualTo((byte) 2);
        assertThat(f.getInt(f.readerIndex())).isEqualTo(-2);
        assertThat(f.readInt()).isEqualTo(-2);
        assertThat(f.readLong()).isEqualTo(Long.MIN_VALUE + 3);
    }

    @Test
    void absoluteAccessAndIndexesBehaveAsNettys() {
        HeapFrame f = new HeapFrame(2);
        f.writeInt(0).writeShort(0).writeByte(5);
        f.setInt(0, 0x11223344).setShort(4, 0x5566);
        assertThat(f.getInt(0)).isEqualTo(0x11223344);
        assertThat(f.getByte(6)).isEqualTo((byte) 5);
        byte[] some = new byte[3];
        f.getBytes(4, some);
        assertThat(some).containsExactly(0x55, 0x66, 5);
        int mark = f.writerIndex();
        f.writeLong(1);
        f.writerIndex(mark);
        assertThat(f.readableBytes()).isEqualTo(7);
        f.skipBytes(4).readerIndex(6);
        assertThat(f.readByte()).isEqualTo((byte) 5);
        assertThat(f.hasArray()).isTrue();
        assertThat(f.arrayOffset()).isZero();
        assertThat(f.capacity()).isGreaterThanOrEqualTo(7);
    }

    @Test
    void readingPastTheWrittenBytesThrowsLikeNettyAndMovesNothing() {
        HeapFrame f = new HeapFrame(64);
        f.writeShort(1);
        assertThatThrownBy(f::readInt).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("reading 4 bytes at 0 of a frame of 2");
        assertThatThrownBy(() -> new ByteBufFrame(Unpooled.buffer().writeShort(1)).readInt())
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(f.readerIndex()).isZero();
        assertThatThrownBy(() -> f.getByte(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> f.getInt(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> f.setInt(0, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> f.readerIndex(3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> f.writerIndex(65)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> f.skipBytes(3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> f.readBytes(new byte[3])).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> f.skipBytes(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(f.readShort()).isEqualTo((short) 1);
    }

    @Test
    void bytesMoveBetweenBothKindsOfFrame() {
        HeapFrame heap = new HeapFrame(4);
        heap.writeInt(7).writeInt(8);
        ByteBuf netty = Unpooled.buffer();
        new ByteBufFrame(netty).writeBytes(heap);
        assertThat(heap.isReadable()).isFalse();
        assertThat(netty.readInt()).isEqualTo(7);
        HeapFrame back = new HeapFrame(0);
        back.writeBytes(new ByteBufFrame(netty));
        assertThat(back.readInt()).isEqualTo(8);
        HeapFrame source = HeapFrame.copyOf(new byte[] {1, 2, 3, 4}, 1, 3);
        HeapFrame target = new HeapFrame(0);
        source.readBytes(target, 2);
        assertThat(target.readShort()).isEqualTo((short) 0x0203);
        ByteBuf direct = Unpooled.directBuffer().writeByte(1).writeByte(2);
        new ByteBufFrame(direct).readBytes(target, 2);
        assertThat(target.readShort()).isEqualTo((short) 0x0102);
        assertThat(Frames.toByteBuf(HeapFrame.copyOf(new byte[] {5, 6}, 0, 2)).readShort()).isEqualTo((short) 0x0506);
        assertThat(Frames.copyInto(Unpooled.wrappedBuffer(new byte[] {5, 6}), new HeapFrame(0)).readShort())
                .isEqualTo((short) 0x0506);
    }

    @Test
    void theCodecsWriteTheSameBytesToBothKindsOfFrame() throws Exception {
        RecordLayout layout = RecordLayout.of(Point.class);
        Point[] points = {new Point(1, 2, 3.5, "a"), null, new Point(-1, Long.MAX_VALUE, -0.0, "snø ☃")};
        byte[][] bytes = both(f -> {
            ValueCodec.writeString(f, "cbegin.!<int>.?(int) \uD83D\uDE00");
            ValueCodec.writeShortString(f, "x".repeat(300));
            ValueCodec.writeArray(f, WireKind.DOUBLE_ARRAY, new double[] {1, 2, 3});
            ValueCodec.writeArray(f, WireKind.INT_ARRAY, new int[] {-1, 0, 1});
            RecordCodec.writeArray(f, layout, points);
        });
        assertThat(bytes[0]).isEqualTo(bytes[1]);
        HeapFrame in = HeapFrame.copyOf(bytes[1], 0, bytes[1].length);
        assertThat(ValueCodec.readString(in)).isEqualTo("cbegin.!<int>.?(int) \uD83D\uDE00");
        assertThat(ValueCodec.readShortString(in)).isEqualTo("x".repeat(300));
        assertThat((double[]) ValueCodec.readArray(in, WireKind.DOUBLE_ARRAY)).containsExactly(1, 2, 3);
        assertThat((int[]) ValueCodec.readArray(in, WireKind.INT_ARRAY)).containsExactly(-1, 0, 1);
        assertThat(RecordCodec.readArray(in, layout)).containsExactly((Object[]) points);
        assertThat(in.isReadable()).isFalse();
    }

    @Test
    void aReleasedFrameGoesBackToItsHomeOnceAndALargeOneDoesNot() {
        List<HeapFrame> kept = new ArrayList<>();
        HeapFrame.Home home = released -> kept.add(released);
        HeapFrame f = new HeapFrame(home, 16);
        f.writeLong(1);
        f.release();
        assertThat(kept).containsExactly(f);
        assertThatThrownBy(f::release).isInstanceOf(IllegalStateException.class).hasMessageContaining("twice");
        assertThat(f.reuse().readableBytes()).isZero();
        f.release();
        assertThat(kept).hasSize(2);
        HeapFrame big = new HeapFrame(home, 16);
        big.ensureWritable(HeapFrame.MAX_RECYCLED + 1);
        big.release();
        assertThat(kept).hasSize(2);
        new HeapFrame(16).release(); // no home: left to the garbage collector
        assertThatThrownBy(() -> new HeapFrame(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
