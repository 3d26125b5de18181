package org.sessionj.runtime.internal.monitor;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import java.lang.reflect.Array;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.runtime.internal.wire.SmileCodec;

/**
 * The send-time check of a message value at every depth (adv13 A3, A14): the receiver decodes each part of
 * a value as the type the protocol declares for that part, so the sender's monitor walks the value as
 * the type says — array, collection and map contents, optionals, a record's components, a class's
 * properties — and refuses it, before anything is written, where a part would not arrive as itself:
 * <ul>
 *   <li>a part whose declared type is a class: {@link Decoding}'s rule (a subclass of an open concrete
 *       class would arrive as the declared class, losing its own fields; a sealed type takes its
 *       permitted classes only);</li>
 *   <li>a part whose declared type is {@code Object} (also a type variable or wildcard, erased to it):
 *       only what decodes back equal to itself from the wire's untyped form — {@code null}, strings,
 *       booleans, {@code Integer}, {@code Float}, {@code Double}, {@code BigInteger}, {@code BigDecimal},
 *       and lists and string-keyed maps of those; a record or bean would arrive as a map, a set or an array
 *       as a list, a {@code Long} that fits an int as an {@code Integer}, an enum or a character as a
 *       string.</li>
 * </ul>
 * A map's keys travel as strings and are read back as the declared key type: where that is {@code Object}
 * a key arrives as a {@code String}, so only strings may stand there (the load-time check refuses key
 * types that do not read back as themselves at all). A list or map where the type is {@code Object} that
 * contains itself is refused at the part that refers back up: a message is a tree of values.
 * Invariant: <em>what a receiver decodes equals what was sent, part by part, with each part of the class
 * it was sent as wherever the declared type names one</em>; a value that breaks it fails the send with
 * the path to the part ({@code [3].a: a Dog would arrive as an Animal}), and nothing is sent.
 *
 * <p>A shape is built once per message type. A type none of whose parts can differ (primitives,
 * strings, records of them, final classes, their arrays and collections: the common case) is
 * {@linkplain #closed() closed} and costs nothing per message.
 */
final class ValueShape {
    /** Deeper than this a receiver's decoder refuses the value anyway (Jackson's nesting limit). */
    static final int MAX_DEPTH = 1000;

    private enum Kind { CLOSED, UNTYPED, ELEMENTS, MAP, REFERENCE, CLASS }

    /** A path longer than this is shortened in a refusal (its start and end kept): a reason stays readable. */
    private static final int PATH_SHOWN = 160;

    private static final ValueShape CLOSED = new ValueShape(Kind.CLOSED, null, null, null, false);

    private final Kind kind;
    /** For {@link Kind#ELEMENTS}, {@link Kind#MAP} and {@link Kind#REFERENCE}: the contents' shape. */
    private final ValueShape contents;
    /** For {@link Kind#MAP}: the declared key type is {@code Object}, where only a string arrives as itself. */
    private final boolean stringKeys;
    /** For {@link Kind#CLASS}: the declared type and which classes may stand for it. */
    private final JavaType declared;
    private final Decoding decoding;
    /** For {@link Kind#CLASS}: the properties written for each class a value may have (computed on first use). */
    private final Map<Class<?>, List<Property>> properties = new ConcurrentHashMap<>();

    private ValueShape(Kind kind, ValueShape contents, JavaType declared, Decoding decoding, boolean stringKeys) {
        this.kind = kind;
        this.contents = contents;
        this.stringKeys = stringKeys;
        this.declared = declared;
        this.decoding = decoding;
    }

    /** One property the codec writes for a class: how to read it, and its shape. */
    private record Property(BeanPropertyWriter writer, ValueShape shape) {
    }

    /** The shape of values of {@code declared}. */
    static ValueShape of(JavaType declared) {
        return new Builder().shape(declared);
    }

    /** Whether no part of a value of this type can arrive as something else: nothing to walk. */
    boolean closed() {
        return kind == Kind.CLOSED;
    }

    /**
     * Why {@code value} (an instance of the declared type's erasure, or null) would not arrive as itself:
     * the path to the first part that would not and why; null when every part would.
     */
    String refusal(Object value) {
        return kind == Kind.CLOSED ? null : refusal(value, "", new java.util.ArrayList<>(8));
    }

    /**
     * {@code ancestors}: the values on the way down to this part (its depth is their number); a part that
     * is one of them makes the value refer to itself ({@link #referringBack}).
     */
    private String refusal(Object value, String path, List<Object> ancestors) {
        if (value == null || kind == Kind.CLOSED) {
            return null;
        }
        if (isAncestor(value, ancestors)) {
            return referringBack(value, path);
        }
        int depth = ancestors.size();
        if (depth > MAX_DEPTH) {
            return at(path, "nested deeper than " + MAX_DEPTH + " levels, more than a receiver decodes (does it "
                    + "refer to itself?)");
        }
        ancestors.add(value);
        try {
            return switch (kind) {
                case CLOSED -> null;
                case UNTYPED -> untyped(value, path, ancestors);
                case ELEMENTS -> elements(value, path, ancestors);
                case MAP -> map(value, path, ancestors);
                case REFERENCE -> referenced(value, path, ancestors);
                case CLASS -> ofClass(value, path, ancestors);
            };
        } finally {
            ancestors.remove(ancestors.size() - 1);
        }
    }

    private static boolean isAncestor(Object value, List<Object> ancestors) {
        for (int i = ancestors.size() - 1; i >= 0; i--) {
            if (ancestors.get(i) == value) {
                return true;
            }
        }
        return false;
    }

    private String elements(Object value, String path, List<Object> ancestors) {
        if (value.getClass().isArray()) {
            for (int i = 0, n = Array.getLength(value); i < n; i++) {
                String refusal = contents.refusal(Array.get(value, i), path + "[" + i + "]", ancestors);
                if (refusal != null) {
                    return refusal;
                }
            }
            return null;
        }
        if (value instanceof Iterable<?> iterable) {
            int i = 0;
            for (Object element : iterable) {
                String refusal = contents.refusal(element, path + "[" + i++ + "]", ancestors);
                if (refusal != null) {
                    return refusal;
                }
            }
        }
        return null;
    }

    private String map(Object value, String path, List<Object> ancestors) {
        Iterable<? extends Map.Entry<?, ?>> entries = value instanceof Map<?, ?> map ? map.entrySet()
                : value instanceof Map.Entry<?, ?> one ? List.of(one) : List.of();
        Class<?> keyType = (declared.isMapLikeType() ? declared.getKeyType() : declared.containedTypeOrUnknown(0))
                .getRawClass();
        for (Map.Entry<?, ?> entry : entries) {
            Object key = entry.getKey();
            if (stringKeys && !(key instanceof String)) {
                return at(path, "a map key " + keyText(key) + " (a " + className(key) + ") where the key type is "
                        + "Object would arrive as a String: keys travel as strings, read back as the declared key "
                        + "type; declare the key's own type (Map<" + simpleName(key) + ", …>)");
            }
            if (key != null && key.getClass() != keyType && keysMayDiffer(keyType)) {
                // adv16 A15: a Timestamp key of a Map<Date, V> arrived as a Date (map.get(sent key) null)
                return at(path, "a map key " + keyText(key) + " (a " + className(key) + ") where the key type is "
                        + keyType.getName() + " would arrive as a " + keyType.getName() + ": keys travel as their "
                        + "text, read back as the declared key type; declare the key's own type");
            }
            String refusal = contents.refusal(entry.getValue(), path + "[" + keyText(key) + "]", ancestors);
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

    /**
     * The content of an {@code Optional} or {@code AtomicReference}, the reference types the codec knows
     * (adv15 A3: an {@code AtomicReference} was not looked into, so a subclass in it arrived as the declared
     * class); any other reference type with an open part is refused rather than let through unchecked.
     */
    private String referenced(Object value, String path, List<Object> ancestors) {
        Object content;
        if (value instanceof java.util.Optional<?> optional) {
            content = optional.orElse(null);
        } else if (value instanceof java.util.concurrent.atomic.AtomicReference<?> reference) {
            content = reference.get();
        } else {
            return at(path, "a " + value.getClass().getName() + " holds a value the send-time check cannot look "
                    + "into, so it cannot tell that the value would arrive as itself; send it as an Optional or as "
                    + "the value's own type");
        }
        return contents.refusal(content, path + ".get()", ancestors);
    }

    /**
     * A part that is one of the values holding it. A list, map or reference holding itself the encoder would only find
     * a thousand levels down, with a reason naming every one of them (adv15 A5): refused here, where it refers
     * back up. A bean that refers back to itself is left to the encoder, which names it at once ("cannot
     * encode …: Direct self-reference") and fails the session, as for any value no encoder can write.
     */
    private static String referringBack(Object value, String path) {
        // adv16 A8: an AtomicReference holding itself sent Jackson's reference serializer into a
        // StackOverflowError (a raw Error out of send, the peer told nothing).
        return value instanceof List<?> || value instanceof Map<?, ?>
                || value instanceof java.util.concurrent.atomic.AtomicReference<?> ? containsItself(value, path) : null;
    }

    private static String containsItself(Object value, String path) {
        return at(path, "the value contains itself (this " + value.getClass().getName() + " is also one of the "
                + "parts that hold it): a message is a tree of values, and one that refers back up cannot be sent");
    }

    /**
     * Whether a key of the declared key type {@code type} may be of another class, which would arrive as
     * {@code type}: a concrete class that is not final ({@code Date}, {@code BigDecimal}); an enum's
     * constants with bodies are still the enum, and {@code Object} keys are checked as strings.
     */
    private static boolean keysMayDiffer(Class<?> type) {
        return type != Object.class && !type.isEnum() && !type.isInterface() && !type.isPrimitive()
                && !Modifier.isFinal(type.getModifiers()) && !Modifier.isAbstract(type.getModifiers());
    }

    /** A key as a path shows it: its text, cut short (a key's toString may be long, or throw). */
    private static String keyText(Object key) {
        String text;
        try {
            text = String.valueOf(key);
        } catch (RuntimeException e) {
            text = "?";
        }
        return text.length() > 40 ? text.substring(0, 37) + "…" : text;
    }

    private static String simpleName(Object value) {
        return value == null ? "?" : value.getClass().getSimpleName();
    }

    private String ofClass(Object value, String path, List<Object> ancestors) {
        String refusal = decoding.refusal(value);
        if (refusal != null) {
            return at(path, refusal);
        }
        for (Property property : properties.computeIfAbsent(value.getClass(), this::propertiesOf)) {
            if (property.shape().closed()) {
                continue;
            }
            Object part;
            try {
                part = property.writer().get(value);
            } catch (Exception e) {
                return null; // the encoder meets the same failure and reports it ("cannot encode …")
            }
            refusal = property.shape().refusal(part, path + "." + property.writer().getName(), ancestors);
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

    private List<Property> propertiesOf(Class<?> actual) {
        // The declared type's arguments carried over to the value's class (adv15 A29: a Put of a sealed
        // Msg<Named> walked as a raw Put had its component read as Object and every send was refused).
        JavaType type = actual == declared.getRawClass() ? declared : SmileCodec.specialized(declared, actual);
        return new Builder().properties(type);
    }

    /** A value where the declared type is {@code Object}: what the wire's untyped form gives back equal. */
    private static String untyped(Object value, String path, List<Object> ancestors) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Integer
                || value instanceof Double || value instanceof Float || value instanceof BigInteger
                || value instanceof BigDecimal) {
            return null;
        }
        if (ancestors.size() > MAX_DEPTH) {
            return at(path, "nested deeper than " + MAX_DEPTH + " levels, more than a receiver decodes");
        }
        if (value instanceof List<?> list) {
            int i = 0;
            for (Object element : list) {
                String refusal = untypedPart(element, path + "[" + i++ + "]", ancestors);
                if (refusal != null) {
                    return refusal;
                }
            }
            return null;
        }
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String)) {
                    return at(path, "a map with a " + className(entry.getKey()) + " key where the type is Object "
                            + "would arrive with String keys" + DECLARE);
                }
                String refusal = untypedPart(entry.getValue(), path + "[" + keyText(entry.getKey()) + "]", ancestors);
                if (refusal != null) {
                    return refusal;
                }
            }
            return null;
        }
        return at(path, "a " + value.getClass().getName() + " where the type is Object would arrive as "
                + untypedForm(value) + DECLARE);
    }

    /** A part of an untyped list or map, one level deeper. */
    private static String untypedPart(Object part, String path, List<Object> ancestors) {
        if (part == null) {
            return null;
        }
        if (isAncestor(part, ancestors)) {
            return referringBack(part, path);
        }
        ancestors.add(part);
        try {
            return untyped(part, path, ancestors);
        } finally {
            ancestors.remove(ancestors.size() - 1);
        }
    }

    private static final String DECLARE = " (an Object carries strings, booleans, Integer, Double, lists and "
            + "String-keyed maps of them as themselves; declare the part's own type in the protocol)";

    private static String untypedForm(Object value) {
        if (value instanceof Long || value instanceof Short || value instanceof Byte) {
            return "an Integer when it fits in an int";
        }
        if (value instanceof Character || value instanceof Enum<?>) {
            return "a String";
        }
        if (value instanceof java.util.Collection<?> || value.getClass().isArray()) {
            return "a List";
        }
        return "a Map of its properties (or the codec's plain form of it)";
    }

    private static String className(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    private static String at(String path, String reason) {
        if (path.length() > PATH_SHOWN) {
            path = path.substring(0, PATH_SHOWN / 2) + " … " + path.substring(path.length() - PATH_SHOWN / 2);
        }
        return path.isEmpty() ? reason : "at " + path + ": " + reason;
    }

    /** Builds the shapes of one type's parts, each part type once (recursive types point back). */
    private static final class Builder {
        private final Map<JavaType, ValueShape> building = new HashMap<>();

        ValueShape shape(JavaType type) {
            ValueShape known = building.get(type);
            if (known != null) {
                return known; // a recursive type: the shape being built (its parts decide)
            }
            Class<?> raw = type.getRawClass();
            if (raw.isPrimitive() || raw == String.class || raw.isEnum() || isBox(raw)) {
                return CLOSED;
            }
            if (raw == Object.class) {
                return new ValueShape(Kind.UNTYPED, null, type, null, false);
            }
            if (type.isArrayType() || type.isCollectionLikeType()) {
                return container(type, Kind.ELEMENTS);
            }
            if (type.isMapLikeType()) {
                ValueShape contents = shape(type.getContentType());
                boolean stringKeys = type.getKeyType().getRawClass() == Object.class;
                return contents.closed() && !stringKeys && !keysMayDiffer(type.getKeyType().getRawClass()) ? CLOSED
                        : new ValueShape(Kind.MAP, contents, type, null, stringKeys);
            }
            if (raw == Map.Entry.class) {
                // written as a one-entry object, its key as a map's (adv19 A7): checked as a map of one entry
                JavaType key = type.containedTypeOrUnknown(0);
                ValueShape contents = shape(type.containedTypeOrUnknown(1));
                boolean stringKeys = key.getRawClass() == Object.class;
                return contents.closed() && !stringKeys && !keysMayDiffer(key.getRawClass()) ? CLOSED
                        : new ValueShape(Kind.MAP, contents, type, null, stringKeys);
            }
            if (type.isReferenceType()) {
                return container(type, Kind.REFERENCE);
            }
            ValueShape shape = new ValueShape(Kind.CLASS, null, type, Decoding.of(raw), false);
            building.put(type, shape);
            boolean exact = raw.isRecord() || Modifier.isFinal(raw.getModifiers());
            if (exact && allClosed(properties(type))) {
                building.put(type, CLOSED);
                return CLOSED;
            }
            return shape;
        }

        private ValueShape container(JavaType type, Kind kind) {
            ValueShape contents = shape(type.getContentType());
            return contents.closed() ? CLOSED : new ValueShape(kind, contents, type, null, false);
        }

        List<Property> properties(JavaType type) {
            List<BeanPropertyWriter> writers = SmileCodec.writtenProperties(type);
            Property[] properties = new Property[writers.size()];
            for (int i = 0; i < properties.length; i++) {
                properties[i] = new Property(writers.get(i), shape(writers.get(i).getType()));
            }
            return List.of(properties);
        }

        private static boolean allClosed(List<Property> properties) {
            for (Property property : properties) {
                if (!property.shape().closed()) {
                    return false;
                }
            }
            return true;
        }

        private static boolean isBox(Class<?> raw) {
            return raw == Integer.class || raw == Long.class || raw == Double.class || raw == Float.class
                    || raw == Boolean.class || raw == Byte.class || raw == Short.class || raw == Character.class;
        }
    }
}
