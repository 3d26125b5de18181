package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.core.StreamReadConstraints;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * What one Smile value from a peer may ask of its decoder (hostile17 H9). A frame bounds the bytes, not the
 * work: a 16 MiB frame holds 16 million one-byte tokens, and decoding them as an {@code Object} took seconds
 * of CPU and some 460 MB of heap (an empty array is two bytes on the wire and an {@code ArrayList} here).
 * Jackson's {@link StreamReadConstraints} bound each dimension; the receiver's limits are:
 *
 * <ul>
 *   <li>tokens ({@code sessionj.codec.maxTokens}): values, keys and brackets, by default one per 16 bytes
 *       of {@code sessionj.tcp.maxFrameBytes} (1,048,576 for 16 MiB), so a value decodes to some tens of
 *       MB at most;</li>
 *   <li>nesting, 1000 levels (Jackson's default, and what a sender checks before it writes);</li>
 *   <li>a number's length ({@code sessionj.codec.maxNumberLength}, Jackson's default 1000: digits, or bytes
 *       of a binary big number) and a BigDecimal's scale ({@code sessionj.codec.maxNumberScale}, 10,000,
 *       checked by {@link CheckedSmileParser} before the number exists: seven bytes say {@code 1E+100000},
 *       whose {@code BigInteger} took 2 ms and 41 KB each, hostile18 H6), so that a number cannot ask for a
 *       conversion that runs for minutes;</li>
 *   <li>a key's length ({@code sessionj.codec.maxNameLength}, Jackson's default 50,000 characters);</li>
 *   <li>strings and the whole value: only the frame (a string as long as the frame limit decodes; Jackson's
 *       own default of 20 million characters refused one that an {@code ipc} frame of 64 MiB can hold).</li>
 * </ul>
 *
 * <p>A value past a limit fails its session as any malformed value does, in the project's words, naming the
 * setting ({@link #describe}).
 */
final class DecodeLimits {
    /** Most levels of arrays and objects in one value (also the sender's check, {@code ValueShape}). */
    static final int MAX_DEPTH = 1000;
    /**
     * A BigDecimal's largest scale by default: values of some thousands of digits decode; a number whose every
     * use as an integer, a sum or text costs more is refused (hostile18 H6).
     */
    static final int DEFAULT_MAX_SCALE = 10_000;
    private static final Pattern JACKSON = Pattern.compile(
            "^(Token count|Number value length|Name length|String value length|Document length|Document nesting depth)"
                    + " \\((-?\\d+)\\) exceeds the maximum allowed \\((\\d+), from `StreamReadConstraints");

    private DecodeLimits() {
    }

    /** The constraints from the system properties ({@link #fromSettings}). */
    static StreamReadConstraints fromSystem() {
        return fromSettings(SystemSettings.system());
    }

    /** The constraints {@code settings} give (docs/configuration.md, "sessionj.codec.*"). */
    static StreamReadConstraints fromSettings(SystemSettings settings) {
        int frame = settings.integer("tcp.maxFrameBytes", 16 << 20);
        int tokens = positive("codec.maxTokens", settings.integer("codec.maxTokens", Math.max(1, frame / 16)));
        return StreamReadConstraints.builder()
                .maxTokenCount(tokens)
                .maxNestingDepth(MAX_DEPTH)
                .maxNumberLength(positive("codec.maxNumberLength",
                        settings.integer("codec.maxNumberLength", StreamReadConstraints.DEFAULT_MAX_NUM_LEN)))
                .maxNameLength(positive("codec.maxNameLength",
                        settings.integer("codec.maxNameLength", StreamReadConstraints.DEFAULT_MAX_NAME_LEN)))
                .maxStringLength(Integer.MAX_VALUE) // the frame bounds it
                .build();
    }

    /**
     * The largest scale, either sign, of a {@code BigDecimal} this receiver decodes
     * ({@code sessionj.codec.maxNumberScale}, default {@value #DEFAULT_MAX_SCALE}).
     */
    static int maxNumberScale(SystemSettings settings) {
        return positive("codec.maxNumberScale", settings.integer("codec.maxNumberScale", DEFAULT_MAX_SCALE));
    }

    /**
     * Why a {@code BigDecimal} of {@code scale} is refused. A scale is how many places the point moves: 1E+100000
     * has the scale -100000, and as an integer, a sum or its plain text it is 100,001 digits.
     */
    static String scaleRefused(long scale, int max) {
        return "the peer's value holds a decimal number of scale " + scale + " (" + (scale < 0 ? "an integer of more than "
                + (-scale) + " digits" : "more than " + scale + " digits after the point") + "), beyond the " + max
                + " either way this receiver decodes (sessionj.codec.maxNumberScale)";
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw SystemSettings.invalid(name, "a positive number", Integer.toString(value));
        }
        return value;
    }

    /**
     * Jackson's message for a broken read limit in the project's words, naming the setting; null for any
     * other message.
     */
    static String describe(String message) {
        Matcher m = JACKSON.matcher(message);
        if (!m.find()) {
            return message.startsWith("BigDecimal scale")
                    ? "the peer's value holds a number whose scale is too large to decode (" + message + ")" : null;
        }
        String limit = m.group(3);
        return switch (m.group(1)) {
            case "Token count" -> "the peer's value holds more than " + limit + " tokens (values, keys and brackets), "
                    + "the most this receiver decodes in one value (sessionj.codec.maxTokens)";
            // Jackson stops counting where it saw the limit broken: its figure is a lower bound, not the length
            case "Number value length" -> "the peer's value holds a number longer than the " + limit
                    + " digits or bytes this receiver decodes (sessionj.codec.maxNumberLength)";
            case "Name length" -> "the peer's value holds a key longer than the " + limit
                    + " characters this receiver decodes (sessionj.codec.maxNameLength)";
            case "Document nesting depth" -> "the value is nested deeper than the " + limit
                    + " levels a receiver decodes (does it refer to itself?)";
            default -> "the peer's value is larger than this receiver decodes (" + m.group(1).toLowerCase(java.util.Locale.ROOT)
                    + " over " + limit + ")";
        };
    }
}
