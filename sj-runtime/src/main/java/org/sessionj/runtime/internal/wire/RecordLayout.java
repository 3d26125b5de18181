package org.sessionj.runtime.internal.wire;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.types.internal.FlatRecords;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The binary layout of a <em>flat record</em>: a record class whose components are primitives,
 * strings, one-dimensional arrays of primitives or flat records (no cycles). Such values travel field by field in declaration order
 * (docs/wire-format.md, {@code RECORD}), not through Jackson. The layout's {@link #fingerprint()}
 * travels with every value, so two runtimes with different versions of the class fail cleanly
 * instead of misreading each other's fields.
 */
public final class RecordLayout {
    private static final ConcurrentHashMap<Class<?>, RecordLayout> LAYOUTS = new ConcurrentHashMap<>();
    private static final RecordLayout NOT_FLAT = new RecordLayout();

    /** How one component travels. */
    enum Kind { BOOLEAN, BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE, STRING, ARRAY, RECORD }

    /**
     * One record component.
     *
     * @param kind how it travels
     * @param getter reads the component's field, typed {@code (Object)p} for a primitive {@code p} (no boxing),
     *     {@code (Object)Object} otherwise
     * @param nested the layout of a {@link Kind#RECORD} component; null otherwise
     * @param array the wire kind of an {@link Kind#ARRAY} component (a primitive array, as {@link ValueCodec}
     *     writes it in an array item); null otherwise
     */
    record Component(Kind kind, MethodHandle getter, RecordLayout nested, WireKind array) {
    }

    private final Class<?> type;
    /**
     * Reads the components in declaration order and calls the canonical constructor, typed
     * {@code (Frame)Object}: one method-handle chain per layout, so primitives are never boxed.
     */
    private final MethodHandle reader;
    /**
     * Writes the components in declaration order, typed {@code (Frame, Object)void}: one method-handle
     * chain per layout, as {@link #reader} is. One handle rather than a call per component: a call site
     * that invokes a handle it reads from a field is customised per handle once it is warm (a class spun
     * for each), and compiled code cannot inline through it; with one chain a message costs one such
     * call per value, and the first messages one spun class per layout instead of one per component.
     */
    private final MethodHandle writer;
    /** Bytes of one present value when every component is a primitive (presence byte included); -1 otherwise. */
    private final int fixedBytes;
    private final String description;
    private final int fingerprint;
    /** Set by the first {@link RecordCodec#prime}: a layout's chains are spun up once per JVM. */
    private final java.util.concurrent.atomic.AtomicBoolean primed = new java.util.concurrent.atomic.AtomicBoolean();

    private RecordLayout() {
        this.type = null;
        this.reader = null;
        this.writer = null;
        this.fixedBytes = -1;
        this.description = null;
        this.fingerprint = 0;
    }

    private RecordLayout(Class<?> type, MethodHandle reader, MethodHandle writer, int fixedBytes, String description) {
        this.type = type;
        this.reader = reader;
        this.writer = writer;
        this.fixedBytes = fixedBytes;
        this.description = description;
        this.fingerprint = description.hashCode();
    }

    /** The layout of {@code type}, or null when it is not a flat record (or its members cannot be reached). */
    public static RecordLayout of(Class<?> type) {
        RecordLayout known = LAYOUTS.get(type);
        if (known == null) {
            // sj-api's FlatRecords decides which records travel flat, as the processor's SJ018 reads it (a flat
            // record never meets Jackson, so neither side asks about its Jackson annotations); analyse only fails
            // for members it cannot reach (then Jackson gets its chance).
            RecordLayout analysed = FlatRecords.flat(type, CLASSES) ? analyse(type, new HashSet<>()) : null;
            known = LAYOUTS.computeIfAbsent(type, t -> analysed == null ? NOT_FLAT : analysed);
        }
        return known == NOT_FLAT ? null : known;
    }

    /**
     * The runtime's view of a type for {@link FlatRecords}: a record's component types, a class's type name, a
     * component field's {@code @JsonProperty} access (a component kept to one side, adv16 A18, is left to the
     * codec, whose load check refuses it as it refuses the same record inside a list, and as SJ018 does).
     */
    private static final FlatRecords.Model<Class<?>> CLASSES = new FlatRecords.Model<>() {
        @Override
        public List<Class<?>> components(Class<?> type) {
            if (!type.isRecord()) {
                return null;
            }
            List<Class<?>> types = new ArrayList<>();
            for (RecordComponent component : type.getRecordComponents()) {
                types.add(component.getType());
            }
            return types;
        }

        @Override
        public String name(Class<?> type) {
            return type.getTypeName();
        }

        @Override
        public String access(Class<?> record, int index) {
            try {
                com.fasterxml.jackson.annotation.JsonProperty property = record.getDeclaredField(
                        record.getRecordComponents()[index].getName())
                        .getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
                return property == null ? null : property.access().name();
            } catch (NoSuchFieldException | RuntimeException unreadable) {
                return "UNREADABLE"; // not flat: Jackson gets its chance, as for members analyse cannot reach
            }
        }
    };

    private static RecordLayout analyse(Class<?> type, Set<Class<?>> enclosing) {
        if (!type.isRecord() || !enclosing.add(type)) {
            return null;
        }
        try {
            RecordComponent[] declared = type.getRecordComponents();
            Component[] components = new Component[declared.length];
            Class<?>[] parameterTypes = new Class<?>[declared.length];
            List<String> fields = new ArrayList<>(declared.length);
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (int i = 0; i < declared.length; i++) {
                Class<?> componentType = declared[i].getType();
                parameterTypes[i] = componentType;
                Kind kind = kindOf(componentType);
                RecordLayout nested = null;
                if (kind == Kind.RECORD) {
                    nested = analyse(componentType, enclosing);
                }
                if (kind == null || kind == Kind.RECORD && nested == null) {
                    return null;
                }
                // The component's field, not its accessor: a record travels as the values its canonical
                // constructor stored, so an accessor that computes (v() { return v * 2; }) does not change the
                // value on every hop (adv15 A22), as Java serialization reads a record's fields too.
                Field field = type.getDeclaredField(declared[i].getName());
                field.setAccessible(true);
                Class<?> carried = componentType.isPrimitive() ? componentType : Object.class;
                MethodHandle getter = lookup.unreflectGetter(field).asType(MethodType.methodType(carried, Object.class));
                WireKind array = kind == Kind.ARRAY ? WireKind.arrayOf(componentType.componentType().getName()) : null;
                components[i] = new Component(kind, getter, nested, array);
                fields.add(declared[i].getName() + ":" + (nested != null ? nested.description
                        : kind == Kind.ARRAY ? componentType.getTypeName() : componentType.getName()));
            }
            Constructor<?> canonical = type.getDeclaredConstructor(parameterTypes);
            canonical.setAccessible(true);
            // (t0 … tn−1, Frame) → folding component i's reader at position i, from the last to the
            // first, gives (Frame); the outermost fold (component 0) runs first, so reads go in order.
            MethodHandle reader = MethodHandles.dropArguments(lookup.unreflectConstructor(canonical),
                    declared.length, Frame.class);
            for (int i = declared.length - 1; i >= 0; i--) {
                reader = MethodHandles.foldArguments(reader, i, componentReader(lookup, components[i], parameterTypes[i]));
            }
            // (Frame, Object)void doing nothing; folding component i's writer in front of it, from the
            // last to the first, gives the chain that writes them in order.
            MethodHandle writer = MethodHandles.empty(MethodType.methodType(void.class, Frame.class, Object.class));
            int fixedBytes = 1;
            for (int i = declared.length - 1; i >= 0; i--) {
                writer = MethodHandles.foldArguments(writer, componentWriter(lookup, components[i], parameterTypes[i]));
                int size = primitiveBytes(parameterTypes[i]);
                fixedBytes = fixedBytes < 0 || size < 0 ? -1 : fixedBytes + size;
            }
            return new RecordLayout(type, reader.asType(MethodType.methodType(Object.class, Frame.class)),
                    writer, fixedBytes, type.getName() + "(" + String.join(",", fields) + ")");
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Unreachable members (a module that does not open the package): Jackson gets its chance instead.
            return null;
        } finally {
            enclosing.remove(type);
        }
    }

    /** Reads one component's value from the buffer: {@code (Frame)t}. */
    private static MethodHandle componentReader(MethodHandles.Lookup lookup, Component component, Class<?> type)
            throws ReflectiveOperationException {
        return switch (component.kind()) {
            case STRING -> lookup.findStatic(ValueCodec.class, "readString", MethodType.methodType(String.class,
                    Frame.class));
            case ARRAY -> MethodHandles.insertArguments(lookup.findStatic(ValueCodec.class, "readArray",
                    MethodType.methodType(Object.class, Frame.class, WireKind.class)), 1, component.array())
                    .asType(MethodType.methodType(type, Frame.class));
            case RECORD -> MethodHandles.insertArguments(lookup.findStatic(RecordCodec.class, "readValue",
                    MethodType.methodType(Object.class, Frame.class, RecordLayout.class)), 1, component.nested())
                    .asType(MethodType.methodType(type, Frame.class));
            default -> lookup.findVirtual(Frame.class, "read" + Character.toUpperCase(type.getName().charAt(0))
                    + type.getName().substring(1), MethodType.methodType(type));
        };
    }

    /**
     * Writes one component of a value: {@code (Frame, Object)void}, the component read with its
     * field getter (which throws ClassCastException for a value of another class) and written as
     * {@link RecordCodec} documents.
     */
    private static MethodHandle componentWriter(MethodHandles.Lookup lookup, Component component, Class<?> type)
            throws ReflectiveOperationException {
        Class<?> carried = type.isPrimitive() ? type : Object.class;
        MethodHandle write = switch (component.kind()) {
            case STRING -> lookup.findStatic(ValueCodec.class, "writeText", MethodType.methodType(void.class,
                    Frame.class, String.class)).asType(MethodType.methodType(void.class, Frame.class, Object.class));
            case ARRAY -> MethodHandles.insertArguments(lookup.findStatic(ValueCodec.class, "writeArray",
                    MethodType.methodType(void.class, Frame.class, WireKind.class, Object.class)), 1, component.array());
            case RECORD -> MethodHandles.insertArguments(lookup.findStatic(RecordCodec.class, "writeValue",
                    MethodType.methodType(void.class, Frame.class, RecordLayout.class, Object.class)), 1,
                    component.nested());
            // Frame.writeDouble(double) and the like return the buffer: dropped.
            default -> lookup.findVirtual(Frame.class, "write" + Character.toUpperCase(type.getName().charAt(0))
                    + type.getName().substring(1), MethodType.methodType(Frame.class, writeParameter(type)))
                    .asType(MethodType.methodType(void.class, Frame.class, type));
        };
        // (Frame, carried) → (Frame, Object): the field getter turns the value into the component.
        return MethodHandles.filterArguments(write.asType(MethodType.methodType(void.class, Frame.class, carried)), 1,
                component.getter());
    }

    /** The parameter type of Frame's writer of {@code type}: writeByte, writeShort and writeChar take an int. */
    private static Class<?> writeParameter(Class<?> type) {
        return type == byte.class || type == short.class || type == char.class ? int.class : type;
    }

    /** The bytes a primitive component takes on the wire, -1 for any other component. */
    private static int primitiveBytes(Class<?> type) {
        if (!type.isPrimitive()) {
            return -1;
        }
        return type == boolean.class || type == byte.class ? 1
                : type == short.class || type == char.class ? 2
                : type == int.class || type == float.class ? 4 : 8;
    }

    private static Kind kindOf(Class<?> type) {
        if (type.isPrimitive()) {
            return Kind.valueOf(type.getName().toUpperCase(java.util.Locale.ROOT));
        }
        if (type == String.class) {
            return Kind.STRING;
        }
        if (type.isArray() && type.componentType().isPrimitive()) {
            return Kind.ARRAY;
        }
        return type.isRecord() ? Kind.RECORD : null;
    }

    /** The record class. */
    public Class<?> type() {
        return type;
    }

    /**
     * Reads the components (after the presence byte) and constructs the value. Throws what the reads
     * throw ({@link MalformedInputException}, {@link IndexOutOfBoundsException} at the end of the
     * buffer) and whatever the record's constructor throws.
     */
    Object read(Frame in) throws Throwable {
        return (Object) reader.invokeExact(in);
    }

    /**
     * Writes the components of {@code value} (after the presence byte). Throws ClassCastException for a
     * value of another class, (an accessor is never called).
     */
    void write(Frame out, Object value) throws Throwable {
        writer.invokeExact(out, value);
    }

    /** Whether {@link RecordCodec#prime} has run (or is running) for this layout. */
    public boolean primed() {
        return primed.get();
    }

    /** True for the first caller only: that caller primes this layout's chains ({@link RecordCodec#prime}). */
    boolean claimPriming() {
        return primed.compareAndSet(false, true);
    }

    /** The bytes of one present value (presence byte included) when every component is a primitive; -1 otherwise. */
    int fixedBytes() {
        return fixedBytes;
    }

    /** The class and its components, recursively: what the fingerprint is computed from. */
    public String description() {
        return description;
    }

    /** A hash of the {@link #description()} ({@link String#hashCode()}, stable across JVMs). */
    public int fingerprint() {
        return fingerprint;
    }

    @Override
    public String toString() {
        return description;
    }
}
