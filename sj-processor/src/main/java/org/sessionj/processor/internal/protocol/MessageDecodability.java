package org.sessionj.processor.internal.protocol;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.sessionj.types.internal.JdkMessageTypes;
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
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Types;

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
 * <li>it is a JDK class outside sj-api's JdkMessageTypes.VALUES, the classes the codec reads back as
 *     sent and safely from a peer (a {@code Thread}, a {@code BitSet}: the JDK keeps their state out of reach
 *     of a decoder), or one its REFUSED table gives a reason for ({@code Class}: a peer's text would be
 *     loaded; {@code URL}: its equals looks the host up; {@code Calendar}: its zone does not travel); the
 *     runtime's load check reads the same table (adv19 A7);</li>
 * <li>it is the key type of a JDK map and its keys would not read back as themselves: keys travel as
 *     strings (a key's text, read back as the declared key type), which only strings, boxes, enums,
 *     {@code Object} (strings only, checked at the send) and the JDK's value types with a key decoder
 *     (UUID, java.time, Locale, Currency, URI, Date, BigInteger, BigDecimal: JdkMessageTypes.KEYS) survive;</li>
 * <li>a Jackson annotation keeps a value from arriving as sent ({@code @JsonIgnore} on an accessor of a
 *     field that travels, two fields under one name, an unpaired {@code @JsonAnyGetter}, and annotations
 *     neither check follows: {@link MessageAnnotations}, adv20 A5);</li>
 * <li>a member of a class of the program is kept to one side by {@code @JsonProperty(access = READ_ONLY)}
 *     or {@code WRITE_ONLY}, or a field hides a superclass's field of the same name: its value would not
 *     arrive (adv16 A18, adv17 A7);</li>
 * <li>a record component, a field of a class of the program (any access: the runtime writes them all),
 *     an array component, a type argument or a permitted subclass of a sealed type is one of the above,
 *     with the type's arguments put in for its type variables (adv16 A9).</li>
 * </ul>
 * The runtime's load check (sj-runtime's Decodability) decides the same; sj-crosscheck's
 * MessageTypeAgreementTest runs both on the same classes.
 */
public final class MessageDecodability {
    private MessageDecodability() {
    }

    /**
     * Why the keys of a JDK map whose key type is {@code key} ({@code arrays} array dimensions) would not
     * arrive as themselves (adv15 A4: an {@code Object} key turned from an Integer into a String, a class's
     * key came back made from its {@code toString()}, a record key could not be read back at all), or null.
     */
    private static String keyProblem(TypeElement key, int arrays) {
        String name = key.getQualifiedName().toString();
        // the JDK's key types: sj-api's JdkMessageTypes.KEYS, which the runtime's load check reads too
        boolean keeps = arrays == 0 && (key.getKind() == ElementKind.ENUM || JdkMessageTypes.KEYS.contains(name));
        return keeps ? null : keyMessage(key.getQualifiedName() + "[]".repeat(arrays));
    }

    private static String keyMessage(String keyType) {
        return "its key type '" + keyType + "' would not arrive as itself: keys travel as strings (a key is written "
                + "as its text and the receiver makes the key type from that text); use String, a box, an enum, UUID "
                + "or a java.time key, or send the entries as a list of records";
    }

    /** Whether {@code type} is a map of the JDK (its first type parameter is the key). */
    public static boolean isJdkMap(TypeElement type) {
        return type.getQualifiedName().toString().startsWith("java.util.") && isMap(type);
    }

    /**
     * Whether {@code type} is {@code Map.Entry}: the codec writes an entry as a one-entry object (its key as the
     * object's key text) and reads it back as an {@code AbstractMap.SimpleEntry} (adv19 A7), so it is decoded,
     * with its key under the rules of a map's keys.
     */
    private static boolean isMapEntry(TypeElement type) {
        return type.getQualifiedName().contentEquals("java.util.Map.Entry");
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

    /**
     * Why no receiver can decode a message of {@code type} (the payload as the protocol writes it: a class with
     * its type arguments, an array of one, a primitive), or null if one can. One walk through the parts a
     * receiver decodes — record components, fields, permitted subclasses, array components, type arguments,
     * map keys — with the type arguments substituted wherever it descends (adv16 A9 and its addendum:
     * {@code !<Box<Pt>>} for {@code class Box<K> { Map<K, Integer> m; }} has {@code Pt} keys, as has
     * {@code !<Msg<Pt>>} for {@code sealed interface Msg<K> permits Put} and {@code record Put<K>(Map<K,
     * Integer> m) implements Msg<K>}; a raw {@code !<R>} reads each type parameter as its first bound), as
     * the runtime's codec decodes them. A payload that travels as a flat record (sj-api's FlatRecords: a record of
     * primitives, strings, primitive arrays and flat records, written without type arguments, at most one array
     * dimension) has none: it travels field by field, never through Jackson, and the runtime asks nothing of it.
     */
    public static String problem(TypeMirror type, Types types) {
        if (FlatRecordMirrors.travelsFlat(type, types)) {
            return null; // field by field, never through Jackson: sj-api's FlatRecords, as the runtime has it
        }
        while (type instanceof ArrayType array) {
            type = array.getComponentType();
        }
        return type instanceof DeclaredType declared ? new Walk(types).withArguments(declared) : null;
    }

    /** One walk through a message type's parts (its own memory of the types met, for recursive types). */
    private static final class Walk {
        /** Deeper than any message type a program writes; stops a type that grows as it recurses ({@code Node<List<T>>}). */
        private static final int MAX_DEPTH = 64;
        private final Types types;
        private final Set<String> seen = new HashSet<>();
        private int depth;

        Walk(Types types) {
            this.types = types;
        }

        /** Why a part of the declared type {@code type} cannot be decoded, or null (the problem not yet named). */
        String declared(DeclaredType type) {
            TypeElement element = (TypeElement) type.asElement();
            String raw = "";
            if (type.getTypeArguments().isEmpty() && !element.getTypeParameters().isEmpty()) {
                if (!seen.add("raw " + element.getQualifiedName())) {
                    return null; // a bound that names the type itself (Node<T extends Node<T>>)
                }
                // Written without type arguments: the codec reads each type parameter as its first bound (adv13 A2).
                List<TypeMirror> bounds = new ArrayList<>();
                for (TypeParameterElement parameter : element.getTypeParameters()) {
                    TypeMirror bound = types.erasure(parameter.getBounds().isEmpty() ? parameter.asType()
                            : parameter.getBounds().get(0));
                    String inner = nested(bound);
                    if (inner != null) {
                        return "it is written without type arguments, so its type parameter '"
                                + parameter.getSimpleName() + "' is read as its bound, a type no peer can decode, "
                                + inner;
                    }
                    bounds.add(bound);
                }
                type = declaredType(element, bounds);
                raw = "it is written without type arguments (each type parameter read as its bound), and ";
            }
            if (!seen.add(type.toString()) || depth > MAX_DEPTH) {
                return null; // a recursive message type: its other parts are checked where first met
            }
            depth++;
            try {
                String own = ownProblem(element);
                if (own != null) {
                    return own;
                }
                List<String> names = new ArrayList<>();
                List<TypeMirror> parts = new ArrayList<>();
                parts(type, element, names, parts);
                for (int i = 0; i < parts.size(); i++) {
                    String inner = nested(parts.get(i));
                    if (inner != null) {
                        return raw + names.get(i) + " has a type no peer can decode, " + inner;
                    }
                }
                List<? extends TypeMirror> arguments = type.getTypeArguments();
                String key = (isJdkMap(element) || isMapEntry(element)) && arguments.size() == 2
                        ? keyProblem(arguments.get(0)) : null;
                return key != null || arguments.isEmpty() ? key : sortedProblem(element, arguments.get(0));
            } finally {
                depth--;
            }
        }

        /** {@link #declared} of {@code type}, else the first problem of its type arguments (each naming its class). */
        String withArguments(DeclaredType type) {
            String own = declared(type);
            return own != null ? own : arguments(type);
        }

        private String arguments(DeclaredType type) {
            for (TypeMirror argument : type.getTypeArguments()) {
                String inner = nested(argument);
                if (inner != null) {
                    return inner;
                }
            }
            return null;
        }

        /** Why a value of {@code type}, a part of a message, cannot be decoded (its class named), or null. */
        private String nested(TypeMirror type) {
            if (type instanceof ArrayType array) {
                return nested(array.getComponentType());
            }
            if (type instanceof WildcardType wildcard) {
                // ? extends B is decoded as B; ? and ? super B as Object (JSON-like values)
                return wildcard.getExtendsBound() == null ? null : nested(wildcard.getExtendsBound());
            }
            if (type instanceof TypeVariable variable) {
                return nested(types.erasure(variable)); // a variable nothing bound: decoded as its bound
            }
            if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)) {
                return null; // a primitive
            }
            String problem = declared(declared);
            if (problem == null) {
                return arguments(declared); // an argument's problem names the argument's class
            }
            return problem.startsWith("its ") && !problem.startsWith("its key type ")
                    ? element.getQualifiedName() + ": " + problem : "'" + element.getQualifiedName() + "': " + problem;
        }

        /**
         * The parts of {@code type} a receiver decodes, as members of {@code type} (its type arguments put in
         * for its type variables): a record's components, a program class's fields, a sealed type's permitted
         * subclasses.
         */
        private void parts(DeclaredType type, TypeElement element, List<String> names, List<TypeMirror> parts) {
            if (element.getKind() == ElementKind.RECORD) {
                for (RecordComponentElement component : element.getRecordComponents()) {
                    names.add("its component '" + component.getSimpleName() + "'");
                    parts.add(component.getAccessor() == null ? component.asType()
                            : ((ExecutableType) memberType(type, component.getAccessor())).getReturnType());
                }
            }
            if (element.getKind() == ElementKind.CLASS && !jdk(element)
                    && !MessageCreators.annotated(element, "com.fasterxml.jackson.annotation.JsonAutoDetect")) {
                // A class of the program travels as its fields, whatever their access (adv15 A21): each is a part
                // the receiver decodes as its declared type, as the runtime's load check has it.
                for (TypeElement c = element; c != null && !jdk(c); c = superclass(c)) {
                    for (Element member : c.getEnclosedElements()) {
                        if (member.getKind() == ElementKind.FIELD && travels(member)) {
                            names.add("its field '" + member.getSimpleName() + "'");
                            parts.add(memberType(type, member));
                        }
                    }
                }
                // A setter's parameter is decoded as its type too, with or without a field (adv17 A9).
                List<ExecutableElement> setters = new ArrayList<>();
                BeanAccessors.setters(programHierarchy(element), names, setters);
                for (ExecutableElement setter : setters) {
                    parts.add(((ExecutableType) memberType(type, setter)).getParameterTypes().get(0));
                }
            }
            if (element.getModifiers().contains(Modifier.SEALED)
                    && !element.getQualifiedName().toString().startsWith("java.")) {
                // A sealed type of the JDK (InetAddress, ZoneId) is decoded by the codec's decoder for the declared
                // type itself, not by its permitted subclasses (adv15 A16), as the runtime's check has it.
                for (TypeMirror permitted : element.getPermittedSubclasses()) {
                    names.add("its permitted subclass");
                    parts.add(specialized(type, permitted));
                }
            }
        }

        /** {@code member}'s type as a member of {@code type} (javac substitutes the type arguments). */
        private TypeMirror memberType(DeclaredType type, Element member) {
            try {
                return types.asMemberOf(type, member);
            } catch (IllegalArgumentException notAMember) {
                return member.asType();
            }
        }

        /**
         * The permitted subclass {@code permitted} of the sealed {@code type} with its type parameters bound
         * through {@code type}'s arguments: {@code Put<Pt>} for {@code Msg<Pt>} when {@code record Put<K>(…)
         * implements Msg<K>}; a parameter the supertype does not name is read as its bound (the codec's
         * specialization of a declared type to a subclass does the same).
         */
        private TypeMirror specialized(DeclaredType type, TypeMirror permitted) {
            if (!(permitted instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement sub)
                    || sub.getTypeParameters().isEmpty()) {
                return permitted;
            }
            DeclaredType generic = (DeclaredType) sub.asType();
            DeclaredType supertype = supertype(generic, (TypeElement) type.asElement(), new HashSet<>());
            List<TypeMirror> arguments = new ArrayList<>();
            for (TypeParameterElement parameter : sub.getTypeParameters()) {
                TypeMirror bound = null;
                if (supertype != null && supertype.getTypeArguments().size() == type.getTypeArguments().size()) {
                    for (int i = 0; i < supertype.getTypeArguments().size(); i++) {
                        if (supertype.getTypeArguments().get(i) instanceof TypeVariable variable
                                && variable.asElement().equals(parameter)) {
                            bound = type.getTypeArguments().get(i);
                        }
                    }
                }
                arguments.add(bound != null ? bound : types.erasure(parameter.asType()));
            }
            return declaredType(sub, arguments);
        }

        /** The supertype of {@code type}, at any distance, whose class is {@code target}, or null. */
        private DeclaredType supertype(DeclaredType type, TypeElement target, Set<Element> visited) {
            for (TypeMirror direct : types.directSupertypes(type)) {
                if (direct instanceof DeclaredType declared && visited.add(declared.asElement())) {
                    if (declared.asElement().equals(target)) {
                        return declared;
                    }
                    DeclaredType further = supertype(declared, target, visited);
                    if (further != null) {
                        return further;
                    }
                }
            }
            return null;
        }

        /** {@code element} with {@code arguments}; the raw type if javac refuses them (a mistyped use). */
        private DeclaredType declaredType(TypeElement element, List<TypeMirror> arguments) {
            try {
                return types.getDeclaredType(element, arguments.toArray(new TypeMirror[0]));
            } catch (IllegalArgumentException refused) {
                return types.getDeclaredType(element);
            }
        }

        /**
         * Why a sorted collection or map of the JDK ({@code TreeSet}, {@code SortedSet}, {@code PriorityQueue},
         * {@code TreeMap}'s keys…) of elements {@code element} cannot be read back, or null (adv18 A7): the
         * comparator is code and does not travel, so the receiver's collection orders by natural order, and an
         * element that is not {@code Comparable} fails at its insertion ("cannot be cast to class
         * java.lang.Comparable"). {@code Object} elements are let through, as everywhere (JSON-like values).
         */
        private String sortedProblem(TypeElement collection, TypeMirror element) {
            if (!collection.getQualifiedName().toString().startsWith("java.") || !inherits(collection, SORTED)) {
                return null;
            }
            while (element instanceof WildcardType wildcard) {
                element = wildcard.getExtendsBound() == null ? null : wildcard.getExtendsBound();
            }
            if (element instanceof TypeVariable) {
                element = types.erasure(element);
            }
            String name;
            if (element instanceof ArrayType) {
                name = element.toString();
            } else if (element instanceof DeclaredType declared && declared.asElement() instanceof TypeElement type) {
                if (type.getQualifiedName().contentEquals("java.lang.Object") || inherits(type, Set.of("java.lang.Comparable"))) {
                    return null;
                }
                name = type.getQualifiedName().toString();
            } else {
                return null;
            }
            return "it keeps its " + (isMap(collection) ? "keys" : "elements") + " sorted, but '" + name + "' is not"
                    + " Comparable: the comparator is code and does not travel, so the receiver's "
                    + collection.getSimpleName() + " (natural order) cannot hold one; make the element type Comparable, or"
                    + " send a List";
        }
    }

    /** The JDK's sorted collections and maps, by what they are a subtype of. */
    private static final Set<String> SORTED = Set.of("java.util.SortedSet", "java.util.SortedMap",
            "java.util.PriorityQueue", "java.util.concurrent.PriorityBlockingQueue");

    /** Whether {@code type} is one of {@code names} or a subtype of one, at any distance. */
    private static boolean inherits(TypeElement type, Set<String> names) {
        if (names.contains(type.getQualifiedName().toString())) {
            return true;
        }
        List<TypeMirror> supertypes = new ArrayList<>(type.getInterfaces());
        supertypes.add(type.getSuperclass());
        for (TypeMirror supertype : supertypes) {
            if (supertype instanceof DeclaredType declared && declared.asElement() instanceof TypeElement parent
                    && inherits(parent, names)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code type} is a class of the JDK (whose fields are its own business: it has an encoder). */
    private static boolean jdk(TypeElement type) {
        String name = type.getQualifiedName().toString();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.");
    }

    /** Whether {@code type} is a class of the program that travels as its fields (the codec's rule, SealedTypes). */
    private static boolean travelsAsFields(TypeElement type) {
        return type.getKind() == ElementKind.CLASS && !jdk(type)
                && !MessageCreators.annotated(type, "com.fasterxml.jackson.annotation.JsonAutoDetect");
    }

    /** {@code type} and its superclasses of the program (not the JDK's), nearest first. */
    private static List<TypeElement> programHierarchy(TypeElement type) {
        List<TypeElement> hierarchy = new ArrayList<>();
        for (TypeElement c = type; c != null && !jdk(c); c = superclass(c)) {
            hierarchy.add(c);
        }
        return hierarchy;
    }

    private static TypeElement superclass(TypeElement type) {
        return type.getSuperclass() instanceof DeclaredType declared && declared.asElement() instanceof TypeElement parent
                ? parent : null;
    }

    /** Whether a field travels: not static, not transient, not {@code @JsonIgnore}d (the runtime's rule). */
    private static boolean travels(Element field) {
        return !field.getModifiers().contains(Modifier.STATIC) && !field.getModifiers().contains(Modifier.TRANSIENT)
                && !MessageCreators.annotated(field, "com.fasterxml.jackson.annotation.JsonIgnore");
    }

    /** {@link #keyProblem(TypeElement, int)} of a key type argument (a wildcard or type variable: read as its bound). */
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
        if (key instanceof TypeVariable variable) {
            // a variable nothing bound (the walk substitutes type arguments): decoded as its first bound
            TypeMirror bound = variable.getUpperBound();
            return keyProblem(bound instanceof javax.lang.model.type.IntersectionType both
                    ? both.getBounds().get(0) : bound);
        }
        return key instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                ? keyProblem(element, arrays) : null;
    }

    private static final String OPEN_TYPE = "it is an interface or abstract class that is not sealed, and values carry "
            + "no class on the wire; use a concrete, final or sealed type";

    /** The problem of {@code type} itself, not of its parts. */
    private static String ownProblem(TypeElement type) {
        String name = type.getQualifiedName().toString();
        if (name.startsWith("org.sessionj.api.") && !type.getModifiers().contains(Modifier.SEALED)
                && type.getKind() == ElementKind.INTERFACE) {
            return "it is a session endpoint, which travels only as a session payload (!<cbegin…>), "
                    + "never inside a message";
        }
        if (name.startsWith("java.") && collectionOrMap(type) && open(type)
                && !JdkMessageTypes.CONTAINER_DEFAULTS.contains(name)) {
            return "it is a collection or map interface the codec has no implementation to create for (it creates "
                    + "one for Collection, List, Set, EnumSet, SortedSet, NavigableSet, Queue, Deque, Map, SortedMap,"
                    + " NavigableMap, ConcurrentMap and ConcurrentNavigableMap); declare a class it can create"
                    + " (LinkedBlockingQueue) or one of those";
        }
        if (jdk(type) && type.getKind() != ElementKind.ENUM && type.getKind() != ElementKind.ANNOTATION_TYPE
                && !collectionOrMap(type) && !isMapEntry(type)) {
            // one table for both sides (sj-api's JdkMessageTypes; the runtime's load check reads it too)
            String refused = JdkMessageTypes.REFUSED.get(name);
            if (refused != null) {
                return "it " + refused;
            }
            if (JdkMessageTypes.VALUES.containsKey(name)) {
                return null;
            }
            return undecodable(type) ? OPEN_TYPE
                    : "it is a JDK class the codec has no decoder for that reads it back as sent; send the values it "
                            + "holds instead";
        }
        if (undecodable(type)) {
            return OPEN_TYPE;
        }
        Element namingClasses = namesClasses(type);
        if (namingClasses != null) {
            return (namingClasses == type ? "it" : "its member '" + namingClasses.getSimpleName() + "'")
                    + " uses @JsonTypeInfo with class names as type ids (Id.CLASS or Id.MINIMAL_CLASS), which would "
                    + "let a peer choose which class the receiver creates; use a sealed type (its permitted classes "
                    + "travel by name), or Id.NAME with @JsonSubTypes";
        }
        String oneSided = jdk(type) ? null : oneSidedProperty(type);
        if (oneSided != null) {
            return oneSided;
        }
        String hidden = type.getKind() == ElementKind.CLASS && !jdk(type)
                && !MessageCreators.annotated(type, "com.fasterxml.jackson.annotation.JsonAutoDetect") ? hiddenField(type) : null;
        if (hidden != null) {
            return hidden;
        }
        String unknown = travelsAsFields(type) ? BeanAccessors.unknownProperty(programHierarchy(type)) : null;
        if (unknown != null) {
            return unknown;
        }
        String annotated = !jdk(type) && (type.getKind() == ElementKind.CLASS || type.getKind() == ElementKind.RECORD)
                ? MessageAnnotations.problem(programHierarchy(type), travelsAsFields(type)) : null;
        if (annotated != null) {
            return annotated; // adv20 A5
        }
        if (type.getKind() == ElementKind.ENUM) {
            return MessageCreators.enumProblem(type);
        }
        if (type.getKind() != ElementKind.CLASS || type.getModifiers().contains(Modifier.ABSTRACT)) {
            return null; // a record, sealed or JDK collection type, an annotation
        }
        if (jdk(type)) {
            return null; // a JDK collection or map class: the table above decided the others
        }
        if (type.getNestingKind() == NestingKind.MEMBER && !type.getModifiers().contains(Modifier.STATIC)
                || type.getNestingKind() == NestingKind.LOCAL || type.getNestingKind() == NestingKind.ANONYMOUS) {
            return "it is an inner class, which a receiver cannot create without an enclosing instance; make it "
                    + "a static member class or a record";
        }
        return MessageCreators.classProblem(type);
    }

    /**
     * Why a member of {@code type} or of a superclass of the program — a field, a record component, a getter or
     * setter — travels one way only, or null: {@code @JsonProperty(access = READ_ONLY)} is written and ignored
     * by the reader, {@code WRITE_ONLY} is read and never written, so its value would not arrive (adv16 A18:
     * this compiled, and the protocol then failed to load; the runtime's check refuses both).
     */
    private static String oneSidedProperty(TypeElement type) {
        for (TypeElement c = type; c != null && !jdk(c); c = superclass(c)) {
            for (Element member : c.getEnclosedElements()) {
                boolean part = member.getKind() == ElementKind.FIELD ? travels(member)
                        : member.getKind() == ElementKind.METHOD || member.getKind() == ElementKind.RECORD_COMPONENT;
                String access = part ? access(member) : null;
                if ("READ_ONLY".equals(access)) {
                    return "its " + kind(member) + " '" + member.getSimpleName() + "' is @JsonProperty(access = "
                            + "READ_ONLY): it is written, but a receiver ignores it, so its value would not arrive; "
                            + "drop the access, or mark it @JsonIgnore if it is not part of the message";
                }
                if ("WRITE_ONLY".equals(access)) {
                    return "its " + kind(member) + " '" + member.getSimpleName() + "' is @JsonProperty(access = "
                            + "WRITE_ONLY): a receiver reads it, but it is never written, so it would arrive as null "
                            + "or zero; drop the access, or mark it @JsonIgnore if it is not part of the message";
                }
            }
        }
        return null;
    }

    /**
     * Why two travelling fields of {@code type}'s hierarchy share a name, or null: a class travels as its
     * fields, one property per name, so the superclass's field was lost on the way, silently (adv17 A7:
     * {@code B extends A}, both with {@code private int x}: the receiver's {@code A.x} kept its default).
     */
    private static String hiddenField(TypeElement type) {
        java.util.Map<String, TypeElement> declaredIn = new java.util.HashMap<>();
        for (TypeElement c = type; c != null && !jdk(c); c = superclass(c)) {
            for (Element member : c.getEnclosedElements()) {
                if (member.getKind() != ElementKind.FIELD || !travels(member)) {
                    continue;
                }
                TypeElement sub = declaredIn.putIfAbsent(member.getSimpleName().toString(), c);
                if (sub != null) {
                    return "its field '" + member.getSimpleName() + "' of " + c.getQualifiedName() + " is hidden by "
                            + "the field of the same name in " + sub.getQualifiedName() + ": a class travels as its "
                            + "fields, one property per name, so only one of them would arrive; rename one, or mark "
                            + "it transient or @JsonIgnore";
                }
            }
        }
        return null;
    }

    private static String kind(Element member) {
        boolean component = member.getKind() == ElementKind.RECORD_COMPONENT
                || member.getEnclosingElement().getKind() == ElementKind.RECORD && member.getKind() == ElementKind.FIELD;
        return component ? "component" : member.getKind() == ElementKind.FIELD ? "field" : "method";
    }

    /** The name of the {@code access} constant of {@code element}'s {@code @JsonProperty}, or null. */
    private static String access(Element element) {
        return MessageCreators.enumAttribute(element, "com.fasterxml.jackson.annotation.JsonProperty", "access");
    }

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
        String use = MessageCreators.enumAttribute(element, "com.fasterxml.jackson.annotation.JsonTypeInfo", "use");
        return "CLASS".equals(use) || "MINIMAL_CLASS".equals(use);
    }

    /** Whether {@code type} is an interface or abstract class (not an annotation). */
    private static boolean open(TypeElement type) {
        return type.getKind() == ElementKind.INTERFACE
                || type.getKind() == ElementKind.CLASS && type.getModifiers().contains(Modifier.ABSTRACT);
    }

    /**
     * Invariant: <em>every message type of a protocol is one a receiver can decode as the class that
     * was sent</em> (docs/wire-format.md, "What a value may be sent as"). Values carry no class on the
     * wire, so an interface or abstract class that is not sealed ({@code Number}, {@code CharSequence},
     * an open interface of the program) has no class to decode as (SJ018). {@code Object} (JSON-like
     * values) and the JDK's collection and map types (decoded as Jackson's default implementations)
     * are exempt, as at run time.
     */
    static boolean undecodable(TypeElement type) {
        boolean open = type.getKind() == javax.lang.model.element.ElementKind.INTERFACE
                || type.getKind() == javax.lang.model.element.ElementKind.CLASS
                        && type.getModifiers().contains(javax.lang.model.element.Modifier.ABSTRACT);
        if (!open || type.getModifiers().contains(javax.lang.model.element.Modifier.SEALED)
                || type.getKind() == javax.lang.model.element.ElementKind.ANNOTATION_TYPE) {
            return false;
        }
        String name = type.getQualifiedName().toString();
        return !(name.startsWith("java.") && collectionOrMap(type) || isMapEntry(type));
    }

    /** Whether {@code type} is {@code java.util.Collection} or {@code java.util.Map} or below one. */
    public static boolean collectionOrMap(TypeElement type) {
        String name = type.getQualifiedName().toString();
        if (name.equals("java.util.Collection") || name.equals("java.util.Map")) {
            return true;
        }
        List<javax.lang.model.type.TypeMirror> supertypes = new ArrayList<>(type.getInterfaces());
        supertypes.add(type.getSuperclass());
        for (javax.lang.model.type.TypeMirror supertype : supertypes) {
            if (supertype instanceof javax.lang.model.type.DeclaredType declared
                    && declared.asElement() instanceof TypeElement element && collectionOrMap(element)) {
                return true;
            }
        }
        return false;
    }
}
