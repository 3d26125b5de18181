package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * hostile18 H5, H6, H7: Smile bytes a correct sender never writes, fed to the receiver's own codec as the
 * attack scripts did. Text that is not UTF-8 (values and keys, every length form), a decimal whose scale asks
 * for 100,001 digits, a time out of its type's range and a value of another kind are refused with the path,
 * the limit and the setting; real values, up to the limits, decode as before.
 */
class HostileSmileTest {
    /** The Smile header without shared names or values (flags 0), as a hand-written peer sends it. */
    private static final byte[] HEADER = {':', ')', '\n', 0};

    /** A message with a text component, a list of them and a lease, as a protocol declares them. */
    public record Note(String text, List<Note> replies, Duration lease) {
    }

    private static byte[] smile(int... bytes) {
        byte[] out = new byte[HEADER.length + bytes.length];
        System.arraycopy(HEADER, 0, out, 0, HEADER.length);
        for (int i = 0; i < bytes.length; i++) {
            out[HEADER.length + i] = (byte) bytes[i];
        }
        return out;
    }

    private interface Writes {
        void write(SmileGenerator out) throws Exception;
    }

    /** What a peer's own Smile generator writes (Jackson's defaults: shared keys, no shared strings). */
    private static byte[] generated(boolean sharedValues, Writes writes) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SmileFactory factory = SmileFactory.builder()
                .configure(SmileGenerator.Feature.CHECK_SHARED_STRING_VALUES, sharedValues).build();
        try (SmileGenerator out = factory.createGenerator(bytes)) {
            writes.write(out);
        }
        return bytes.toByteArray();
    }

    private static Object decode(byte[] smile, JavaType type) throws MalformedInputException {
        var buf = Unpooled.buffer(smile.length + 4);
        buf.writeInt(smile.length).writeBytes(smile);
        return ValueCodec.readObject(new ByteBufFrame(buf), SmileCodec.readerFor(type), type.getRawClass().getSimpleName());
    }

    private static Object decode(byte[] smile, Class<?> type) throws MalformedInputException {
        return decode(smile, SmileCodec.jacksonType(type));
    }

    private static Object roundTrip(Object value, JavaType type) throws Exception {
        var buf = Unpooled.buffer();
        ValueCodec.writeObject(new ByteBufFrame(buf), SmileCodec.writerFor(type), value);
        return ValueCodec.readObject(new ByteBufFrame(buf), SmileCodec.readerFor(type), "value");
    }

    private static JavaType listOf(Class<?> element) {
        return SmileCodec.readerFor(SmileCodec.jacksonType(Object.class)).getTypeFactory()
                .constructCollectionType(List.class, element);
    }

    // ---- H5: text that is not UTF-8

    @Test
    void stringValuesThatAreNotUtf8AreRefusedInEveryForm() {
        int[][] hostile = {
            {0x42, 'a', 0xFF, 'b'}, // tiny ASCII with FF (was U+FFFD)
            {0x81, 0xC3, 0x28, 0x41}, // tiny Unicode: a lead byte without its continuation (was "èA")
            {0x80, 0xC0, 0x80}, // an overlong NUL (was U+0000)
            {0x81, 0xED, 0xA0, 0x80}, // a surrogate (was a lone U+D800)
            {0x82, 0xF4, 0x90, 0x80, 0x80}, // past U+10FFFF
            {0xE0, 'a', 'b', 0x80, 0xFC}, // long ASCII with a byte past ASCII
            {0xE4, 'a', 0xE0, 0x80, 0x80, 0xFC}, // long Unicode with an overlong form
        };
        for (int[] value : hostile) {
            assertThatThrownBy(() -> decode(smile(value), String.class)).as(java.util.Arrays.toString(value))
                    .isInstanceOf(MalformedInputException.class)
                    .hasMessageStartingWith("could not decode a String from the peer's message: text that is not UTF-8: byte ");
        }
        assertThatThrownBy(() -> decode(smile(0x42, 'a', 0xFF, 'b'), String.class))
                .hasMessage("could not decode a String from the peer's message: text that is not UTF-8: byte 1 of 3 (0xFF) "
                        + "starts no UTF-8 character in text marked ASCII");
    }

    @Test
    void keysThatAreNotUtf8AreRefusedAndAValuesPathIsNamed() {
        // {"t\xFFxt": "a"}: a short ASCII key with FF
        assertThatThrownBy(() -> decode(smile(0xFA, 0x83, 't', 0xFF, 'x', 't', 0x40, 'a', 0xFB), Map.class))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("text that is not UTF-8: byte 1 of 4");
        // a short Unicode key with an overlong NUL, and a long Unicode key (0x34) with a surrogate
        assertThatThrownBy(() -> decode(smile(0xFA, 0xC0, 0xC0, 0x80, 0x40, 'a', 0xFB), Map.class))
                .hasMessageContaining("text that is not UTF-8: byte 0 of 2 (0xC080)");
        assertThatThrownBy(() -> decode(smile(0xFA, 0x34, 'k', 0xED, 0xB0, 0x80, 0xFC, 0x40, 'a', 0xFB), Map.class))
                .hasMessageContaining("text that is not UTF-8: byte 1 of 4 (0xEDB080)");
        // {"replies": [{"text": "a\xFFb"}]}: the path to the part, though the mapper reads a value before its property
        byte[] nested = smile(0xFA, 0x86, 'r', 'e', 'p', 'l', 'i', 'e', 's', 0xF8, 0xFA, 0x83, 't', 'e', 'x', 't',
                0x42, 'a', 0xFF, 'b', 0xFB, 0xF9, 0xFB);
        assertThatThrownBy(() -> decode(nested, Note.class)).isInstanceOf(MalformedInputException.class)
                .hasMessage("could not decode a Note from the peer's message: at .replies[0].text: text that is not "
                        + "UTF-8: byte 1 of 3 (0xFF) starts no UTF-8 character in text marked ASCII");
    }

    @Test
    void textRefusedWhenTheHeaderAsksForSharedStringsAndInAValueNobodyReads() {
        // flags 0x03: shared keys and shared string values (the parser decodes each string value at once)
        byte[] shared = {':', ')', '\n', 0x03, (byte) 0xF8, 0x42, 'a', (byte) 0xFF, 'b', 0x01, (byte) 0xF9};
        assertThatThrownBy(() -> decode(shared, listOf(String.class))).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("at [0]: text that is not UTF-8");
        // an Object reads every part; a Note's unknown property is refused anyway; the text is refused first
        assertThatThrownBy(() -> decode(smile(0xF8, 0x40, 'a', 0x81, 0xED, 0xA0, 0x80, 0xF9), Object.class))
                .hasMessageContaining("at [1]: text that is not UTF-8");
    }

    @Test
    void realTextOfEveryFormAndReferencesDecodeUnchanged() throws Exception {
        List<String> texts = List.of("", "a", "\u0000", "\uFFFD", "x".repeat(32), "y".repeat(33), "z".repeat(64),
                "w".repeat(65), "l".repeat(10_000), "é", "日本語".repeat(11), "\uD83D\uDE00 emoji", "é".repeat(5_000),
                "\uFFFD".repeat(40));
        for (boolean sharedValues : new boolean[] {false, true}) {
            List<String> twice = new ArrayList<>(texts);
            twice.addAll(texts); // back-references where the header allows them
            byte[] bytes = generated(sharedValues, out -> {
                out.writeStartArray();
                for (String text : twice) {
                    out.writeString(text);
                }
                out.writeEndArray();
            });
            assertThat(decode(bytes, listOf(String.class))).isEqualTo(twice);
        }
        Map<String, Object> keys = new LinkedHashMap<>();
        for (String key : List.of("k", "ключ", "k".repeat(64), "k".repeat(65), "ключ".repeat(30), "\uD83D\uDE00")) {
            keys.put(key, List.of(Map.of(key, 1), Map.of(key, 2))); // the same key again: a back-reference
        }
        assertThat(roundTrip(keys, SmileCodec.jacksonType(Map.class))).isEqualTo(keys);
        Note note = new Note("é\u0000\uFFFD", List.of(new Note("b".repeat(100), List.of(), null)), Duration.ofSeconds(5));
        assertThat(roundTrip(note, SmileCodec.jacksonType(Note.class))).isEqualTo(note);
    }

    // ---- a key twice in one object (hostile H7 of the seventeenth pass), now refused by the checked parser

    @Test
    void aKeyTwiceInOneObjectIsRefusedAtAnyDepthAndSize() throws Exception {
        byte[] small = generated(false, out -> {
            out.writeStartObject();
            out.writeNumberField("k", 1);
            out.writeNumberField("k", 2);
            out.writeEndObject();
        });
        assertThatThrownBy(() -> decode(small, Map.class)).isInstanceOf(MalformedInputException.class)
                .hasMessage("could not decode a Map from the peer's message: Duplicate field 'k': a key twice in one object");
        byte[] large = generated(false, out -> { // past the keys compared one by one: a set
            out.writeStartObject();
            for (int i = 0; i < 40; i++) {
                out.writeNumberField("k" + i, i);
            }
            out.writeNumberField("k31", 0);
            out.writeEndObject();
        });
        assertThatThrownBy(() -> decode(large, Map.class)).hasMessageContaining("Duplicate field 'k31'");
        byte[] nested = generated(false, out -> { // {"text":"a","replies":[{"text":"b"},{"text":"c","text":"d"}]}
            out.writeStartObject();
            out.writeStringField("text", "a");
            out.writeArrayFieldStart("replies");
            out.writeStartObject();
            out.writeStringField("text", "b");
            out.writeEndObject();
            out.writeStartObject();
            out.writeStringField("text", "c");
            out.writeStringField("text", "d");
            out.writeEndObject();
            out.writeEndArray();
            out.writeEndObject();
        });
        assertThatThrownBy(() -> decode(nested, Note.class)).hasMessageContaining("at .replies[1]: Duplicate field 'text'");
        byte[] afterInner = generated(false, out -> { // {"a":{"b":1},"a":2}
            out.writeStartObject();
            out.writeObjectFieldStart("a");
            out.writeNumberField("b", 1);
            out.writeEndObject();
            out.writeNumberField("a", 2);
            out.writeEndObject();
        });
        assertThatThrownBy(() -> decode(afterInner, Map.class)).hasMessageContaining("Duplicate field 'a'");
        byte[] setAfterInner = generated(false, out -> { // an object past the one-by-one keys, objects inside it
            out.writeStartObject();
            for (int i = 0; i < 10; i++) {
                out.writeNumberField("k" + i, i);
            }
            out.writeArrayFieldStart("l");
            for (int j = 0; j < 3; j++) {
                out.writeStartObject();
                for (int i = 0; i < 12; i++) {
                    out.writeNumberField("k" + i, i);
                }
                out.writeEndObject();
            }
            out.writeEndArray();
            out.writeNumberField("k5", 3);
            out.writeEndObject();
        });
        assertThatThrownBy(() -> decode(setAfterInner, Map.class)).hasMessageContaining("Duplicate field 'k5'");
    }

    @Test
    void theSameKeyInDifferentObjectsIsNoDuplicate() throws Exception {
        Map<String, Object> inner = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            inner.put("k" + i, Map.of("k" + i, List.of(Map.of("k" + i, i), Map.of("k" + i, -i))));
        }
        Map<String, Object> value = new LinkedHashMap<>(inner);
        value.put("inner", inner);
        value.put("list", List.of(inner, inner));
        assertThat(roundTrip(value, SmileCodec.jacksonType(Map.class))).isEqualTo(value);
        Map<String, Integer> many = new LinkedHashMap<>();
        for (int i = 0; i < 10_000; i++) {
            many.put("key" + i, i);
        }
        assertThat(roundTrip(many, SmileCodec.jacksonType(Map.class))).isEqualTo(many);
    }

    // ---- H6: a decimal of a huge scale

    @Test
    void aBigIntegerFromAHugeExponentIsRefusedBeforeItExists() throws Exception {
        // the attack: 2,000 values k·1E+100000 (14 KB) as List<BigInteger>; before, 4.1 s of CPU and 8.4 GB allocated
        byte[] attack = generated(false, out -> {
            out.writeStartArray();
            for (int i = 0; i < 2000; i++) {
                out.writeNumber(new BigDecimal(BigInteger.valueOf(1 + i % 7), -100_000));
            }
            out.writeEndArray();
        });
        assertThatThrownBy(() -> decode(attack, listOf(BigInteger.class))).isInstanceOf(MalformedInputException.class)
                .hasMessage("could not decode a List from the peer's message: at [0]: the peer's value holds a decimal "
                        + "number of scale -100000 (an integer of more than 100000 digits), beyond the 10000 either way "
                        + "this receiver decodes (sessionj.codec.maxNumberScale)");
        // within the scale limit, an integral type still takes no decimal: the protocol says BigInteger
        byte[] small = generated(false, out -> out.writeNumber(new BigDecimal("1E+5")));
        assertThatThrownBy(() -> decode(small, BigInteger.class))
                .hasMessageEndingWith("the peer sent a floating-point value (1E+5) where the protocol says BigInteger: a "
                        + "value is read as its declared type, never converted from another kind");
        for (Class<?> type : new Class<?>[] {BigDecimal.class, Object.class, Double.class, Number.class}) {
            byte[] tiny = generated(false, out -> out.writeNumber(new BigDecimal(BigInteger.ONE, 1_000_000_000)));
            assertThatThrownBy(() -> decode(tiny, type)).as(type.getName())
                    .hasMessageContaining("scale 1000000000 (more than 1000000000 digits after the point)");
        }
    }

    @Test
    void numbersAtTheLimitsDecode() throws Exception {
        for (BigDecimal value : List.of(new BigDecimal(BigInteger.ONE, -10_000), new BigDecimal(BigInteger.TEN, 10_000),
                new BigDecimal("-123.456"), new BigDecimal(BigInteger.ONE.shiftLeft(7_900), 10_000))) {
            assertThat(roundTrip(value, SmileCodec.jacksonType(BigDecimal.class))).isEqualTo(value);
        }
        BigInteger big = BigInteger.ONE.shiftLeft(7_990).subtract(BigInteger.ONE); // 999 bytes: within 1000
        assertThat(roundTrip(big, SmileCodec.jacksonType(BigInteger.class))).isEqualTo(big);
        byte[] over = generated(false, out -> out.writeNumber(new BigDecimal(BigInteger.ONE, -10_001)));
        assertThatThrownBy(() -> decode(over, BigDecimal.class)).hasMessageContaining("scale -10001");
    }

    @Test
    void theScaleLimitFollowsItsSetting() {
        Properties p = new Properties();
        assertThat(DecodeLimits.maxNumberScale(SystemSettings.of(p))).isEqualTo(10_000);
        p.setProperty("sessionj.codec.maxNumberScale", "200000");
        assertThat(DecodeLimits.maxNumberScale(SystemSettings.of(p))).isEqualTo(200_000);
        p.setProperty("sessionj.codec.maxNumberScale", "0");
        assertThatThrownBy(() -> DecodeLimits.maxNumberScale(SystemSettings.of(p)))
                .hasMessageContaining("sessionj.codec.maxNumberScale");
    }

    // ---- H7: a time out of range, a value of another kind

    @Test
    void aTimeOutOfItsRangeIsRefusedNotWrapped() throws Exception {
        record Case(Class<?> type, String seconds, String says) {
        }
        for (Case c : List.of(new Case(Duration.class, "1E+19", "1E+19 seconds is out of the range of Duration"),
                new Case(Duration.class, "9.99E+18", "9.99E+18 seconds is out of the range of Duration"),
                new Case(Duration.class, "1E+1000", "1E+1000 seconds is out of the range of Duration"),
                new Case(Instant.class, "1E+1000", "1E+1000 seconds is out of the range of Instant"),
                new Case(Instant.class, "-1E+30", "-1E+30 seconds is out of the range of Instant"),
                new Case(Duration.class, "1.0000000001", "has digits past the nanosecond"))) {
            byte[] bytes = generated(false, out -> out.writeNumber(new BigDecimal(c.seconds())));
            assertThatThrownBy(() -> decode(bytes, c.type())).as(c.toString()).isInstanceOf(MalformedInputException.class)
                    .hasMessageContaining(c.says());
        }
        byte[] lease = generated(false, out -> {
            out.writeStartObject();
            out.writeFieldName("lease");
            out.writeNumber(new BigDecimal("1E+19"));
            out.writeEndObject();
        });
        assertThatThrownBy(() -> decode(lease, Note.class)).hasMessageContaining("at .lease: 1E+19 seconds is out of");
        for (Object edge : List.of(Instant.MAX, Instant.MIN, Instant.EPOCH, Duration.ofSeconds(Long.MAX_VALUE, 999_999_999),
                Duration.ofSeconds(-9_000_000_000L, 1), Duration.ofNanos(-1), Duration.ofDays(-365_000))) {
            assertThat(roundTrip(edge, SmileCodec.jacksonType(edge.getClass()))).isEqualTo(edge);
        }
    }

    @Test
    void aValueOfAnotherKindIsRefused() throws Exception {
        record Case(Class<?> type, Writes writes, String sent) {
        }
        for (Case c : List.of(new Case(Integer.class, out -> out.writeNumber(1.9), "a floating-point value (1.9)"),
                new Case(Integer.class, out -> out.writeString("42"), "a string value (\"42\")"),
                new Case(Integer.class, out -> out.writeString(""), "an empty string (\"\")"),
                new Case(Long.class, out -> out.writeNumber(new BigDecimal("4.2E1")), "a floating-point value (42)"),
                new Case(Boolean.class, out -> out.writeNumber(1), "an integer value (1)"),
                new Case(Boolean.class, out -> out.writeString("true"), "a string value (\"true\")"),
                new Case(String.class, out -> out.writeNumber(42), "an integer value (42)"),
                new Case(String.class, out -> out.writeBoolean(true), "a boolean value (true)"),
                new Case(Double.class, out -> out.writeNumber(42), "an integer value (42)"),
                new Case(Character.class, out -> out.writeNumber(65), "an integer value (65)"))) {
            byte[] bytes = generated(false, c.writes());
            assertThatThrownBy(() -> decode(bytes, c.type())).as(c.toString()).isInstanceOf(MalformedInputException.class)
                    .hasMessageContaining("the peer sent " + c.sent() + " where the protocol says "
                            + c.type().getSimpleName() + ": a value is read as its declared type");
        }
        assertThatThrownBy(() -> decode(generated(false, out -> out.writeString("NaN")), Double.class))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("from String value");
        assertThatThrownBy(() -> decode(generated(false, out -> out.writeNumber(0)), TimeUnit.class))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("an enum constant travels as its name");
        for (Object real : List.of(42, 4_200_000_000L, 1.9, Double.NaN, Float.NEGATIVE_INFINITY, true, "42", 'A',
                TimeUnit.DAYS, BigInteger.TEN.pow(500))) {
            assertThat(roundTrip(real, SmileCodec.jacksonType(real.getClass()))).isEqualTo(real);
        }
    }

    /** A message with floating-point arrays and an optional one, as a bean's fields carry them. */
    public record Samples(double[] doubles, float[] floats, java.util.OptionalDouble mean) {
    }

    /**
     * The rest of H7 (codec report19, "Left"): a {@code double[]} or {@code float[]} inside a value, and an
     * {@code OptionalDouble}, read the strings "NaN", "Infinity" and "INF" as numbers (Jackson's readers of them
     * look for those strings before the coercion rules); the scalar types refused them already.
     */
    @Test
    void floatingPointArraysAndOptionalDoubleTakeNumbersOnly() throws Exception {
        for (String text : List.of("NaN", "Infinity", "-Infinity", "INF")) {
            for (String field : List.of("doubles", "floats")) {
                byte[] bytes = generated(false, out -> {
                    out.writeStartObject();
                    out.writeArrayFieldStart(field);
                    out.writeNumber(1.5);
                    out.writeString(text);
                    out.writeEndArray();
                    out.writeEndObject();
                });
                assertThatThrownBy(() -> decode(bytes, Samples.class)).as(field + " " + text)
                        .isInstanceOf(MalformedInputException.class)
                        .hasMessageContaining("from String value")
                        .hasMessageContaining("." + field + "[1]");
            }
            byte[] optional = generated(false, out -> {
                out.writeStartObject();
                out.writeStringField("mean", text);
                out.writeEndObject();
            });
            assertThatThrownBy(() -> decode(optional, Samples.class)).as("mean " + text)
                    .isInstanceOf(MalformedInputException.class).hasMessageContaining(".mean");
        }
        for (Writes other : List.<Writes>of(out -> out.writeNumber(2), out -> out.writeNull(), out -> out.writeBoolean(true))) {
            byte[] bytes = generated(false, out -> {
                out.writeStartObject();
                out.writeArrayFieldStart("doubles");
                other.write(out);
                out.writeEndArray();
                out.writeEndObject();
            });
            assertThatThrownBy(() -> decode(bytes, Samples.class)).isInstanceOf(MalformedInputException.class)
                    .hasMessageContaining(".doubles[0]");
        }
        double[] doubles = new double[40]; // past the array builder's first chunk
        float[] floats = new float[40];
        for (int i = 0; i < doubles.length; i++) {
            doubles[i] = i % 3 == 0 ? Double.NaN : i % 3 == 1 ? Double.NEGATIVE_INFINITY : i * 0.5;
            floats[i] = i % 3 == 0 ? Float.NaN : i % 3 == 1 ? Float.POSITIVE_INFINITY : i * 0.25f;
        }
        Samples back = (Samples) roundTrip(new Samples(doubles, floats, java.util.OptionalDouble.of(Double.NaN)),
                SmileCodec.jacksonType(Samples.class));
        assertThat(back.doubles()).containsExactly(doubles);
        assertThat(back.floats()).containsExactly(floats);
        assertThat(back.mean()).hasValue(Double.NaN);
        Samples empty = (Samples) roundTrip(new Samples(new double[0], null, java.util.OptionalDouble.empty()),
                SmileCodec.jacksonType(Samples.class));
        assertThat(empty.doubles()).isEmpty();
        assertThat(empty.floats()).isNull();
        assertThat(empty.mean()).isEmpty();
    }
}
