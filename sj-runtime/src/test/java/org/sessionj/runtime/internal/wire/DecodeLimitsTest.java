package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * hostile17 H9: a frame within the frame limit bounds the bytes of a Smile value, not the work of decoding
 * it. A value of more tokens than the receiver decodes, or with a number or key past its limit, fails the
 * input in the project's words naming the setting; values within the limits decode as before.
 */
class DecodeLimitsTest {
    private static final ObjectMapper PLAIN = new ObjectMapper(new SmileFactory());
    /** The default: one token per 16 bytes of the default tcp frame limit (16 MiB). */
    private static final int DEFAULT_TOKENS = 1 << 20;

    /** A Smile array of {@code count} small ints (one byte each), as a hostile peer packs tokens. */
    private static byte[] smallInts(int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(count + 8);
        out.writeBytes(new byte[] {0x3A, 0x29, 0x0A, 0x00, (byte) 0xF8});
        for (int i = 0; i < count; i++) {
            out.write(0xC0); // the small int 0
        }
        out.write(0xF9);
        return out.toByteArray();
    }

    private static Object decode(byte[] smile, Class<?> type) throws MalformedInputException {
        var buf = Unpooled.buffer(smile.length + 4);
        buf.writeInt(smile.length).writeBytes(smile);
        return ValueCodec.readObject(new ByteBufFrame(buf), SmileCodec.readerFor(SmileCodec.jacksonType(type)),
                type.getSimpleName());
    }

    @Test
    void aValueOfMoreTokensThanTheLimitIsRefusedNamingTheSetting() {
        // 1.1 MB of tokens: far within the 16 MiB frame; before, it decoded (16 MiB of them as Object: seconds, 460 MB)
        byte[] smile = smallInts(DEFAULT_TOKENS + 10);
        assertThatThrownBy(() -> decode(smile, Object.class)).isInstanceOf(MalformedInputException.class)
                .hasMessage("could not decode a Object from the peer's message: the peer's value holds more than "
                        + DEFAULT_TOKENS + " tokens (values, keys and brackets), the most this receiver decodes in "
                        + "one value (sessionj.codec.maxTokens)");
        assertThatThrownBy(() -> decode(smile, int[].class)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("(sessionj.codec.maxTokens)");
    }

    @Test
    void aValueWithinTheTokenLimitDecodes() throws Exception {
        assertThat((int[]) decode(smallInts(DEFAULT_TOKENS - 2), int[].class)).hasSize(DEFAULT_TOKENS - 2);
        assertThat(decode(PLAIN.writeValueAsBytes(Map.of("k", List.of(1, 2, 3))), Object.class))
                .isEqualTo(Map.of("k", List.of(1, 2, 3)));
    }

    @Test
    void aHugeNumberOrKeyIsRefusedNamingTheSetting() throws Exception {
        byte[] number = PLAIN.writeValueAsBytes(BigInteger.ONE.shiftLeft(80_000));
        assertThatThrownBy(() -> decode(number, BigInteger.class)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("the peer's value holds a number longer than the 1000 digits or bytes this "
                        + "receiver decodes (sessionj.codec.maxNumberLength)");
        byte[] key = PLAIN.writeValueAsBytes(Map.of("k".repeat(60_000), 1));
        assertThatThrownBy(() -> decode(key, Map.class)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("the peer's value holds a key longer than the 50000 characters this receiver "
                        + "decodes (sessionj.codec.maxNameLength)");
    }

    @Test
    void theLimitsFollowTheSettingsAndTheFrameLimit() {
        Properties p = new Properties();
        StreamReadConstraints defaults = DecodeLimits.fromSettings(SystemSettings.of(p));
        assertThat(defaults.getMaxTokenCount()).isEqualTo(DEFAULT_TOKENS);
        assertThat(defaults.getMaxNestingDepth()).isEqualTo(1000);
        assertThat(defaults.getMaxStringLength()).isEqualTo(Integer.MAX_VALUE); // the frame bounds strings
        p.setProperty("sessionj.tcp.maxFrameBytes", Integer.toString(64 << 20));
        assertThat(DecodeLimits.fromSettings(SystemSettings.of(p)).getMaxTokenCount()).isEqualTo(4 << 20);
        p.setProperty("sessionj.codec.maxTokens", "5000000");
        p.setProperty("sessionj.codec.maxNumberLength", "4000");
        p.setProperty("sessionj.codec.maxNameLength", "100000");
        StreamReadConstraints raised = DecodeLimits.fromSettings(SystemSettings.of(p));
        assertThat(raised.getMaxTokenCount()).isEqualTo(5_000_000);
        assertThat(raised.getMaxNumberLength()).isEqualTo(4000);
        assertThat(raised.getMaxNameLength()).isEqualTo(100_000);
        p.setProperty("sessionj.codec.maxTokens", "0");
        assertThatThrownBy(() -> DecodeLimits.fromSettings(SystemSettings.of(p)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionj.codec.maxTokens");
    }
}
