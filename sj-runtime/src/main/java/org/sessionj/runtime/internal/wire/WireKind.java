package org.sessionj.runtime.internal.wire;

/**
 * How a message type travels: chosen from the declared type, so values carry no type information of
 * their own beyond the item tag (docs/wire-format.md).
 */
public enum WireKind {
    INT(Tags.INT, "int"),
    LONG(Tags.LONG, "long"),
    DOUBLE(Tags.DOUBLE, "double"),
    FLOAT(Tags.FLOAT, "float"),
    BOOLEAN(Tags.BOOLEAN, "boolean"),
    BYTE(Tags.BYTE, "byte"),
    SHORT(Tags.SHORT, "short"),
    CHAR(Tags.CHAR, "char"),
    STRING(Tags.STRING, "java.lang.String"),
    BOOLEAN_ARRAY(Tags.BOOLEAN_ARRAY, "boolean[]"),
    BYTE_ARRAY(Tags.BYTE_ARRAY, "byte[]"),
    SHORT_ARRAY(Tags.SHORT_ARRAY, "short[]"),
    CHAR_ARRAY(Tags.CHAR_ARRAY, "char[]"),
    INT_ARRAY(Tags.INT_ARRAY, "int[]"),
    LONG_ARRAY(Tags.LONG_ARRAY, "long[]"),
    FLOAT_ARRAY(Tags.FLOAT_ARRAY, "float[]"),
    DOUBLE_ARRAY(Tags.DOUBLE_ARRAY, "double[]"),
    /** Any other class, record or array: Jackson Smile, decoded as the declared type. */
    OBJECT(Tags.OBJECT, "object"),
    /** A flat record ({@link RecordLayout}): its components raw, in declaration order. */
    RECORD(Tags.RECORD, "record"),
    /** A one-dimensional array of a flat record. */
    RECORD_ARRAY(Tags.RECORD_ARRAY, "record array"),
    /** A session or service as a message (delegation, service passing). */
    SESSION(Tags.SESSION, "session");

    private final byte tag;
    private final String typeName;

    WireKind(byte tag, String typeName) {
        this.tag = tag;
        this.typeName = typeName;
    }

    /** The item tag a value of this kind is written with. */
    public byte tag() {
        return tag;
    }

    /** The Java type name of this kind (for errors). */
    public String typeName() {
        return typeName;
    }

    /** Whether values are primitives written raw. */
    public boolean isPrimitive() {
        return ordinal() <= CHAR.ordinal();
    }

    /** The size in bytes of a primitive kind's value. */
    public int size() {
        return switch (this) {
            case BOOLEAN, BYTE -> 1;
            case SHORT, CHAR -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
            default -> throw new IllegalStateException(this + " is not a primitive kind");
        };
    }

    /** The wrapper class of a primitive kind. */
    public Class<?> boxed() {
        return switch (this) {
            case INT -> Integer.class;
            case LONG -> Long.class;
            case DOUBLE -> Double.class;
            case FLOAT -> Float.class;
            case BOOLEAN -> Boolean.class;
            case BYTE -> Byte.class;
            case SHORT -> Short.class;
            case CHAR -> Character.class;
            default -> throw new IllegalStateException(this + " is not a primitive kind");
        };
    }

    /** The kind of a one-dimensional array of {@code primitive}, or null for an unknown name. */
    public static WireKind arrayOf(String primitive) {
        return switch (primitive) {
            case "boolean" -> BOOLEAN_ARRAY;
            case "byte" -> BYTE_ARRAY;
            case "short" -> SHORT_ARRAY;
            case "char" -> CHAR_ARRAY;
            case "int" -> INT_ARRAY;
            case "long" -> LONG_ARRAY;
            case "float" -> FLOAT_ARRAY;
            case "double" -> DOUBLE_ARRAY;
            default -> null;
        };
    }

    /** The kind of {@code primitive}, or null for an unknown name. */
    public static WireKind primitive(String primitive) {
        return switch (primitive) {
            case "boolean" -> BOOLEAN;
            case "byte" -> BYTE;
            case "short" -> SHORT;
            case "char" -> CHAR;
            case "int" -> INT;
            case "long" -> LONG;
            case "float" -> FLOAT;
            case "double" -> DOUBLE;
            default -> null;
        };
    }
}
