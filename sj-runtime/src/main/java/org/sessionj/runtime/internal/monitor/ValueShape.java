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

    private enum Kind { CLOSED, UNTYPED, ELEMENTS, MAP_VALUES, OPTIONAL, CLASS }

    private static final ValueShape CLOSED = new ValueShape(Kind.CLOSED, null, null, null);

    private final Kind kind;
    /** For {@link Kind#ELEMENTS}, {@link Kind#MAP_VALUES} and {@link Kind#OPTIONAL}: the contents' shape. */
    private final ValueShape contents;
    /** For {@link Kind#CLASS}: the declared type and which classes may stand for it. */
    private final JavaType declared;
    private final Decoding decoding;
    /** For {@link Kind#CLASS}: the properties written for each class a value may have (computed on first use). */
    private final Map<Class<?>, List<Property>> properties = new ConcurrentHashMap<>();

    private ValueShape(Kind kind, ValueShape contents, JavaType declared, Decoding decoding) {
        this.kind = kind;
        this.contents = contents;
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
     * {@code ancestors}: the values on the way down to this part (its depth is their number). A part that
     * is one of them makes the value refer to itself: the encoder refuses that with its own reason
     * ("cannot encode …: self-reference"), so the walk leaves it there.
     */
    private String refusal(Object value, String path, List<Object> ancestors) {
        if (value == null || kind == Kind.CLOSED || isAncestor(value, ancestors)) {
            return null;
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
                case MAP_VALUES -> mapValues(value, path, ancestors);
                case OPTIONAL -> value instanceof java.util.Optional<?> optional && optional.isPresent()
                        ? contents.refusal(optional.get(), path + ".get()", ancestors) : null;
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

    private String mapValues(Object value, String path, List<Object> ancestors) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String refusal = contents.refusal(entry.getValue(), path + "[" + entry.getKey() + "]", ancestors);
                if (refusal != null) {
                    return refusal;
                }
            }
        }
        return null;
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
        JavaType type = actual == declared.getRawClass() ? declared : SmileCodec.jacksonType(actual);
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
                String refusal = untypedPart(entry.getValue(), path + "[" + entry.getKey() + "]", ancestors);
                if (refusal != null) {
                    return refusal;
                }
            }
            return null;
        }
        return at(path, "a " + value.getClass().getName() + " where the type is Object would arrive as "
                + untypedForm(value) + DECLARE);
    }

    /** A part of an untyped list or map, one level deeper (one that refers back up is the encoder's to refuse). */
    private static String untypedPart(Object part, String path, List<Object> ancestors) {
        if (part == null || isAncestor(part, ancestors)) {
            return null;
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
                return new ValueShape(Kind.UNTYPED, null, type, null);
            }
            if (type.isArrayType() || type.isCollectionLikeType()) {
                return container(type, Kind.ELEMENTS);
            }
            if (type.isMapLikeType()) {
                return container(type, Kind.MAP_VALUES);
            }
            if (type.isReferenceType()) {
                return container(type, Kind.OPTIONAL);
            }
            ValueShape shape = new ValueShape(Kind.CLASS, null, type, Decoding.of(raw));
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
            return contents.closed() ? CLOSED : new ValueShape(kind, contents, type, null);
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
