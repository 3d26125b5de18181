package org.sessionj.api.spi;

import java.lang.invoke.MethodHandles;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Protocol descriptors compiled into classes. For every protocol interface {@code P} sj-processor
 * generates, besides the resource {@code META-INF/sessionj/protocols/<binary name of P>.sj}, a class
 * named {@code P}'s binary name followed by {@link #CLASS_SUFFIX} in {@code P}'s package, whose static
 * initialiser hands the same text to {@link #define}. The runtime loads that class and reads the text
 * with {@link #defined}: a class comes from a JDK AOT cache or CDS archive without opening a jar,
 * whereas the first resource look-up of a fresh JVM opens and indexes every jar on the class path
 * (issue 15, cold start; docs/benchmarks.md). Works in named modules too: initialising a class needs
 * no access to its package. Applications never call it.
 */
public final class ProtocolDescriptors {
    /** The suffix of a descriptor class's binary name, after its protocol's binary name. */
    public static final String CLASS_SUFFIX = "$$SJProtocol";

    /** Descriptor classes and their texts; weak keys, so that a class loader's classes can be unloaded. */
    private static final Map<Class<?>, String> DEFINED = Collections.synchronizedMap(new WeakHashMap<>());

    private ProtocolDescriptors() {
    }

    /**
     * Called by a generated descriptor class's static initialiser with its own lookup: records the
     * descriptor {@code parts} make, joined, for that class. The parts exist because a class file's
     * string constant holds at most 65,535 bytes.
     *
     * @param descriptorClass {@code MethodHandles.lookup()} in the descriptor class, which proves the
     *                        caller is that class
     * @param parts           the descriptor, in order
     * @throws IllegalArgumentException when the lookup is not a full-privilege lookup of a class whose
     *                                  name ends with {@link #CLASS_SUFFIX}
     */
    public static void define(MethodHandles.Lookup descriptorClass, String... parts) {
        Objects.requireNonNull(descriptorClass, "descriptorClass");
        Class<?> holder = descriptorClass.lookupClass();
        if (!descriptorClass.hasFullPrivilegeAccess() || !holder.getName().endsWith(CLASS_SUFFIX)
                || holder.getName().length() == CLASS_SUFFIX.length()) {
            throw new IllegalArgumentException("protocol descriptors are defined only by the classes sj-processor"
                    + " generates, each with its own MethodHandles.lookup(); found a lookup of " + holder.getName()
                    + (descriptorClass.hasFullPrivilegeAccess() ? "" : " without full privilege access"));
        }
        StringBuilder text = new StringBuilder();
        for (String part : parts) {
            text.append(Objects.requireNonNull(part, "part"));
        }
        DEFINED.put(holder, text.toString());
    }

    /**
     * The descriptor {@code descriptorClass} defined when it was initialised; empty when it defined none
     * (or was not initialised yet: load it with {@code Class.forName(name, true, loader)} first).
     *
     * @param descriptorClass a class named after its protocol with {@link #CLASS_SUFFIX}
     * @return the descriptor text, as in the protocol's {@code .sj} resource (before the {@code //} lines of its
     *         record, which say what sj-processor made it from)
     */
    public static Optional<String> defined(Class<?> descriptorClass) {
        return Optional.ofNullable(DEFINED.get(Objects.requireNonNull(descriptorClass, "descriptorClass")));
    }
}
