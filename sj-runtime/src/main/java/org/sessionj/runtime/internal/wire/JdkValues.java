package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.regex.Pattern;

/**
 * The JDK values whose Jackson defaults change them on the way (adv15 A22), each encoded so that what a
 * receiver decodes equals what was sent (docs/wire-format.md, "JDK values"):
 * <ul>
 * <li>{@code OffsetDateTime} and {@code ZonedDateTime} travel as ISO-8601 text with their offset, and a
 *     {@code ZonedDateTime} with its zone id ({@code 2026-11-29T04:00+01:00[Europe/Paris]}), and are read
 *     back as written: Jackson's defaults wrote the instant as a number and read it back in UTC;</li>
 * <li>{@code java.sql.Timestamp} travels as its instant in ISO-8601 text, nanoseconds included (Jackson
 *     wrote the milliseconds of a {@code java.util.Date});</li>
 * <li>{@code Pattern} travels as its text and its flags (Jackson wrote the text only: a
 *     {@code CASE_INSENSITIVE} pattern arrived matching case);</li>
 * <li>{@code Path}, {@code File}, {@code TimeZone}, {@code Charset}, {@code InetAddress} and
 *     {@code InetSocketAddress}: as text, read back without a look-up ({@link JdkTexts}).</li>
 * </ul>
 */
final class JdkValues {
    private JdkValues() {
    }

    /** Configures {@code mapper} (called once, while {@link SmileCodec}'s mapper is built). */
    static ObjectMapper configure(ObjectMapper mapper) {
        mapper.configOverride(OffsetDateTime.class).setFormat(JsonFormat.Value.forShape(JsonFormat.Shape.STRING));
        mapper.configOverride(ZonedDateTime.class).setFormat(JsonFormat.Value.forShape(JsonFormat.Shape.STRING));
        SimpleModule module = module();
        JdkTexts.register(module, mapper);
        return mapper.disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .enable(SerializationFeature.WRITE_DATES_WITH_ZONE_ID)
                .registerModule(module);
    }

    private static SimpleModule module() {
        SimpleModule module = new SimpleModule("sj-jdk-values");
        if (sqlPresent()) {
            SqlTimestamps.register(module);
        }
        module.addSerializer(Pattern.class, new PatternSerializer());
        module.addDeserializer(Pattern.class, new PatternDeserializer());
        return module;
    }

    /**
     * Whether {@code java.sql} is in the program's layer: a modular program without it (the runtime requires
     * it {@code static}, as Jackson does) cannot hold a {@code Timestamp}, and naming the class would fail.
     */
    private static boolean sqlPresent() {
        try {
            Class.forName("java.sql.Timestamp", false, JdkValues.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The only code that names {@code java.sql.Timestamp}: loaded only when {@code java.sql} is present. */
    private static final class SqlTimestamps {
        private SqlTimestamps() {
        }

        static void register(SimpleModule module) {
            module.addSerializer(Timestamp.class, new TimestampSerializer());
            module.addDeserializer(Timestamp.class, new TimestampDeserializer());
        }
    }

    private static final class TimestampSerializer extends StdSerializer<Timestamp> {
        private static final long serialVersionUID = 1L;

        TimestampSerializer() {
            super(Timestamp.class);
        }

        @Override
        public void serialize(Timestamp value, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeString(value.toInstant().toString());
        }
    }

    private static final class TimestampDeserializer extends StdDeserializer<Timestamp> {
        private static final long serialVersionUID = 1L;

        TimestampDeserializer() {
            super(Timestamp.class);
        }

        @Override
        public Timestamp deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() != JsonToken.VALUE_STRING) {
                return (Timestamp) context.handleUnexpectedToken(Timestamp.class, in);
            }
            String text = in.getText();
            try {
                return Timestamp.from(Instant.parse(text));
            } catch (DateTimeException | IllegalArgumentException e) {
                return (Timestamp) context.handleWeirdStringValue(Timestamp.class, text,
                        "not an ISO-8601 instant within a Timestamp's range");
            }
        }
    }

    /** A pattern as a two-element array: its text, then its flags ({@link Pattern#flags()}). */
    private static final class PatternSerializer extends StdSerializer<Pattern> {
        private static final long serialVersionUID = 1L;

        PatternSerializer() {
            super(Pattern.class);
        }

        @Override
        public void serialize(Pattern value, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeStartArray();
            out.writeString(value.pattern());
            out.writeNumber(value.flags());
            out.writeEndArray();
        }
    }

    private static final class PatternDeserializer extends StdDeserializer<Pattern> {
        private static final long serialVersionUID = 1L;

        PatternDeserializer() {
            super(Pattern.class);
        }

        @Override
        public Pattern deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() != JsonToken.START_ARRAY || in.nextToken() != JsonToken.VALUE_STRING) {
                return (Pattern) context.handleUnexpectedToken(Pattern.class, in);
            }
            String text = in.getText();
            if (in.nextToken() != JsonToken.VALUE_NUMBER_INT) {
                return (Pattern) context.handleUnexpectedToken(Pattern.class, in);
            }
            int flags = in.getIntValue();
            if (in.nextToken() != JsonToken.END_ARRAY) {
                return (Pattern) context.handleUnexpectedToken(Pattern.class, in);
            }
            try {
                return Pattern.compile(text, flags);
            } catch (IllegalArgumentException e) { // also PatternSyntaxException
                return (Pattern) context.handleWeirdStringValue(Pattern.class, text,
                        "not a pattern with flags " + flags + ": " + e.getMessage());
            }
        }
    }
}
