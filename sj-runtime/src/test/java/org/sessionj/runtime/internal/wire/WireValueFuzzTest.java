package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.ObjectReader;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import org.sessionj.runtime.spi.support.HeapFrame;
import io.netty.buffer.Unpooled;
import org.sessionj.runtime.fuzz.Allocation;
import org.sessionj.runtime.fuzz.FuzzMessages;
import org.sessionj.runtime.fuzz.Seeds;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionTypes;
import org.sessionj.types.Action;

/**
 * Fuzzes every message decoder with the body of one item as a peer could send it: primitives,
 * strings, short strings (labels), the eight primitive arrays, flat records and arrays of them, and
 * Jackson Smile values of several declared types (collections, a non-flat record, a bean). The first
 * input byte picks the decoder (its value modulo 24; for Smile, 20 to 23, the value divided by 24, plus ten
 * for each step past 20, picks the declared type: every one of them is reachable from a byte), the rest is the frame. Contract: the value, or a
 * {@link MalformedInputException}; never another exception or an {@link Error}; the reader never
 * goes past the frame; allocation bounded by a multiple of the frame's size (a length claim is checked
 * before anything is allocated for it).
 *
 * <p>Seeds: {@code src/test/resources/org/sessionj/runtime/internal/wire/WireValueFuzzTestInputs/values}; those
 * named {@code smile-h*} are hostile18 H5, H6 and H7's inputs (text that is not UTF-8, a scale past the bound, a
 * value of another kind or out of its type's range, a key twice), each of which must be refused
 * ({@link #hostileSeedsAreRefused}).
 */
class WireValueFuzzTest {
    private static final WireKind[] ARRAYS = {WireKind.BOOLEAN_ARRAY, WireKind.BYTE_ARRAY, WireKind.SHORT_ARRAY,
        WireKind.CHAR_ARRAY, WireKind.INT_ARRAY, WireKind.LONG_ARRAY, WireKind.FLOAT_ARRAY, WireKind.DOUBLE_ARRAY};
    private static final WireKind[] PRIMITIVES = {WireKind.INT, WireKind.LONG, WireKind.DOUBLE, WireKind.FLOAT,
        WireKind.BOOLEAN, WireKind.BYTE, WireKind.SHORT, WireKind.CHAR};
    private static final String[] SMILE_TYPES = {
        "java.util.Map<String, java.util.List<Integer>>", "org.sessionj.runtime.fuzz.FuzzMessages$Tree",
        "org.sessionj.runtime.fuzz.FuzzMessages$Bean", "java.util.List<String>[]", "Integer", "java.math.BigDecimal",
        "java.util.Set<Long>", "Object", "java.math.BigInteger", "java.time.Duration", "java.time.Instant", "String"};
    private static final ObjectReader[] READERS = new ObjectReader[SMILE_TYPES.length];
    private static final RecordLayout POINT = RecordLayout.of(FuzzMessages.Point.class);

    static {
        for (int i = 0; i < SMILE_TYPES.length; i++) {
            Payload.JavaType type = (Payload.JavaType) ((Action.Send) SessionTypes.parse("!<" + SMILE_TYPES[i] + ">")
                    .head()).payload();
            try {
                READERS[i] = SmileCodec.readerFor(SmileCodec.jacksonType(resolve(type), WireValueFuzzTest.class.getClassLoader()));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Simple names as the runtime's resolver writes them: java.lang for the unqualified ones. */
    private static Payload.JavaType resolve(Payload.JavaType type) {
        String name = type.name().contains(".") ? type.name() : "java.lang." + type.name();
        return new Payload.JavaType(name, type.typeArguments().stream().map(WireValueFuzzTest::resolve).toList(),
                type.arrayDimensions());
    }

    static {
        Seeds.warmUp(WireValueFuzzTest.class, "values", input -> run(input));
    }

    @FuzzTest
    void values(byte[] input) {
        Allocation.assertBounded(input.length, () -> run(input));
    }

    /** The committed H5/H6/H7 seeds are refused (the fuzz contract alone would let a decoded value pass). */
    @org.junit.jupiter.api.Test
    void hostileSeedsAreRefused() throws Exception {
        java.nio.file.Path seeds = java.nio.file.Path.of(WireValueFuzzTest.class.getResource("WireValueFuzzTestInputs/values").toURI());
        java.util.List<java.nio.file.Path> hostile;
        try (var files = java.nio.file.Files.list(seeds)) {
            hostile = files.filter(f -> f.getFileName().toString().startsWith("smile-h")).sorted().toList();
        }
        assertThat(hostile).hasSizeGreaterThanOrEqualTo(10);
        for (java.nio.file.Path seed : hostile) {
            byte[] input = java.nio.file.Files.readAllBytes(seed);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> decode(input[0] & 0xff,
                    HeapFrame.copyOf(input, 1, input.length - 1))).as(seed.getFileName().toString())
                    .isInstanceOf(MalformedInputException.class);
        }
    }

    private static void run(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int selector = input[0] & 0xff;
        // Both kinds of frame: a network transport's (a view over a Netty buffer) and the in-JVM one's.
        for (Frame frame : new Frame[] {new ByteBufFrame(Unpooled.wrappedBuffer(input, 1, input.length - 1)),
            HeapFrame.copyOf(input, 1, input.length - 1)}) {
            try {
                decode(selector, frame);
            } catch (MalformedInputException e) {
                assertThat(e.getMessage()).isNotBlank();
            }
            assertThat(frame.readerIndex()).isBetween(0, input.length - 1);
        }
    }

    private static Object decode(int selector, Frame frame) throws MalformedInputException {
        int decoder = selector % 24;
        if (decoder < 8) {
            return ValueCodec.readPrimitive(PRIMITIVES[decoder], frame);
        }
        if (decoder < 16) {
            return ValueCodec.readArray(frame, ARRAYS[decoder - 8]);
        }
        return switch (decoder) {
            case 16 -> ValueCodec.readString(frame);
            case 17 -> ValueCodec.readShortString(frame);
            case 18 -> RecordCodec.read(frame, POINT);
            case 19 -> RecordCodec.readArray(frame, POINT);
            default -> {
                // selector / 24 alone reaches 0-9 only (a byte is at most 255): 21-23 add 10, 20, 30
                int which = (selector / 24 + 10 * (decoder - 20)) % SMILE_TYPES.length;
                yield ValueCodec.readObject(frame, READERS[which], SMILE_TYPES[which]);
            }
        };
    }
}
