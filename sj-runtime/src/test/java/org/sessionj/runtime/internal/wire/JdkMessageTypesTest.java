package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.netty.buffer.Unpooled;
import java.io.File;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Currency;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TimeZone;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import org.sessionj.types.internal.JdkMessageTypes;

/**
 * adv19 A7 (the rest): sj-api's JdkMessageTypes, the table of JDK classes SJ018 and this load check read, held
 * to the real codec. Every value class of the table loads and round-trips a value through {@link ValueCodec}
 * equal to itself (a row without a sample here fails: the table cannot grow past what is tested); every key
 * class round-trips as a map's key; every refused class is refused by the load check with its reason. The
 * text-form values read no look-up from a peer's text ({@link JdkTexts}).
 */
class JdkMessageTypesTest {
    /** A value of each class of the table, several where the forms differ. */
    private static Map<String, List<Object>> samples() throws Exception {
        Map<String, List<Object>> samples = new LinkedHashMap<>();
        samples.put("java.lang.Object", List.of("x", 1, List.of("a", 2.5)));
        samples.put("java.lang.String", List.of("", "é ∑ 😀"));
        samples.put("java.lang.StringBuilder", List.of(new StringBuilder("sb")));
        samples.put("java.lang.StringBuffer", List.of(new StringBuffer("sb")));
        samples.put("java.lang.Character", List.of('c'));
        samples.put("java.lang.Boolean", List.of(true));
        samples.put("java.lang.Byte", List.of((byte) -3));
        samples.put("java.lang.Short", List.of((short) 300));
        samples.put("java.lang.Integer", List.of(Integer.MIN_VALUE));
        samples.put("java.lang.Long", List.of(Long.MAX_VALUE));
        samples.put("java.lang.Float", List.of(1.5f, Float.NaN));
        samples.put("java.lang.Double", List.of(-0.25, Double.POSITIVE_INFINITY));
        samples.put("java.lang.Void", new ArrayList<>(java.util.Collections.singletonList(null)));
        samples.put("java.lang.StackTraceElement", List.of(new StackTraceElement("a.B", "m", "B.java", 7)));
        samples.put("java.math.BigInteger", List.of(BigInteger.TEN.pow(40)));
        samples.put("java.math.BigDecimal", List.of(new BigDecimal("-12.3450")));
        samples.put("java.util.UUID", List.of(UUID.fromString("3f1c8a7e-9d2b-4c5e-8f6a-1b2c3d4e5f60")));
        samples.put("java.util.Locale", List.of(Locale.CANADA_FRENCH, Locale.ROOT));
        samples.put("java.util.Currency", List.of(Currency.getInstance("EUR")));
        samples.put("java.util.Date", List.of(new Date(1_700_000_000_123L)));
        samples.put("java.util.TimeZone", List.of(TimeZone.getTimeZone("Europe/Paris"), TimeZone.getTimeZone("GMT"),
                TimeZone.getTimeZone("GMT+05:30")));
        samples.put("java.util.Optional", List.of(Optional.of("x"), Optional.empty()));
        samples.put("java.util.OptionalInt", List.of(OptionalInt.of(3), OptionalInt.empty()));
        samples.put("java.util.OptionalLong", List.of(OptionalLong.of(-3)));
        samples.put("java.util.OptionalDouble", List.of(OptionalDouble.of(2.5), OptionalDouble.empty()));
        samples.put("java.util.regex.Pattern", List.of(Pattern.compile("a+b", Pattern.CASE_INSENSITIVE)));
        samples.put("java.util.concurrent.atomic.AtomicBoolean", List.of(new AtomicBoolean(true)));
        samples.put("java.util.concurrent.atomic.AtomicInteger", List.of(new AtomicInteger(7)));
        samples.put("java.util.concurrent.atomic.AtomicLong", List.of(new AtomicLong(-7)));
        samples.put("java.util.concurrent.atomic.AtomicReference", List.of(new AtomicReference<>("r")));
        samples.put("java.net.URI", List.of(URI.create("https://example.org/a?b=c#d"), URI.create("rel/x")));
        samples.put("java.net.InetAddress", List.of(InetAddress.getByAddress("a-name", new byte[] {10, 0, 0, 1}),
                InetAddress.getByName("::1"), InetAddress.getByName("192.168.1.20")));
        samples.put("java.net.InetSocketAddress", List.of(new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 80),
                new InetSocketAddress(InetAddress.getByAddress("named", new byte[] {10, 0, 0, 2}), 443),
                new InetSocketAddress(InetAddress.getByName("::1"), 8080), InetSocketAddress.createUnresolved("example.invalid", 9)));
        samples.put("java.io.File", List.of(new File("rel/a.txt"), new File("/abs/b")));
        samples.put("java.nio.file.Path", List.of(Path.of("rel", "a.txt"), Path.of("/abs/b"), Path.of("")));
        samples.put("java.nio.charset.Charset", List.of(StandardCharsets.UTF_8, Charset.forName("windows-1252")));
        samples.put("java.nio.ByteBuffer", List.of(ByteBuffer.wrap(new byte[] {1, 2, 3})));
        samples.put("java.sql.Date", List.of(new java.sql.Date(1_700_000_000_000L)));
        samples.put("java.sql.Time", List.of(java.sql.Time.valueOf("10:11:12")));
        samples.put("java.sql.Timestamp", List.of(java.sql.Timestamp.from(Instant.ofEpochSecond(1_700_000_000L, 123_456_789))));
        samples.put("java.time.Instant", List.of(Instant.ofEpochSecond(1_700_000_000L, 5)));
        samples.put("java.time.Duration", List.of(Duration.ofMillis(-1500)));
        samples.put("java.time.LocalDate", List.of(LocalDate.of(2026, 11, 29)));
        samples.put("java.time.LocalTime", List.of(LocalTime.of(23, 59, 1, 7)));
        samples.put("java.time.LocalDateTime", List.of(LocalDateTime.of(2026, 11, 29, 18, 0)));
        samples.put("java.time.OffsetDateTime", List.of(OffsetDateTime.of(2026, 11, 29, 18, 0, 0, 0, ZoneOffset.ofHours(2))));
        samples.put("java.time.OffsetTime", List.of(OffsetTime.of(18, 0, 1, 0, ZoneOffset.ofHours(-3))));
        samples.put("java.time.ZonedDateTime", List.of(ZonedDateTime.of(2026, 11, 29, 18, 0, 0, 0, ZoneId.of("Europe/Paris"))));
        samples.put("java.time.ZoneId", List.of(ZoneId.of("America/New_York")));
        samples.put("java.time.ZoneOffset", List.of(ZoneOffset.ofHoursMinutes(5, 30)));
        samples.put("java.time.Period", List.of(Period.of(1, 2, 3)));
        samples.put("java.time.Year", List.of(Year.of(2026)));
        samples.put("java.time.YearMonth", List.of(YearMonth.of(2026, 11)));
        samples.put("java.time.MonthDay", List.of(MonthDay.of(2, 29)));
        return samples;
    }

    /** What equality means for the classes whose equals is identity's. */
    private static Object comparable(Object value) {
        if (value instanceof Pattern pattern) {
            return pattern.pattern() + "/" + pattern.flags();
        }
        if (value instanceof CharSequence || value instanceof AtomicBoolean || value instanceof AtomicInteger
                || value instanceof AtomicLong) {
            return value.getClass().getName() + ":" + value;
        }
        if (value instanceof AtomicReference<?> reference) {
            return "ref:" + reference.get();
        }
        return value;
    }

    /** The codec's own type factory (the Jdk8Module's: an Optional is a reference type there). */
    private static TypeFactory types() {
        return SmileCodec.readerFor(SmileCodec.jacksonType(Object.class)).getTypeFactory();
    }

    private static JavaType type(String name) throws ClassNotFoundException {
        Class<?> raw = Class.forName(name);
        TypeFactory types = types();
        return raw.getTypeParameters().length == 0 ? SmileCodec.jacksonType(raw)
                : types.constructParametricType(raw, String.class);
    }

    private static Object roundTrip(Object value, JavaType type) throws Exception {
        var buf = Unpooled.buffer();
        ValueCodec.writeObject(new ByteBufFrame(buf), SmileCodec.writerFor(type), value);
        return ValueCodec.readObject(new ByteBufFrame(buf), SmileCodec.readerFor(type), type.getRawClass().getSimpleName());
    }

    @Test
    void everyValueClassOfTheTableLoadsAndRoundTripsEqual() throws Exception {
        Map<String, List<Object>> samples = samples();
        assertThat(samples.keySet()).as("a sample for every row of JdkMessageTypes.VALUES")
                .containsExactlyInAnyOrderElementsOf(JdkMessageTypes.VALUES.keySet());
        for (Map.Entry<String, List<Object>> row : samples.entrySet()) {
            JavaType type = type(row.getKey());
            assertThat(SmileCodec.decodingProblem(type)).as(row.getKey()).isNull();
            for (Object value : row.getValue()) {
                Object back = roundTrip(value, type);
                assertThat(comparable(back)).as(row.getKey() + " " + value).isEqualTo(comparable(value));
                // the text too, but for what does not travel: a ByteBuffer's position, an address's host name
                if (value != null && !(value instanceof ByteBuffer) && !(value instanceof InetAddress)
                        && !(value instanceof InetSocketAddress)) {
                    assertThat(String.valueOf(back)).as(row.getKey() + " text").isEqualTo(String.valueOf(value));
                }
            }
            // as a part of a message too: a list of them
            JavaType list = types().constructCollectionType(List.class, type);
            assertThat(SmileCodec.decodingProblem(list)).as("List<" + row.getKey() + ">").isNull();
        }
    }

    @Test
    void everyKeyClassOfTheTableRoundTripsAsAKey() throws Exception {
        Map<String, List<Object>> samples = samples();
        for (String key : new TreeSet<>(JdkMessageTypes.KEYS)) {
            JavaType map = types().constructMapType(LinkedHashMap.class, type(key),
                    SmileCodec.jacksonType(Integer.class));
            assertThat(SmileCodec.decodingProblem(map)).as("Map<" + key + ", Integer>").isNull();
            Map<Object, Integer> sent = new LinkedHashMap<>();
            for (Object value : samples.get(key)) {
                if (value != null && (!key.equals("java.lang.Object") || value instanceof String)) {
                    sent.put(value, sent.size());
                }
            }
            assertThat(roundTrip(sent, map)).as("Map<" + key + ", Integer>").isEqualTo(sent);
        }
        for (Class<?> key : List.of(File.class, Class.class, Path.class, java.net.URL.class, StringBuilder.class)) {
            JavaType map = types().constructMapType(LinkedHashMap.class, key, Integer.class);
            assertThat(SmileCodec.decodingProblem(map)).as(key.getName()).isNotNull();
        }
    }

    @Test
    void everyRefusedClassOfTheTableIsRefusedWithItsReason() throws Exception {
        for (Map.Entry<String, String> row : JdkMessageTypes.REFUSED.entrySet()) {
            assertThat(SmileCodec.decodingProblem(SmileCodec.jacksonType(Class.forName(row.getKey()))))
                    .as(row.getKey()).isEqualTo(row.getKey() + " " + row.getValue());
        }
        // the codec describes these, and they did load; none is read back as sent (DoubleAdder, a bean
        // written as its sum) or is the JDK's business
        for (Class<?> other : List.of(java.time.format.DateTimeFormatter.class, java.util.BitSet.class,
                java.util.HexFormat.class, javax.security.auth.x500.X500Principal.class)) {
            assertThat(SmileCodec.decodingProblem(SmileCodec.jacksonType(other))).as(other.getName()).isNotNull();
        }
    }

    /** A peer's text for the text-form values: read without a look-up, refused where it names nothing. */
    @Test
    void aPeersTextIsReadWithoutALookUpOrRefused() throws Exception {
        assertThat(roundTrip(InetSocketAddress.createUnresolved("example.invalid", 80),
                SmileCodec.jacksonType(InetSocketAddress.class))).isInstanceOf(InetSocketAddress.class)
                .matches(a -> ((InetSocketAddress) a).isUnresolved(), "unresolved");
        for (Map.Entry<Class<?>, String> bad : Map.<Class<?>, String>of(TimeZone.class, "Nowhere/Atlantis",
                Charset.class, "x-made-up-charset", Path.class, "a\0b", InetSocketAddress.class, "host-without-port",
                InetAddress.class, "a-host-name").entrySet()) {
            byte[] smile = smileText(bad.getValue());
            var buf = Unpooled.buffer().writeInt(smile.length).writeBytes(smile);
            assertThatThrownBy(() -> ValueCodec.readObject(new ByteBufFrame(buf),
                    SmileCodec.readerFor(SmileCodec.jacksonType(bad.getKey())), bad.getKey().getSimpleName()))
                    .as(bad.getKey().getName()).isInstanceOf(MalformedInputException.class);
        }
    }

    private static byte[] smileText(String text) throws Exception {
        var bytes = new java.io.ByteArrayOutputStream();
        try (var out = new com.fasterxml.jackson.dataformat.smile.SmileFactory().createGenerator(bytes)) {
            out.writeString(text);
        }
        return bytes.toByteArray();
    }
}
