package org.sessionj.processor.internal.protocol;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * Invariant: <em>every message type of a protocol is one a receiver can decode as the class that was
 * sent</em> (docs/wire-format.md, "What a value may be sent as" and "Message types"); SJ018 names the
 * first part of a message type that breaks it. The runtime asks its codec the same question when it
 * loads a protocol and refuses to run it, with the reason, so a protocol compiled without the
 * processor fails at {@code create} rather than mid-session. A type is decodable unless:
 * <ul>
 * <li>it is an interface or abstract class that is not sealed: values carry no class on the wire
 *     ({@code Object} and the JDK's collection and map types are exempt: JSON-like values and
 *     Jackson's default implementations);</li>
 * <li>it is a session endpoint of the API (a service, server socket, socket, selector or scope), which
 *     travels only as a session payload ({@code !<cbegin…>}, {@code !<?(int)…>});</li>
 * <li>it is a class the codec cannot create from a message: an inner (non-static) class, or one with
 *     neither a no-argument constructor nor a {@code @JsonCreator} or {@code @ConstructorProperties}
 *     constructor or factory (a one-argument constructor from a string, number or boolean creates one only
 *     from that single value, while the class travels as an object of its fields, unless a
 *     {@code @JsonValue} member makes it travel as that value);</li>
 * <li>it is a JDK class the codec has no decoder for (a {@code Thread}, a {@code BitSet}: the JDK
 *     keeps their state out of reach of a decoder);</li>
 * <li>it is the key type of a JDK map and its keys would not read back as themselves: keys travel as
 *     strings (a key's text, read back as the declared key type), which only strings, boxes, enums,
 *     {@code Object} (strings only, checked at the send) and the JDK's value types with a key decoder
 *     (UUID, java.time, Locale, Currency, URI, URL, Date, BigInteger, BigDecimal) survive;</li>
 * <li>a record component, a field of a class of the program (any access: the runtime writes them all),
 *     an array component, a type argument or a permitted subclass of a sealed type is one of the above.</li>
 * </ul>
 */
public final class MessageDecodability {
    /** The JDK classes (beyond collections, maps, boxes and java.time) the codec reads back. */
    private static final Set<String> JDK_DECODABLE = Set.of("java.lang.Object", "java.lang.String",
            "java.lang.StringBuilder", "java.lang.Boolean", "java.lang.Byte", "java.lang.Short",
            "java.lang.Character", "java.lang.Integer", "java.lang.Long", "java.lang.Float", "java.lang.Double",
            "java.lang.Void", "java.math.BigInteger", "java.math.BigDecimal", "java.util.UUID", "java.util.Locale",
            "java.util.Currency", "java.util.Date", "java.util.Optional", "java.util.OptionalInt",
            "java.util.OptionalLong", "java.util.OptionalDouble", "java.util.regex.Pattern", "java.net.URI",
            "java.net.URL", "java.net.InetAddress", "java.net.InetSocketAddress", "java.io.File",
            "java.util.concurrent.atomic.AtomicBoolean", "java.util.concurrent.atomic.AtomicInteger",
            "java.util.concurrent.atomic.AtomicLong", "java.util.concurrent.atomic.AtomicReference",
            "java.sql.Date", "java.sql.Time", "java.sql.Timestamp");
    private static final Set<String> SCALARS = Set.of("java.lang.String", "int", "long", "double", "boolean");
    /** The JDK classes (beyond boxes, String, Object, enums and java.time) whose keys the codec reads back. */
    private static final Set<String> JDK_KEYS = Set.of("java.util.UUID", "java.util.Locale", "java.util.Currency",
            "java.net.URI", "java.net.URL", "java.util.Date", "java.math.BigInteger", "java.math.BigDecimal");

    private MessageDecodability() {
    }

    /**
     * Why the keys of a JDK map whose key type is {@code key} ({@code arrays} array dimensions) would not
     * arrive as themselves (adv15 A4: an {@code Object} key turned from an Integer into a String, a class's
     * key came back made from its {@code toString()}, a record key could not be read back at all), or null.
     */
    public static String keyProblem(TypeElement key, int arrays) {
        String name = key.getQualifiedName().toString();
        boolean keeps = arrays == 0 && (key.getKind() == ElementKind.ENUM || name.startsWith("java.time.")
                || JDK_KEYS.contains(name) || name.equals("java.lang.Object") || name.equals("java.lang.String")
                || name.equals("java.lang.Character") || name.equals("java.lang.Boolean")
                || name.startsWith("java.lang.") && isNumberBox(name));
        return keeps ? null : keyMessage(key.getQualifiedName() + "[]".repeat(arrays));
    }

    private static String keyMessage(String keyType) {
        return "its key type '" + keyType + "' would not arrive as itself: keys travel as strings (a key is written "
                + "as its text and the receiver makes the key type from that text); use String, a box, an enum, UUID "
                + "or a java.time key, or send the entries as a list of records";
    }

    private static boolean isNumberBox(String name) {
        return switch (name) {
            case "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Float",
                 "java.lang.Double" -> true;
            default -> false;
        };
    }

    /** Whether {@code type} is a map of the JDK (its first type parameter is the key). */
    public static boolean isJdkMap(TypeElement type) {
        return type.getQualifiedName().toString().startsWith("java.util.") && isMap(type);
    }

    private static boolean isMap(TypeElement type) {
        if (type.getQualifiedName().contentEquals("java.util.Map")) {
            return true;
        }
        List<TypeMirror> supertypes = new ArrayList<>(type.getInterfaces());
        supertypes.add(type.getSuperclass());
        for (TypeMirror supertype : supertypes) {
            if (supertype instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                    && isMap(element)) {
                return true;
            }
        }
        return false;
    }

    /** Why no receiver can decode a message of {@code type}, or null if one can. */
    public static String problem(TypeElement type) {
        return problem(type, new HashSet<>());
    }

    /**
     * Why no receiver can decode a message of the raw type {@code type} (written without type arguments
     * although it declares type parameters: {@code !<Box>} for {@code record Box<T extends Runnable>(T v)}), or
     * null. A receiver decodes a component of a type variable as the variable's erasure, its first bound, so
     * that bound must be decodable too (adv13 A2).
     */
    public static String problemOfRaw(TypeElement type) {
        Set<TypeElement> seen = new HashSet<>();
        String own = problem(type, seen);
        return own != null ? own : boundsProblem(type, seen);
    }

    /** Why the first bound of one of {@code type}'s type parameters (what a raw use decodes them as) is not decodable. */
    private static String boundsProblem(TypeElement type, Set<TypeElement> seen) {
        for (TypeParameterElement parameter : type.getTypeParameters()) {
            List<? extends TypeMirror> bounds = parameter.getBounds();
            String inner = bounds.isEmpty() ? null : problem(bounds.get(0), seen);
            if (inner != null) {
                return "it is written without type arguments, so its type parameter '" + parameter.getSimpleName()
                        + "' is read as its bound, a type no peer can decode, " + inner;
            }
        }
        return null;
    }

    private static String problem(TypeElement type, Set<TypeElement> seen) {
        if (!seen.add(type)) {
            return null; // a recursive message type: its other parts are checked where first met
        }
        String own = ownProblem(type);
        if (own != null) {
            return own;
        }
        List<String> names = new ArrayList<>();
        List<TypeMirror> parts = new ArrayList<>();
        if (type.getKind() == ElementKind.RECORD) {
            for (RecordComponentElement component : type.getRecordComponents()) {
                names.add("its component '" + component.getSimpleName() + "'");
                parts.add(component.asType());
            }
        }
        if (type.getKind() == ElementKind.CLASS && !jdk(type)
                && !annotated(type, "com.fasterxml.jackson.annotation.JsonAutoDetect")) {
            // A class of the program travels as its fields, whatever their access (adv15 A21): each is a part
            // the receiver decodes as its declared type, as the runtime's load check has it.
            for (TypeElement c = type; c != null && !jdk(c); c = superclass(c)) {
                for (Element member : c.getEnclosedElements()) {
                    if (member.getKind() == ElementKind.FIELD && travels(member)) {
                        names.add("its field '" + member.getSimpleName() + "'");
                        parts.add(member.asType());
                    }
                }
            }
        }
        if (type.getModifiers().contains(Modifier.SEALED) && !type.getQualifiedName().toString().startsWith("java.")) {
            // A sealed type of the JDK (InetAddress, ZoneId) is decoded by the codec's decoder for the declared
            // type itself, not by its permitted subclasses (adv15 A16), as the runtime's check has it.
            for (TypeMirror permitted : type.getPermittedSubclasses()) {
                names.add("its permitted subclass");
                parts.add(permitted);
            }
        }
        for (int i = 0; i < parts.size(); i++) {
            String inner = problem(parts.get(i), seen);
            if (inner != null) {
                return names.get(i) + " has a type no peer can decode, " + inner;
            }
        }
        return null;
    }

    /** Why no receiver can decode a value of {@code type} (a record component's type), or null. */
    private static String problem(TypeMirror type, Set<TypeElement> seen) {
        if (type instanceof ArrayType array) {
            return problem(array.getComponentType(), seen);
        }
        if (type instanceof WildcardType wildcard) {
            // ? extends B is decoded as B; ? and ? super B as Object (JSON-like values)
            return wildcard.getExtendsBound() == null ? null : problem(wildcard.getExtendsBound(), seen);
        }
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)) {
            return null; // a primitive, or a type variable: decoded as its bound (Object: JSON-like values)
        }
        String problem = problem(element, seen);
        if (problem != null) {
            return problem.startsWith("its ") ? element.getQualifiedName() + ": " + problem
                    : "'" + element.getQualifiedName() + "': " + problem;
        }
        if (isJdkMap(element) && declared.getTypeArguments().size() == 2) {
            String key = keyProblem(declared.getTypeArguments().get(0));
            if (key != null) {
                return "'" + element.getQualifiedName() + "': " + key;
            }
        }
        for (TypeMirror argument : declared.getTypeArguments()) {
            String inner = problem(argument, seen);
            if (inner != null) {
                return inner;
            }
        }
        if (declared.getTypeArguments().isEmpty()) {
            String raw = boundsProblem(element, seen);
            if (raw != null) {
                return "'" + element.getQualifiedName() + "': " + raw;
            }
        }
        return null;
    }

    /** Whether {@code type} is a class of the JDK (whose fields are its own business: it has an encoder). */
    private static boolean jdk(TypeElement type) {
        String name = type.getQualifiedName().toString();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.");
    }

    private static TypeElement superclass(TypeElement type) {
        return type.getSuperclass() instanceof DeclaredType declared && declared.asElement() instanceof TypeElement parent
                ? parent : null;
    }

    /** Whether a field travels: not static, not transient, not {@code @JsonIgnore}d (the runtime's rule). */
    private static boolean travels(Element field) {
        return !field.getModifiers().contains(Modifier.STATIC) && !field.getModifiers().contains(Modifier.TRANSIENT)
                && !annotated(field, "com.fasterxml.jackson.annotation.JsonIgnore");
    }

    /** {@link #keyProblem(TypeElement, int)} of a key type argument (a wildcard or type variable: read as Object). */
    private static String keyProblem(TypeMirror key) {
        int arrays = 0;
        while (key instanceof ArrayType array) {
            key = array.getComponentType();
            arrays++;
        }
        if (key.getKind().isPrimitive()) {
            return keyMessage(key + "[]".repeat(arrays)); // a type argument: an array of them
        }
        if (key instanceof WildcardType wildcard && wildcard.getExtendsBound() != null) {
            return keyProblem(wildcard.getExtendsBound()); // decoded as its bound
        }
        return key instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                ? keyProblem(element, arrays) : null;
    }

    /** The problem of {@code type} itself, not of its parts. */
    private static String ownProblem(TypeElement type) {
        String name = type.getQualifiedName().toString();
        if (name.startsWith("org.sessionj.api.") && !type.getModifiers().contains(Modifier.SEALED)
                && type.getKind() == ElementKind.INTERFACE) {
            return "it is a session endpoint, which travels only as a session payload (!<cbegin…>), "
                    + "never inside a message";
        }
        if (ProtocolRegistry.undecodable(type)) {
            return "it is an interface or abstract class that is not sealed, and values carry no class on the "
                    + "wire; use a concrete, final or sealed type";
        }
        Element namingClasses = namesClasses(type);
        if (namingClasses != null) {
            return (namingClasses == type ? "it" : "its member '" + namingClasses.getSimpleName() + "'")
                    + " uses @JsonTypeInfo with class names as type ids (Id.CLASS or Id.MINIMAL_CLASS), which would "
                    + "let a peer choose which class the receiver creates; use a sealed type (its permitted classes "
                    + "travel by name), or Id.NAME with @JsonSubTypes";
        }
        if (type.getKind() != ElementKind.CLASS || type.getModifiers().contains(Modifier.ABSTRACT)) {
            return null; // an enum, record, sealed or JDK collection type, an annotation
        }
        if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.")) {
            return JDK_DECODABLE.contains(name) || name.startsWith("java.time.")
                    || ProtocolRegistry.collectionOrMap(type) ? null
                    : "it is a JDK class the codec has no decoder for; send the values it holds instead";
        }
        if (type.getNestingKind() == NestingKind.MEMBER && !type.getModifiers().contains(Modifier.STATIC)
                || type.getNestingKind() == NestingKind.LOCAL || type.getNestingKind() == NestingKind.ANONYMOUS) {
            return "it is an inner class, which a receiver cannot create without an enclosing instance; make it "
                    + "a static member class or a record";
        }
        return switch (creation(type)) {
            case FROM_PROPERTIES -> null;
            case FROM_ONE_VALUE -> "it travels as an object of its fields, but a receiver can create one only from a "
                    + "single value (its one-argument constructor): give it a no-argument constructor (any access), a "
                    + "@JsonCreator constructor whose parameters are its fields, or make it a record";
            case NONE -> "a receiver has no way to create one: give it a no-argument constructor (any access; its "
                    + "fields, whatever their access, are set back), a @JsonCreator constructor, or make it a record";
        };
    }

    /** How the codec can create an instance of a concrete class from a message. */
    private enum Creation { FROM_PROPERTIES, FROM_ONE_VALUE, NONE }

    /**
     * The element of {@code type} — the type itself or a supertype, or one of its fields, methods or
     * constructor parameters — annotated {@code @JsonTypeInfo(use = Id.CLASS)} or {@code MINIMAL_CLASS}, or
     * null (adv15 A14: the peer would name the class the receiver creates; the runtime's codec refuses such
     * ids too).
     */
    private static Element namesClasses(TypeElement type) {
        if (annotatedWithClassIds(type)) {
            return type;
        }
        for (Element member : type.getEnclosedElements()) {
            if (annotatedWithClassIds(member)) {
                return member;
            }
            if (member instanceof ExecutableElement executable) {
                for (Element parameter : executable.getParameters()) {
                    if (annotatedWithClassIds(parameter)) {
                        return member;
                    }
                }
            }
        }
        return inheritsClassIds(type) ? type : null;
    }

    /** Whether a supertype of {@code type}, at any distance, is annotated with class-name ids (Jackson inherits it). */
    private static boolean inheritsClassIds(TypeElement type) {
        List<TypeMirror> supertypes = new ArrayList<>(type.getInterfaces());
        supertypes.add(type.getSuperclass());
        for (TypeMirror supertype : supertypes) {
            if (supertype instanceof DeclaredType declared && declared.asElement() instanceof TypeElement parent
                    && (annotatedWithClassIds(parent) || inheritsClassIds(parent))) {
                return true;
            }
        }
        return false;
    }

    private static boolean annotatedWithClassIds(Element element) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName()
                    .contentEquals("com.fasterxml.jackson.annotation.JsonTypeInfo")) {
                for (var entry : mirror.getElementValues().entrySet()) {
                    if (entry.getKey().getSimpleName().contentEquals("use")
                            && entry.getValue().getValue() instanceof javax.lang.model.element.VariableElement id) {
                        String name = id.getSimpleName().toString();
                        return name.equals("CLASS") || name.equals("MINIMAL_CLASS");
                    }
                }
            }
        }
        return false;
    }

    /**
     * How the codec can create an instance of the concrete class {@code type} from a message. A class travels
     * as an object of its fields (the runtime writes every field, whatever its access), so a one-argument
     * constructor from a string, number or boolean — which the codec uses only to create one from that single
     * value — cannot read it back (adv15 A21: {@code Email(String)}, a private {@code Built(int)} behind a
     * factory compiled, created and failed at the receiver), unless a {@code @JsonValue} member makes it
     * travel as that single value.
     */
    private static Creation creation(TypeElement type) {
        boolean fromOneValue = false;
        boolean travelsAsOneValue = false;
        for (Element member : type.getEnclosedElements()) {
            if (annotated(member, "com.fasterxml.jackson.annotation.JsonValue")) {
                travelsAsOneValue = true;
            }
            if (!(member instanceof ExecutableElement executable)) {
                continue;
            }
            if (annotated(executable, "com.fasterxml.jackson.annotation.JsonCreator")) {
                return Creation.FROM_PROPERTIES;
            }
            if (executable.getKind() != ElementKind.CONSTRUCTOR) {
                continue;
            }
            int parameters = executable.getParameters().size();
            if (parameters == 0 || annotated(executable, "java.beans.ConstructorProperties")) {
                return Creation.FROM_PROPERTIES;
            }
            if (parameters == 1) {
                TypeMirror only = executable.getParameters().get(0).asType();
                String typeName = only.getKind() == TypeKind.DECLARED
                        ? ((TypeElement) ((DeclaredType) only).asElement()).getQualifiedName().toString()
                        : only.getKind().name().toLowerCase(java.util.Locale.ROOT);
                fromOneValue |= SCALARS.contains(typeName); // created from a string, number or boolean value
            }
        }
        return !fromOneValue ? Creation.NONE : travelsAsOneValue ? Creation.FROM_PROPERTIES : Creation.FROM_ONE_VALUE;
    }

    private static boolean annotated(Element element, String annotation) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(annotation)) {
                return true;
            }
        }
        return false;
    }
}
