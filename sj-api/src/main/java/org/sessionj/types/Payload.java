package org.sessionj.types;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/** What a message carries: a Java value, or a session (delegation, service passing). */
public sealed interface Payload {

    /**
     * A Java type carried by value: a primitive ({@code int}), a class or interface name as written
     * or, once resolved, fully qualified ({@code String}, {@code List}), with type
     * arguments ({@code List<String>}) and array dimensions ({@code double[][]}).
     *
     * @param name the primitive keyword or the (simple or qualified) class name, without type arguments
     * @param typeArguments type arguments, empty when none
     * @param arrayDimensions the number of {@code []} after the type
     */
    record JavaType(String name, List<JavaType> typeArguments, int arrayDimensions) implements Payload {
        private static final Set<String> PRIMITIVES =
                Set.of("boolean", "byte", "short", "char", "int", "long", "float", "double");

        public JavaType {
            Objects.requireNonNull(name, "name");
            typeArguments = List.copyOf(typeArguments);
            if (arrayDimensions < 0) {
                throw new IllegalArgumentException("negative array dimensions: " + arrayDimensions);
            }
        }

        /*
         * equals and hashCode written out: types are hashed and compared constantly while a program is
         * checked, and a record's generated ones go through an invokedynamic bootstrap and method-handle
         * chains that a processor loaded afresh for every compilation runs cold (slow, interpreted).
         */
        @Override
        public boolean equals(Object other) {
            return other instanceof JavaType that && arrayDimensions == that.arrayDimensions && name.equals(that.name)
                    && typeArguments.equals(that.typeArguments);
        }

        @Override
        public int hashCode() {
            return (name.hashCode() * 31 + typeArguments.hashCode()) * 31 + arrayDimensions;
        }

        /** A non-generic, non-array type such as {@code int} or {@code java.lang.String}. */
        public static JavaType of(String name) {
            return new JavaType(name, List.of(), 0);
        }

        /** Whether this is one of the eight primitive types (not an array of them). */
        public boolean isPrimitive() {
            return arrayDimensions == 0 && PRIMITIVES.contains(name);
        }

        /** Whether this is an array type. */
        public boolean isArray() {
            return arrayDimensions > 0;
        }

        /** The type of this array's elements; fails if this is not an array. */
        public JavaType componentType() {
            if (arrayDimensions == 0) {
                throw new IllegalStateException(this + " is not an array type");
            }
            return new JavaType(name, typeArguments, arrayDimensions - 1);
        }

        /** This type without type arguments (arrays keep their dimensions). */
        public JavaType erasure() {
            return typeArguments.isEmpty() ? this : new JavaType(name, List.of(), arrayDimensions);
        }

        /** The canonical Java spelling, e.g. {@code java.util.Map<String, int[]>[]}. */
        @Override
        public String toString() {
            StringBuilder out = new StringBuilder(name);
            if (!typeArguments.isEmpty()) {
                out.append('<');
                for (int i = 0; i < typeArguments.size(); i++) {
                    out.append(i == 0 ? "" : ", ").append(typeArguments.get(i));
                }
                out.append('>');
            }
            out.append("[]".repeat(arrayDimensions));
            return out.toString();
        }
    }

    /**
     * A session as a message. Without a leading {@code cbegin} it is delegation
     * ({@code !<@(P)>}: the session itself moves); with one, it is service passing
     * ({@code !<cbegin.@(P)>}: an {@code SJService} whose sessions have that type).
     */
    record SessionPayload(SessionType type) implements Payload {
        public SessionPayload {
            Objects.requireNonNull(type, "type");
        }

        // Written out for the reason given on Action: no invokedynamic link on first use.
        @Override
        public boolean equals(Object other) {
            return other instanceof SessionPayload that && type.equals(that.type);
        }

        @Override
        public int hashCode() {
            return type.hashCode();
        }

        /** Whether this payload is a service ({@code cbegin.…}) rather than a delegated session. */
        public boolean isService() {
            return !type.isEnd() && type.head() instanceof Action.Begin b && b.side() == Side.REQUEST;
        }
    }
}
