package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.ArrayType;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;

/**
 * What a peer's value must be to be read as the declared type (hostile18 H7): the value the protocol says,
 * exactly, or a refusal — never another value made from it.
 *
 * <ul>
 *   <li>No conversion between kinds: Jackson's default coercions read an {@code Integer} from {@code 1.9} as 1,
 *       from {@code "42"} as 42 and from {@code ""} as null, a {@code Boolean} from {@code 1}, a {@code String}
 *       from {@code 42}, an enum from its ordinal. A sender writes each type in its own kind, so such input
 *       comes only from a peer that is not one; it fails the decode ("cannot coerce …"). An integral type from
 *       a decimal is refused before any conversion, so a {@code BigInteger} from seven bytes of {@code 1E+100000}
 *       no longer costs 100,001 digits (hostile18 H6).</li>
 *   <li>{@code Instant}, {@code OffsetDateTime}, {@code ZonedDateTime} and {@code Duration} from a decimal
 *       number of seconds: out of the type's range, or with digits past the nanosecond, refused. Jackson read
 *       {@code 1E+19} seconds as a negative {@code Duration} (the seconds wrapped), and {@code 1E+1000} as
 *       {@code PT0S} or the epoch.</li>
 *   <li>A floating-point number ({@code Double}, {@code double}, {@code Float}, {@code float}, an element of a
 *       {@code double[]} or {@code float[]} inside a value, an {@code OptionalDouble}) from a number token only:
 *       Jackson reads the strings {@code "NaN"}, {@code "Infinity"}, {@code "INF"} as the number before it asks
 *       the coercion rules; a sender writes NaN and the infinities as numbers (Smile has them).</li>
 * </ul>
 */
final class PeerValues {
    /** Seconds a Duration holds: a long of seconds and 0-999,999,999 nanoseconds. */
    private static final BigDecimal DURATION_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal DURATION_MAX = new BigDecimal(Long.MAX_VALUE + ".999999999");
    /** Seconds from the epoch an Instant holds. */
    private static final BigDecimal INSTANT_MIN = BigDecimal.valueOf(Instant.MIN.getEpochSecond());
    private static final BigDecimal INSTANT_MAX = new BigDecimal(Instant.MAX.getEpochSecond() + ".999999999");

    private PeerValues() {
    }

    /** Configures {@code mapper} (once, while {@link SmileCodec}'s mapper is built); returns it. */
    static ObjectMapper configure(ObjectMapper mapper) {
        refuse(mapper, LogicalType.Integer, CoercionInputShape.Float, CoercionInputShape.String,
                CoercionInputShape.EmptyString, CoercionInputShape.Boolean);
        refuse(mapper, LogicalType.Float, CoercionInputShape.Integer, CoercionInputShape.String,
                CoercionInputShape.EmptyString, CoercionInputShape.Boolean);
        refuse(mapper, LogicalType.Boolean, CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.String, CoercionInputShape.EmptyString);
        refuse(mapper, LogicalType.Textual, CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean);
        refuse(mapper, LogicalType.Enum, CoercionInputShape.Integer, CoercionInputShape.EmptyString);
        refuse(mapper, LogicalType.DateTime, CoercionInputShape.EmptyString);
        for (Class<?> character : new Class<?>[] {Character.class, char.class}) {
            mapper.coercionConfigFor(character).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        }
        SimpleModule module = new SimpleModule("sj-peer-values");
        module.setDeserializerModifier(new Checks());
        // the Jdk8Module's reader is not offered to the modifier; this module's, registered later, is found first
        module.addDeserializer(java.util.OptionalDouble.class, new OptionalDoubleNumber());
        return mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .registerModule(module);
    }

    private static void refuse(ObjectMapper mapper, LogicalType type, CoercionInputShape... shapes) {
        for (CoercionInputShape shape : shapes) {
            mapper.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
        }
    }

    /**
     * Puts the range check in front of Jackson's deserializers for the time types read from seconds, and the
     * refusal of text in front of those of the floating-point types.
     */
    private static final class Checks extends BeanDeserializerModifier {
        private static final long serialVersionUID = 1L;

        @Override
        public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
                JsonDeserializer<?> deserializer) {
            Class<?> type = description.getBeanClass();
            if (type == Duration.class) {
                return new SecondsChecked(deserializer, type, DURATION_MIN, DURATION_MAX);
            }
            if (type == Instant.class || type == OffsetDateTime.class || type == ZonedDateTime.class) {
                return new SecondsChecked(deserializer, type, INSTANT_MIN, INSTANT_MAX);
            }
            if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
                return new NumberNotText(deserializer, type);
            }
            return deserializer;
        }

        @Override
        public JsonDeserializer<?> modifyArrayDeserializer(DeserializationConfig config, ArrayType type,
                BeanDescription description, JsonDeserializer<?> deserializer) {
            Class<?> element = type.getContentType().getRawClass();
            return element == double.class ? new FloatingArray(double[].class)
                    : element == float.class ? new FloatingArray(float[].class) : deserializer;
        }
    }

    /**
     * A {@code double[]} or {@code float[]} inside a Smile value (a bean's array field; the top-level arrays
     * travel in the runtime's own array form): floating-point number tokens only, as the scalar types
     * ({@link NumberNotText}). Jackson's own reader of these arrays reads {@code "NaN"} and {@code "Infinity"}
     * strings as numbers before it asks the coercion rules. Built in Jackson's array builders, as its reader
     * builds them: no allocation beyond its.
     */
    private static final class FloatingArray extends StdDeserializer<Object> {
        private static final long serialVersionUID = 1L;

        private final boolean doubles;

        FloatingArray(Class<?> type) {
            super(type);
            this.doubles = type == double[].class;
        }

        @Override
        public Object deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (!in.isExpectedStartArrayToken()) {
                return context.handleUnexpectedToken(handledType(), in);
            }
            com.fasterxml.jackson.databind.util.ArrayBuilders builders = context.getArrayBuilders();
            return doubles ? readDoubles(in, context, builders.getDoubleBuilder())
                    : readFloats(in, context, builders.getFloatBuilder());
        }

        private double[] readDoubles(JsonParser in, DeserializationContext context,
                com.fasterxml.jackson.databind.util.ArrayBuilders.DoubleBuilder builder) throws IOException {
            double[] chunk = builder.resetAndStart();
            int at = 0;
            while (in.nextToken() != JsonToken.END_ARRAY) {
                number(in, context, double.class, builder.bufferedSize() + at);
                if (at == chunk.length) {
                    chunk = builder.appendCompletedChunk(chunk, at);
                    at = 0;
                }
                chunk[at++] = in.getDoubleValue();
            }
            return builder.completeAndClearBuffer(chunk, at);
        }

        private float[] readFloats(JsonParser in, DeserializationContext context,
                com.fasterxml.jackson.databind.util.ArrayBuilders.FloatBuilder builder) throws IOException {
            float[] chunk = builder.resetAndStart();
            int at = 0;
            while (in.nextToken() != JsonToken.END_ARRAY) {
                number(in, context, float.class, builder.bufferedSize() + at);
                if (at == chunk.length) {
                    chunk = builder.appendCompletedChunk(chunk, at);
                    at = 0;
                }
                chunk[at++] = in.getFloatValue();
            }
            return builder.completeAndClearBuffer(chunk, at);
        }

        /** Refuses an element that is not a floating-point number token (text, an integer, null, a boolean). */
        private void number(JsonParser in, DeserializationContext context, Class<?> element, int index)
                throws IOException {
            if (in.currentToken() != JsonToken.VALUE_NUMBER_FLOAT) {
                try {
                    context.handleUnexpectedToken(element, in);
                } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
                    throw com.fasterxml.jackson.databind.JsonMappingException.wrapWithPath(e, handledType(), index);
                }
            }
        }
    }

    /**
     * A floating-point number, not text: Jackson reads {@code "NaN"} and {@code "Infinity"} as the number before
     * it asks the coercion rules (JSON has no other way to write them; Smile has).
     */
    private static final class NumberNotText extends DelegatingDeserializer {
        private static final long serialVersionUID = 1L;

        private final Class<?> type;

        NumberNotText(JsonDeserializer<?> delegate, Class<?> type) {
            super(delegate);
            this.type = type;
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new NumberNotText(delegate, type);
        }

        @Override
        public Object deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() == JsonToken.VALUE_STRING) {
                return context.handleUnexpectedToken(type, in);
            }
            return super.deserialize(in, context);
        }
    }

    /**
     * An {@code OptionalDouble} from a floating-point number token or null only: the Jdk8Module's reader takes
     * the text {@code "NaN"} as the number, as {@link NumberNotText} says of the scalar types.
     */
    private static final class OptionalDoubleNumber extends StdDeserializer<java.util.OptionalDouble> {
        private static final long serialVersionUID = 1L;

        OptionalDoubleNumber() {
            super(java.util.OptionalDouble.class);
        }

        @Override
        public java.util.OptionalDouble deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() != JsonToken.VALUE_NUMBER_FLOAT) {
                return (java.util.OptionalDouble) context.handleUnexpectedToken(java.util.OptionalDouble.class, in);
            }
            return java.util.OptionalDouble.of(in.getDoubleValue());
        }

        @Override
        public java.util.OptionalDouble getNullValue(DeserializationContext context) {
            return java.util.OptionalDouble.empty();
        }
    }

    /** A time value read from a decimal number of seconds, refused out of its range or finer than a nanosecond. */
    private static final class SecondsChecked extends DelegatingDeserializer {
        private static final long serialVersionUID = 1L;

        private final Class<?> type;
        private final BigDecimal min;
        private final BigDecimal max;

        SecondsChecked(JsonDeserializer<?> delegate, Class<?> type, BigDecimal min, BigDecimal max) {
            super(delegate);
            this.type = type;
            this.min = min;
            this.max = max;
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new SecondsChecked(delegate, type, min, max);
        }

        @Override
        public Object deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
                check(in, context);
            }
            return super.deserialize(in, context);
        }

        private void check(JsonParser in, DeserializationContext context) throws IOException {
            if (in.getNumberType() != JsonParser.NumberType.BIG_DECIMAL) {
                double seconds = in.getDoubleValue();
                if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
                    context.reportInputMismatch(type, "%s seconds is no %s", seconds, type.getSimpleName());
                }
            }
            // a BigDecimal's scale is bounded (CheckedSmileParser), so comparing and stripping cost little
            BigDecimal seconds = in.getDecimalValue();
            if (seconds.compareTo(min) < 0 || seconds.compareTo(max) > 0) {
                context.reportInputMismatch(type, "%s seconds is out of the range of %s (%s to %s seconds)",
                        seconds, type.getSimpleName(), min.toPlainString(), max.toPlainString());
            }
            if (seconds.scale() > 9 && seconds.stripTrailingZeros().scale() > 9) {
                context.reportInputMismatch(type, "%s seconds has digits past the nanosecond, the finest %s holds",
                        seconds, type.getSimpleName());
            }
        }
    }
}
