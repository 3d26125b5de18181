package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sessionj.types.Payload;

class ValueCodecTest {
    record Pair(String name, List<Integer> values) {
    }

    @Test
    void stringsRoundTripIncludingNullAndNonAscii() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        ValueCodec.writeString(new ByteBufFrame(buf), "snø ☃");
        ValueCodec.writeString(new ByteBufFrame(buf), null);
        ValueCodec.writeString(new ByteBufFrame(buf), "");
        assertThat(ValueCodec.readString(new ByteBufFrame(buf))).isEqualTo("snø ☃");
        assertThat(ValueCodec.readString(new ByteBufFrame(buf))).isNull();
        assertThat(ValueCodec.readString(new ByteBufFrame(buf))).isEmpty();
        assertThat(buf.isReadable()).isFalse();
    }

    @Test
    void everyPrimitiveArrayKindRoundTrips() throws Exception {
        Object[] arrays = {new boolean[] {true, false}, new byte[] {-1, 2}, new short[] {-3}, new char[] {'x'},
            new int[] {Integer.MIN_VALUE, 0}, new long[] {Long.MAX_VALUE}, new float[] {1.5f}, new double[] {-0.0}};
        WireKind[] kinds = {WireKind.BOOLEAN_ARRAY, WireKind.BYTE_ARRAY, WireKind.SHORT_ARRAY, WireKind.CHAR_ARRAY,
            WireKind.INT_ARRAY, WireKind.LONG_ARRAY, WireKind.FLOAT_ARRAY, WireKind.DOUBLE_ARRAY};
        ByteBuf buf = Unpooled.buffer();
        for (int i = 0; i < arrays.length; i++) {
            ValueCodec.writeArray(new ByteBufFrame(buf), kinds[i], arrays[i]);
        }
        ValueCodec.writeArray(new ByteBufFrame(buf), WireKind.INT_ARRAY, null);
        for (int i = 0; i < arrays.length; i++) {
            assertThat(ValueCodec.readArray(new ByteBufFrame(buf), kinds[i])).isEqualTo(arrays[i]);
        }
        assertThat(ValueCodec.readArray(new ByteBufFrame(buf), WireKind.INT_ARRAY)).isNull();
    }

    @Test
    void objectsRoundTripAsTheirDeclaredType() throws Exception {
        var type = SmileCodec.jacksonType(Payload.JavaType.of(Pair.class.getName()), getClass().getClassLoader());
        ByteBuf buf = Unpooled.buffer();
        ValueCodec.writeObject(new ByteBufFrame(buf), SmileCodec.writerFor(type), new Pair("p", List.of(1, 2)));
        buf.writeByte(0x55); // the next item must be left alone
        assertThat(ValueCodec.readObject(new ByteBufFrame(buf), SmileCodec.readerFor(type), "Pair")).isEqualTo(new Pair("p", List.of(1, 2)));
        assertThat(buf.readByte()).isEqualTo((byte) 0x55);
    }

    @Test
    void lengthsBeyondTheFrameAreRejected() {
        ByteBuf buf = Unpooled.buffer().writeInt(10).writeByte(1);
        assertThatThrownBy(() -> ValueCodec.readString(new ByteBufFrame(buf))).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("length 10");
        ByteBuf array = Unpooled.buffer().writeInt(3).writeInt(1);
        assertThatThrownBy(() -> ValueCodec.readArray(new ByteBufFrame(array), WireKind.INT_ARRAY))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("int[]");
        ByteBuf negative = Unpooled.buffer().writeInt(-5);
        assertThatThrownBy(() -> ValueCodec.readArray(new ByteBufFrame(negative), WireKind.BYTE_ARRAY))
                .isInstanceOf(MalformedInputException.class);
        ByteBuf tooShort = Unpooled.buffer().writeShort(1);
        assertThatThrownBy(() -> ValueCodec.readString(new ByteBufFrame(tooShort))).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("truncated");
    }

    @Test
    void smileWithTrailingDataOrTheWrongShapeIsRejected() throws Exception {
        var pair = SmileCodec.jacksonType(Payload.JavaType.of(Pair.class.getName()), getClass().getClassLoader());
        var integer = SmileCodec.jacksonType(Payload.JavaType.of("java.lang.Integer"), getClass().getClassLoader());
        ByteBuf buf = Unpooled.buffer();
        ValueCodec.writeObject(new ByteBufFrame(buf), SmileCodec.writerFor(integer), 7);
        assertThatThrownBy(() -> ValueCodec.readObject(new ByteBufFrame(buf), SmileCodec.readerFor(pair), "Pair"))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("could not decode a Pair");
    }

    /** SJ encodes text itself (not through Netty's ByteBufUtil); the bytes must be what Netty wrote before. */
    @Test
    void textIsTheSameUtf8AsNettysForAsciiNonAsciiAndUnpairedSurrogates() throws Exception {
        String[] texts = {"", "cbegin.!<int>.?(int)", "snø ☃", "\uD83D\uDE00 emoji", "lone \uD800 high", "lone \uDC00 low",
            "x".repeat(300)};
        for (String text : texts) {
            for (ByteBuf buf : new ByteBuf[] {Unpooled.buffer(1), Unpooled.directBuffer(1),
                Unpooled.buffer(64).writerIndex(7).readerIndex(7)}) {
                ByteBuf netty = Unpooled.buffer();
                netty.writeCharSequence(text, java.nio.charset.StandardCharsets.UTF_8);
                int start = buf.writerIndex();
                assertThat(ValueCodec.writeUtf8(new ByteBufFrame(buf), text)).as(text).isEqualTo(netty.readableBytes());
                assertThat(ByteBufUtilCompare.bytes(buf, start)).as(text).isEqualTo(ByteBufUtilCompare.bytes(netty, 0));
                String expected = netty.readCharSequence(netty.readableBytes(), java.nio.charset.StandardCharsets.UTF_8).toString();
                assertThat(ValueCodec.readUtf8(new ByteBufFrame(buf), buf.readableBytes())).isEqualTo(expected);
                assertThat(buf.isReadable()).isFalse();
            }
        }
    }

    /**
     * hostile H7: bytes that are not UTF-8 are refused, naming the byte, where they became U+FFFD and the
     * session went on; a U+FFFD the peer really sent (EF BF BD) is text like any other.
     */
    @Test
    void malformedUtf8IsRefusedAndARealReplacementCharacterIsRead() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        ValueCodec.writeShortString(new ByteBufFrame(buf), "ok");
        buf.setByte(3, 0xff); // "o\xff"
        assertThatThrownBy(() -> ValueCodec.readShortString(new ByteBufFrame(buf)))
                .isInstanceOf(MalformedInputException.class)
                .hasMessage("text that is not UTF-8: byte 1 of 2 (0xFF) starts no UTF-8 character");
        for (ByteBuf raw : new ByteBuf[] {Unpooled.buffer(), Unpooled.directBuffer()}) {
            raw.writeInt(4).writeBytes(new byte[] {(byte) 0xFE, (byte) 0xC0, (byte) 0x80, 'a'}); // the finding's bytes
            assertThatThrownBy(() -> ValueCodec.readString(new ByteBufFrame(raw))).isInstanceOf(MalformedInputException.class)
                    .hasMessageContaining("byte 0 of 4 (0xFE)");
        }
        ByteBuf overlong = Unpooled.buffer().writeInt(3).writeBytes(new byte[] {'a', (byte) 0xC0, (byte) 0x80}); // NUL, overlong
        assertThatThrownBy(() -> ValueCodec.readString(new ByteBufFrame(overlong))).hasMessageContaining("byte 1 of 3");
        ByteBuf real = Unpooled.buffer();
        ValueCodec.writeString(new ByteBufFrame(real), "a\uFFFDb");
        assertThat(ValueCodec.readString(new ByteBufFrame(real))).isEqualTo("a\uFFFDb");
    }

    /** The written bytes of a buffer from {@code start}. */
    private static final class ByteBufUtilCompare {
        static byte[] bytes(ByteBuf buf, int start) {
            byte[] bytes = new byte[buf.writerIndex() - start];
            buf.getBytes(start, bytes);
            return bytes;
        }
    }
}
