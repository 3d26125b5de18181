package org.sessionj.types.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which message types travel as a <em>flat record</em> — field by field in declaration order (docs/wire-format.md,
 * {@code RECORD}), not through Jackson — one rule read by the processor's SJ018 (from the source) and by the
 * runtime (sj-runtime's RecordLayout and its load check, by reflection), so the two cannot disagree about it.
 * Jackson's annotations do nothing to a value that travels flat, so neither side asks about them there (views,
 * session 22: SJ018 refused {@code @JsonIgnoreProperties("y") record R(int x, int y)}, whose {@code y} arrives,
 * and the runtime loaded it); the same record inside a list, a map or another class travels through Jackson, and
 * both sides check it there.
 *
 * <p>A payload travels flat when it is written without type arguments, with at most one array dimension, and its
 * class is a flat record: a record whose every component is a primitive, a {@code String}, a one-dimensional
 * array of a primitive, or a flat record (no cycle), and none of whose component fields is kept to one side by
 * {@code @JsonProperty(access = READ_ONLY / WRITE_ONLY)} (adv16 A18: such a record is left to the codec, whose
 * check refuses it). Each side reads its own model of a type through a {@link Model}.
 */
public final class FlatRecords {
    private FlatRecords() {
    }

    /**
     * How one side sees a type: the processor's {@code TypeMirror}, the runtime's {@code Class}.
     *
     * @param <T> the side's type model
     */
    public interface Model<T> {
        /** The types of {@code type}'s record components in declaration order, or null if it is not a record. */
        List<T> components(T type);

        /**
         * {@code type}'s erased name: {@code int}, {@code java.lang.String}, {@code int[]} as the source writes them;
         * for a class, any name unique to it (it finds a cycle), {@code java.lang.Object} for a type variable.
         */
        String name(T type);

        /**
         * The name of the {@code access} constant of the {@code @JsonProperty} on the field of {@code record}'s
         * component number {@code index}, or null when there is none or it leaves access at its default.
         */
        String access(T record, int index);
    }

    /** The primitive types' names, each a flat component. */
    private static final Set<String> PRIMITIVES = Set.of("boolean", "byte", "short", "char", "int", "long", "float",
            "double");

    /** Whether a payload written with {@code typeArguments} type arguments and {@code arrayDimensions} may travel flat. */
    public static boolean flatShape(int typeArguments, int arrayDimensions) {
        return typeArguments == 0 && arrayDimensions <= 1;
    }

    /** Whether {@code type} is a flat record (see the class comment). */
    public static <T> boolean flat(T type, Model<T> model) {
        return flat(type, model, new HashSet<>());
    }

    private static <T> boolean flat(T type, Model<T> model, Set<String> enclosing) {
        List<T> components = model.components(type);
        String name = model.name(type);
        if (components == null || !enclosing.add(name)) {
            return false;
        }
        try {
            for (int i = 0; i < components.size(); i++) {
                T component = components.get(i);
                String access = model.access(type, i);
                if (access != null && !access.equals("AUTO") && !access.equals("READ_WRITE")) {
                    return false;
                }
                String componentName = model.name(component);
                boolean scalar = PRIMITIVES.contains(componentName) || componentName.equals("java.lang.String")
                        || componentName.endsWith("[]") && PRIMITIVES.contains(componentName.substring(0,
                                componentName.length() - 2));
                if (!scalar && !flat(component, model, enclosing)) {
                    return false;
                }
            }
            return true;
        } finally {
            enclosing.remove(name);
        }
    }
}
