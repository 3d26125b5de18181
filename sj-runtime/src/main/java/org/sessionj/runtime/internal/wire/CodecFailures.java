package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The codec's failures in the project's words (adv15 A23): what the user reads in an {@code SJIOException}
 * and the peer in the failure notice. Jackson's messages speak of JSON (the wire is Smile), advise Jackson
 * settings the program cannot reach ("use a converting NullKeySerializer?") and end with its whole
 * reference chain; here a reason is the path to the part ({@code at .orders[2].lines[null]}), what is
 * wrong with it and, for the failures a program meets, what to do, cut to a readable length.
 */
public final class CodecFailures {
    /** A reason is cut to this many characters (the path and Jackson's text are the program's, of any length). */
    static final int MAX_REASON = 400;
    /** A path is shortened past this many characters, its start and end kept. */
    private static final int MAX_PATH = 160;

    /** Why a map with a null key cannot be sent ({@link SmileCodec}'s null-key serializer throws it). */
    static final String NULL_KEY = "a map key is null: keys travel as their text and a null key has none; remove "
            + "the entry, or use a key value that stands for it";

    /** Jackson's advice about its own settings, which a program cannot reach: left out of a reason. */
    private static final Pattern JACKSON_ADVICE = Pattern.compile(
            "\\s*\\((?:use|set|enable|disable|or|to)\\b[^()]*(?:Feature|Serializer|Deserializer|Module|annotation)"
                    + "[^()]*\\)");
    /** Jackson's refusal of a value of another kind (hostile18 H7: {@link PeerValues}). */
    private static final Pattern COERCION = Pattern.compile(
            "^Cannot coerce (empty String|[A-Za-z-]+ value) \\((.*)\\) to `([^`]+)` value");
    private static final Pattern SURROGATE_HEX = Pattern.compile("0x([0-9A-Fa-f]{4})");

    private CodecFailures() {
    }

    /** Why a string with the unpaired surrogate {@code c} at {@code index} cannot be sent. */
    static String unpairedSurrogate(char c, int index) {
        return "a String holds an unpaired surrogate" + (c == 0 ? "" : String.format(Locale.ROOT, " (U+%04X", (int) c)
                + (index < 0 ? ")" : " at index " + index + ")")) + ": text that is not valid Unicode cannot travel "
                + "(the wire carries strings as UTF-8, which has no form for half a surrogate pair); repair the text, "
                + "or send its UTF-16 units as a char[]";
    }

    /**
     * The reason {@code e}, a failure of the codec writing or reading a value, gives in the project's words:
     * "at PATH: WHAT" (no path for a failure at the top), at most {@value #MAX_REASON} characters.
     */
    public static String describe(Throwable e) {
        String message = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
        Throwable cause = e.getCause();
        String what = e instanceof JsonMappingException && cause != null && thrownByTheProgram(cause)
                // a getter, setter or constructor of the message's class threw: say so, with its exception
                ? "the message's own code threw " + cause
                : translate(message == null ? e.getClass().getName() : message);
        String path = e instanceof JsonMappingException mapping ? path(mapping.getPath()) : "";
        CheckedSmileParser.Refused refused = refusedToken(e);
        if (refused != null) {
            // the parser's path is whole; the mapper's misses the innermost link (hostile18 H5, H6)
            what = refused.getOriginalMessage();
            path = shortened(refused.path);
        }
        return cut(path.isEmpty() ? what : "at " + path + ": " + what, MAX_REASON);
    }

    /** The token refusal {@code e} is or wraps, or null. */
    private static CheckedSmileParser.Refused refusedToken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CheckedSmileParser.Refused refused) {
                return refused;
            }
        }
        return null;
    }

    /**
     * Whether {@code cause} came out of the program's code (a getter, setter or constructor of a message
     * class) rather than the codec's or the JDK's (a date that does not parse): the first frame past the
     * JDK's is not Jackson's.
     */
    private static boolean thrownByTheProgram(Throwable cause) {
        if (cause instanceof com.fasterxml.jackson.core.JacksonException) {
            return false;
        }
        for (StackTraceElement frame : cause.getStackTrace()) {
            String name = frame.getClassName();
            if (name.startsWith("java.") || name.startsWith("jdk.") || name.startsWith("sun.")) {
                continue;
            }
            return !name.startsWith("com.fasterxml.") && !name.startsWith("org.sessionj.runtime.");
        }
        return false;
    }

    /** Jackson's text for the failures a program meets, in the project's words; any other without its advice. */
    private static String translate(String message) {
        if (message.contains("surrogate")) {
            Matcher hex = SURROGATE_HEX.matcher(message);
            return unpairedSurrogate(hex.find() ? (char) Integer.parseInt(hex.group(1), 16) : 0, -1);
        }
        Matcher coercion = COERCION.matcher(message);
        if (coercion.find()) {
            String type = coercion.group(3);
            String kind = coercion.group(1).toLowerCase(Locale.ROOT);
            return "the peer sent " + ("aeiou".indexOf(kind.charAt(0)) >= 0 ? "an " : "a ") + kind + " ("
                    + coercion.group(2) + ") where the protocol says "
                    + type.substring(type.lastIndexOf('.') + 1) + ": a value is read as its declared type, never "
                    + "converted from another kind";
        }
        if (message.contains("not allowed to deserialize Enum value out of number")) {
            return message.substring(0, message.indexOf(':')) + ": an enum constant travels as its name, not a number";
        }
        if (message.startsWith("Null key for a Map")) {
            return NULL_KEY;
        }
        String limit = DecodeLimits.describe(message);
        if (limit != null) {
            return limit;
        }
        if (message.startsWith("Document nesting depth")) {
            return "the value is nested deeper than the 1000 levels a receiver decodes (does it refer to itself?)";
        }
        if (message.startsWith("Direct self-reference")) {
            return "the value refers to itself (a direct self-reference): a message is a tree of values, and one "
                    + "that refers back up cannot be sent";
        }
        return JACKSON_ADVICE.matcher(message.replace(" in JSON", "")).replaceAll("");
    }

    /** A reference chain as a path: {@code .field}, {@code [index]}, {@code [key]}. */
    private static String path(List<JsonMappingException.Reference> chain) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference link : chain) {
            if (link.getIndex() >= 0) {
                path.append('[').append(link.getIndex()).append(']');
            } else if (link.getFrom() instanceof Map<?, ?> || link.getFrom() instanceof Class<?> c
                    && Map.class.isAssignableFrom(c)) {
                path.append('[').append(cut(String.valueOf(link.getFieldName()), 40)).append(']');
            } else if (link.getFieldName() != null) {
                path.append('.').append(link.getFieldName());
            }
        }
        return shortened(path.toString());
    }

    /** A path past {@value #MAX_PATH} characters with its middle left out. */
    private static String shortened(String path) {
        if (path.length() > MAX_PATH) {
            return path.substring(0, MAX_PATH / 2) + " … " + path.substring(path.length() - MAX_PATH / 2);
        }
        return path;
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
