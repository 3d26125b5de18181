package org.sessionj.runtime.internal.wire;

import org.sessionj.types.Payload;

/** Loads the {@link Class} of a resolved message type (binary class names). */
public final class TypeClasses {
    private TypeClasses() {
    }

    /** The erased class of {@code type}; primitives give their primitive class. */
    public static Class<?> load(Payload.JavaType type, ClassLoader loader) throws ClassNotFoundException {
        if (type.isArray()) {
            return load(type.componentType(), loader).arrayType();
        }
        return switch (type.name()) {
            case "boolean" -> boolean.class;
            case "byte" -> byte.class;
            case "short" -> short.class;
            case "char" -> char.class;
            case "int" -> int.class;
            case "long" -> long.class;
            case "float" -> float.class;
            case "double" -> double.class;
            default -> Class.forName(type.name(), false, loader);
        };
    }

    /** The wrapper of a primitive class, or the class itself. */
    public static Class<?> boxed(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return switch (type.getName()) {
            case "boolean" -> Boolean.class;
            case "byte" -> Byte.class;
            case "short" -> Short.class;
            case "char" -> Character.class;
            case "int" -> Integer.class;
            case "long" -> Long.class;
            case "float" -> Float.class;
            default -> Double.class;
        };
    }
}
