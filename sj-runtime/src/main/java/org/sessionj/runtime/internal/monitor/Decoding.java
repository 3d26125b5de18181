package org.sessionj.runtime.internal.monitor;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a receiver gets back when it decodes a value of a declared message class: the same class, or
 * another one. Values carry no class of their own on the wire (docs/wire-format.md, "Message types"):
 * the receiver decodes with the declared type, so a value may be sent as a type only if decoding it
 * as that type gives the value back, on every transport alike. Invariant: <em>the class a receiver
 * gets does not depend on the transport</em> — the monitor refuses, before anything is sent, a value
 * the peer could not decode as the class it was sent as, and {@code pass} hands a reference over in
 * one JVM only where a peer in another JVM would decode an object of that very class.
 *
 * <ul>
 *   <li>{@code Object}, and the collection and map types of the JDK: any value (documented: an
 *       {@code Object} arrives as the value's JSON-like form — maps, lists, strings, numbers,
 *       booleans —, a collection as Jackson's default implementation of the declared type, a
 *       {@code Map.Entry} as an {@code AbstractMap.SimpleEntry}).</li>
 *   <li>A final class, record, enum, array, box or {@code String}: any instance (it is that class).</li>
 *   <li>A sealed class or interface: an instance of one of its permitted subclasses, closed under
 *       permitted subclasses; the encoder writes which one and the decoder accepts only those. A
 *       {@code non-sealed} subclass in the hierarchy counts with its own class only.</li>
 *   <li>An abstract JDK class of sj-api's JdkMessageTypes.VALUES ({@code TimeZone}, {@code Path},
 *       {@code Charset}): any value; it travels as text and arrives as the JDK's own class for it.</li>
 *   <li>Any other interface or abstract class ({@code Number}, {@code CharSequence}, a user's open
 *       interface): nothing — no peer can decode one.</li>
 *   <li>Any other class: exactly that class (a subclass would arrive as the declared class, or fail
 *       to decode for its extra properties).</li>
 * </ul>
 */
final class Decoding {
    private enum Kind { ANY, SEALED, NONE, SAME_CLASS }

    private final Class<?> declared;
    private final Kind kind;
    /** For a sealed type: its concrete (or non-sealed) permitted subclasses, transitively. */
    private final Set<Class<?>> permitted;

    private Decoding(Class<?> declared, Kind kind, Set<Class<?>> permitted) {
        this.declared = declared;
        this.kind = kind;
        this.permitted = permitted;
    }

    /** The decoding of values of the (boxed, erased) declared class. */
    static Decoding of(Class<?> declared) {
        if (declared == Object.class || declared.isArray() || declared.isPrimitive() || declared.isEnum()
                || java.lang.reflect.Modifier.isFinal(declared.getModifiers()) || declared.isRecord()
                || declared.getName().startsWith("java.")
                        && (Collection.class.isAssignableFrom(declared) || Map.class.isAssignableFrom(declared))
                || declared == Map.Entry.class) {
            return new Decoding(declared, Kind.ANY, Set.of());
        }
        if (declared.isSealed() && !declared.getName().startsWith("java.")) {
            return new Decoding(declared, Kind.SEALED, closure(declared));
        }
        if (declared.isSealed()) {
            return new Decoding(declared, Kind.ANY, Set.of()); // the JDK's own (ZoneId): Jackson's modules decode them
        }
        boolean open = declared.isInterface() || java.lang.reflect.Modifier.isAbstract(declared.getModifiers());
        if (open && org.sessionj.types.internal.JdkMessageTypes.VALUES.containsKey(declared.getName())) {
            // TimeZone, Path, Charset: travel as text and are read back as the JDK's own class for it (adv19 A7)
            return new Decoding(declared, Kind.ANY, Set.of());
        }
        return new Decoding(declared, open ? Kind.NONE : Kind.SAME_CLASS, Set.of());
    }

    /** The concrete and non-sealed classes below a sealed one, through its permitted subclasses. */
    private static Set<Class<?>> closure(Class<?> sealed) {
        Set<Class<?>> found = new LinkedHashSet<>();
        Deque<Class<?>> pending = new ArrayDeque<>();
        pending.push(sealed);
        Set<Class<?>> seen = new java.util.HashSet<>();
        while (!pending.isEmpty()) {
            Class<?> type = pending.pop();
            if (!seen.add(type)) {
                continue;
            }
            if (!type.isInterface() && !java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
                found.add(type); // a concrete sealed class is a value's class too
            }
            Class<?>[] subclasses = type.isSealed() ? type.getPermittedSubclasses() : null;
            if (subclasses != null) {
                for (Class<?> subclass : subclasses) {
                    pending.push(subclass);
                }
            }
        }
        return found;
    }

    /**
     * Why a value of {@code value}'s class cannot be sent as the declared class, or null if it can
     * (the caller checked it is an instance).
     */
    String refusal(Object value) {
        Class<?> actual = value.getClass();
        return switch (kind) {
            case ANY -> null;
            case SEALED -> permitted.contains(actual) ? null : "a " + actual.getName() + " is not one of the permitted "
                    + "subclasses of the sealed " + declared.getName() + " " + names(permitted)
                    + ", the only classes its receiver decodes";
            case NONE -> "no peer can decode a " + declared.getName() + ": it is an interface or abstract class that is "
                    + "not sealed, and values carry no class on the wire; use a concrete, final or sealed message type";
            case SAME_CLASS -> actual == declared ? null : "a " + actual.getName() + " would arrive as a "
                    + declared.getName() + " (values are decoded as the declared class); send it as its own type, or "
                    + "make " + declared.getSimpleName() + " sealed";
        };
    }

    /**
     * Whether {@code value} (accepted) can be handed over by reference in one JVM: a receiver in
     * another JVM would decode an object of its very class.
     */
    boolean keepsClass(Object value) {
        Class<?> actual = value.getClass();
        return actual == declared || kind == Kind.SEALED && permitted.contains(actual)
                || declared.isEnum() && value instanceof Enum<?> constant && constant.getDeclaringClass() == declared;
    }

    private static String names(Set<Class<?>> classes) {
        StringBuilder out = new StringBuilder("(");
        for (Class<?> type : classes) {
            out.append(out.length() > 1 ? ", " : "").append(type.getName());
        }
        return out.append(')').toString();
    }
}
