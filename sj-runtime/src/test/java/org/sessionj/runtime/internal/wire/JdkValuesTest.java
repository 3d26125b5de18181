package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import io.netty.buffer.Unpooled;
import java.sql.Timestamp;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sessionj.runtime.spi.support.ByteBufFrame;

/**
 * adv15 A22, A23 at the codec: the JDK values whose Jackson defaults changed them round-trip equal
 * through the codec twice (what a receiver reads is what it sends on); a hostile peer's encodings of them
 * are refused with a reason; text UTF-8 cannot carry and a null map key are refused in the project's words.
 */
class JdkValuesTest {
    private static Timestamp stamp(long millis, int nanos) {
        Timestamp stamp = new Timestamp(millis);
        stamp.setNanos(nanos);
        return stamp;
    }

    static Stream<Object> values() {
        return Stream.of(OffsetDateTime.of(2026, 11, 29, 4, 0, 0, 123_456_789, ZoneOffset.ofHours(2)),
                OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 1, ZoneOffset.ofHoursMinutes(-9, -30)),
                ZonedDateTime.of(2026, 11, 29, 4, 0, 0, 5, ZoneId.of("Europe/Paris")),
                ZonedDateTime.of(2026, 3, 29, 2, 30, 0, 0, ZoneId.of("Europe/Paris")), // in the spring gap
                ZonedDateTime.of(2026, 7, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                ZonedDateTime.of(2026, 7, 1, 0, 0, 0, 0, ZoneId.of("UTC")),
                stamp(1_764_000_000_000L, 123_456_789), stamp(-1_000L, 999_999_999), stamp(0, 0),
                OffsetTime.of(1, 2, 3, 4, ZoneOffset.ofHours(-3)), LocalTime.of(4, 0, 0, 123_456_789),
                Pattern.compile("a+b", Pattern.CASE_INSENSITIVE | Pattern.MULTILINE | Pattern.COMMENTS),
                Pattern.compile("^x$"));
    }

    private static Object roundTrip(Object value) throws Exception {
        JavaType type = SmileCodec.jacksonType(value.getClass());
        return SmileCodec.readerFor(type).readValue(SmileCodec.writerFor(type).writeValueAsBytes(value));
    }

    private static Object comparable(Object value) {
        return value instanceof Pattern p ? p.pattern() + "/" + p.flags() : value;
    }

    @ParameterizedTest
    @MethodSource("values")
    void aJdkValueArrivesEqualAfterOneHopAndAfterTwo(Object value) throws Exception {
        Object once = roundTrip(value);
        assertThat(comparable(once)).isEqualTo(comparable(value));
        assertThat(comparable(roundTrip(once))).isEqualTo(comparable(value));
        if (value instanceof ZonedDateTime zoned) {
            assertThat(((ZonedDateTime) once).getZone()).isEqualTo(zoned.getZone());
        }
    }

    private static final ObjectMapper PLAIN = new ObjectMapper(new SmileFactory());

    private static Object read(Class<?> type, Object hostile) throws Exception {
        return SmileCodec.readerFor(SmileCodec.jacksonType(type)).readValue(PLAIN.writeValueAsBytes(hostile));
    }

    /** A peer's encodings that are not the codec's: refused with a reason, never a Pattern with unknown flags. */
    @Test
    void aHostilePeersPatternOrTimestampIsRefused() {
        assertThatThrownBy(() -> read(Pattern.class, List.of("a", 1 << 30))).isInstanceOf(JsonMappingException.class)
                .hasMessageContaining("not a pattern with flags 1073741824");
        assertThatThrownBy(() -> read(Pattern.class, List.of("(", 0))).isInstanceOf(JsonMappingException.class)
                .hasMessageContaining("not a pattern with flags 0");
        assertThatThrownBy(() -> read(Pattern.class, "a+")).isInstanceOf(JsonMappingException.class);
        assertThatThrownBy(() -> read(Pattern.class, List.of("a", 0, 1))).isInstanceOf(JsonMappingException.class);
        assertThatThrownBy(() -> read(Timestamp.class, "yesterday")).isInstanceOf(JsonMappingException.class)
                .hasMessageContaining("not an ISO-8601 instant");
        assertThatThrownBy(() -> read(Timestamp.class, 5)).isInstanceOf(JsonMappingException.class);
    }

    /** adv16 A15: a ZonedDateTime or OffsetDateTime map key keeps its zone and offset (it lost the zone). */
    @Test
    void dateKeysKeepTheirZoneAndOffset() throws Exception {
        ZonedDateTime paris = ZonedDateTime.of(2026, 11, 29, 6, 0, 0, 7, ZoneId.of("Europe/Paris"));
        OffsetDateTime at = OffsetDateTime.of(2026, 11, 29, 6, 0, 0, 7, ZoneOffset.ofHours(-5));
        JavaType zoned = SmileCodec.readerFor(SmileCodec.jacksonType(Object.class)).getTypeFactory()
                .constructMapType(HashMap.class, ZonedDateTime.class, String.class);
        JavaType offset = SmileCodec.readerFor(SmileCodec.jacksonType(Object.class)).getTypeFactory()
                .constructMapType(HashMap.class, OffsetDateTime.class, String.class);
        Map<ZonedDateTime, String> zones = new HashMap<>(Map.of(paris, "z"));
        Map<OffsetDateTime, String> offsets = new HashMap<>(Map.of(at, "o"));
        assertThat((Map<?, ?>) SmileCodec.readerFor(zoned).readValue(SmileCodec.writerFor(zoned).writeValueAsBytes(zones)))
                .isEqualTo(zones);
        assertThat((Map<?, ?>) SmileCodec.readerFor(offset).readValue(SmileCodec.writerFor(offset)
                .writeValueAsBytes(offsets))).isEqualTo(offsets);
    }

    /**
     * A type whose decoding runs out of memory (as 3,000,000 empty arrays in 6 MB did, adv16 H1: Jackson's
     * decoder of untyped lists lets the Error through, as this decoder does).
     */
    @com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = Greedy.Decoder.class)
    public static final class Greedy {
        static final class Decoder extends com.fasterxml.jackson.databind.JsonDeserializer<Greedy> {
            @Override
            public Greedy deserialize(com.fasterxml.jackson.core.JsonParser in,
                    com.fasterxml.jackson.databind.DeserializationContext context) {
                throw new OutOfMemoryError("simulated: Java heap space");
            }
        }
    }

    /** adv16 H1: the decoding's OutOfMemoryError fails the input with a reason, never a raw Error out of receive. */
    @Test
    void aDecodingThatRunsOutOfMemoryFailsTheInputWithAReason() throws Exception {
        byte[] smile = PLAIN.writeValueAsBytes(Map.of("n", 1));
        var buf = Unpooled.buffer();
        buf.writeInt(smile.length).writeBytes(smile);
        assertThatThrownBy(() -> ValueCodec.readObject(new ByteBufFrame(buf),
                SmileCodec.readerFor(SmileCodec.jacksonType(Greedy.class)), "Greedy"))
                .isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("could not decode a Greedy from the peer's message of " + smile.length
                        + " bytes: decoding it needs more memory than this JVM has");
    }

    /** A date that does not parse is the peer's fault, not the program's code: said so, in the codec's words. */
    @Test
    void aHostileDateIsNotBlamedOnTheProgramsCode() {
        assertThatThrownBy(() -> read(OffsetDateTime.class, "not a date")).isInstanceOf(JsonMappingException.class)
                .satisfies(e -> assertThat(CodecFailures.describe(e)).doesNotContain("own code")
                        .contains("not a date"));
    }

    /** adv15 A22: a lone surrogate became '?' in a String message and a flat record's text. */
    @Test
    void messageTextWithAnUnpairedSurrogateIsRefusedAndNothingIsWritten() {
        for (String text : new String[] {"x\uD800y", "\uDC00", "ab\uD83D", "é\uDE00"}) {
            var buf = Unpooled.buffer();
            assertThatThrownBy(() -> ValueCodec.writeText(new ByteBufFrame(buf), text)).as(text)
                    .isInstanceOf(UnencodableValueException.class)
                    .hasMessageContaining("a String holds an unpaired surrogate (U+");
        }
        var buf = Unpooled.buffer();
        ValueCodec.writeText(new ByteBufFrame(buf), "pair \uD83D\uDE00 é ascii");
        assertThat(buf.readableBytes()).isPositive();
    }

    public record Holder(Map<String, Integer> counts) {
    }

    /** adv15 A23: Jackson's words ("… in JSON (use a converting NullKeySerializer?)") become the project's. */
    @Test
    void aNullMapKeyIsRefusedWithThePathInTheProjectsWords() {
        Map<String, Integer> counts = new HashMap<>();
        counts.put(null, 1);
        JavaType type = SmileCodec.jacksonType(Holder.class);
        assertThatThrownBy(() -> SmileCodec.writerFor(type).writeValueAsBytes(new Holder(counts)))
                .isInstanceOf(JsonMappingException.class)
                .satisfies(e -> assertThat(CodecFailures.describe(e)).isEqualTo("at .counts: "
                        + CodecFailures.NULL_KEY));
    }

    /** A failure the codec reports in its own words keeps them, without Jackson's advice about its settings. */
    @Test
    void jacksonsAdviceAboutItsOwnSettingsIsLeftOut() {
        assertThat(CodecFailures.describe(new JsonMappingException(null,
                "Cannot do X (set DeserializationFeature.FOO to allow) for Y"))).isEqualTo("Cannot do X for Y");
        assertThat(CodecFailures.describe(new JsonMappingException(null, "x".repeat(2000))))
                .hasSize(CodecFailures.MAX_REASON);
    }
}
