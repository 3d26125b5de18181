package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.std.BeanSerializerBase;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.sessionj.types.internal.JdkMessageTypes;

/**
 * Whether a receiver can decode a message type, asked of the codec itself when a protocol is loaded
 * (the processor's SJ018 decides the same from the source, docs/diagnostics.md). Invariant: <em>a
 * protocol whose message type the codec cannot read back does not start</em>: {@code create} fails
 * naming the part and the reason, instead of a receiver failing mid-session with "Cannot construct
 * instance". Looked at, through a bean's properties, a record's components, array, collection and map
 * contents and a sealed type's permitted subclasses:
 * <ul>
 * <li>a session endpoint (service, server socket, socket, selector, scope) as a part of a message;</li>
 * <li>a concrete class the codec has no way to create (no no-argument constructor, no creator; an
 *     inner class) or cannot even describe (a JDK class whose state the JDK keeps closed);</li>
 * <li>a property the writer writes that the reader does not know (a getter without a setter or
 *     field): the receiver would reject it as an unknown property; or one the reader ignores or the writer
 *     never writes ({@code @JsonProperty(access = READ_ONLY / WRITE_ONLY)}): its value would not arrive;</li>
 * <li>a class written as an object of its properties that a receiver could create only from a single
 *     value (a one-argument constructor or factory), or whose creator takes a parameter no property
 *     writes (it would arrive as null or zero): adv15 A21;</li>
 * <li>a Jackson annotation that keeps a value from arriving as sent ({@link MessageAnnotations}, adv20 A5),
 *     and a JDK class outside sj-api's JdkMessageTypes (adv19 A7): the processor reads the same;</li>
 * <li>as SJ018 says, an interface or abstract class that is not sealed, at the top as inside: values
 *     carry no class on the wire, so a receiver has no class to create ({@code Object}, the JDK's
 *     collections and maps and sealed types are decoded; docs/wire-format.md, "Message types").</li>
 * </ul>
 */
final class Decodability {
    private final ObjectMapper mapper;
    private final DeserializationContext context;
    private final Set<JavaType> seen = new HashSet<>();

    private Decodability(ObjectMapper mapper) {
        this.mapper = mapper;
        this.context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
                .createDummyInstance(mapper.getDeserializationConfig());
    }

    /** Why a receiver cannot decode a value of {@code type}, or null. */
    static String problem(ObjectMapper mapper, JavaType type) {
        return new Decodability(mapper).check(type);
    }

    private String check(JavaType type) {
        return check(type, false);
    }

    /**
     * {@code nested}: {@code type} is a property's, an element's or a value's type inside a message, where a
     * receiver decodes it as itself: an open interface or abstract class there cannot be decoded (at the
     * top, a value whose own class decodes is let through at the send instead).
     */
    private String check(JavaType type, boolean nested) {
        if (type == null || !seen.add(type)) {
            return null;
        }
        Class<?> raw = type.getRawClass();
        if (Endpoints.isEndpoint(raw)) {
            return raw.getName() + " is a session endpoint, which travels only as a session payload (!<cbegin…>), "
                    + "never inside a message";
        }
        if (type.isContainerType() || type.isReferenceType()) {
            String key = type.isMapLikeType() ? keyProblem(type.getKeyType()) : null;
            String own = key == null && (type.isCollectionLikeType() || type.isMapLikeType()) ? containerProblem(type) : key;
            return own != null ? own : check(type.getContentType(), true);
        }
        if (raw == java.util.Map.Entry.class) {
            // written as a one-entry object, its key as the key text; read back as a SimpleEntry (adv19 A7)
            String key = keyProblem(type.containedTypeOrUnknown(0));
            return key != null ? key : check(type.containedTypeOrUnknown(1), true);
        }
        if (raw.isEnum()) {
            return enumProblem(type);
        }
        if (raw.isPrimitive() || raw == Object.class) {
            return null;
        }
        String name = raw.getName();
        if (JdkMessageTypes.jdk(name)) {
            String refused = JdkMessageTypes.REFUSED.get(name);
            if (refused != null) {
                return name + " " + refused;
            }
            if (JdkMessageTypes.VALUES.containsKey(name)) {
                return null; // JdkMessageTypesTest round-trips a value of each through this codec
            }
        }
        String problem = classProblem(type, raw, nested);
        if (problem == null && JdkMessageTypes.jdk(name)) {
            // the codec describes it (a JDK sealed type, Thread's subclass, a LongAdder…), but nothing says it
            // reads one back as sent: the processor's SJ018 refuses every JDK class outside the table too
            return name + " is a JDK class the codec has no decoder for that reads it back as sent (docs/wire-format.md,"
                    + " \"JDK values\"); send the values it holds instead";
        }
        return problem;
    }

    /** The problem of a class that is not a container, map entry, enum, primitive, Object or JDK value. */
    private String classProblem(JavaType type, Class<?> raw, boolean nested) {
        if (SealedTypes.closedHierarchy(raw)) {
            for (Class<?> permitted : raw.getPermittedSubclasses()) {
                String problem = check(member(type, permitted));
                if (problem != null) {
                    return problem;
                }
            }
            return null;
        }
        if (raw.isSealed() && raw.getName().startsWith("java.")) {
            return null; // a sealed type of the JDK (ZoneId) has its own decoder, inside a message as at the top (adv15 A28)
        }
        if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
            // Inside a message nothing checks the value's class, and the receiver cannot create one (adv13
            // A2). At the top the monitor refuses every value at the send (Decoding: a Long sent as a Number
            // would arrive as an Integer, a Runnable cannot be created), so the protocol is refused here,
            // as SJ018 refuses it, also for a side that only receives it (adv13 A10). A sealed type of the
            // JDK (ZoneId) is left to the codec's own decoder, as the monitor leaves it.
            if (nested) {
                return raw.getName() + " (inside the message) is an interface or abstract class that is not sealed, "
                        + "and values carry no class on the wire; use a concrete, final or sealed type";
            }
            return raw.isSealed() ? null : raw.getName() + " is an interface or abstract class that is not sealed, "
                    + "and values carry no class on the wire, so no peer can decode one (its value would arrive as "
                    + "another class, or not at all); use a concrete, final or sealed type";
        }
        String annotated = JdkMessageTypes.jdk(raw.getName()) ? null
                : MessageAnnotations.problem(raw, SealedTypes.ownState(raw) && !raw.isRecord());
        if (annotated != null) {
            return raw.getName() + ": " + annotated; // adv20 A5, as SJ018 (sj-processor's MessageAnnotations)
        }
        JsonDeserializer<Object> deserializer;
        JsonSerializer<Object> serializer;
        try {
            deserializer = context.findRootValueDeserializer(type);
            serializer = mapper.getSerializerProviderInstance().findValueSerializer(type);
        } catch (JsonMappingException | RuntimeException e) {
            String part = raw.getName().startsWith("java.") ? null : partProblem(type); // the JDK's: its own reason
            return part != null ? part : raw.getName() + " cannot be described by the codec: " + reason(e);
        }
        if (!(deserializer instanceof BeanDeserializerBase bean)) {
            return null; // a scalar, a JDK value type, a custom deserializer
        }
        if (serializer instanceof com.fasterxml.jackson.databind.ser.std.JsonValueSerializer) {
            return singleValueProblem(type, bean);
        }
        if (!bean.getValueInstantiator().canInstantiate()) {
            return raw.getName() + " has no way to be created by a receiver: it needs a no-argument constructor "
                    + "(and setters or fields for its properties), a @JsonCreator constructor, or to be a record"
                    + (raw.isMemberClass() && !Modifier.isStatic(raw.getModifiers()) ? " (it is an inner class)" : "");
        }
        String hidden = SealedTypes.ownState(raw) && !raw.isRecord() ? hiddenField(raw) : null;
        if (hidden != null) {
            return hidden;
        }
        if (serializer instanceof BeanSerializerBase writes) {
            for (Iterator<com.fasterxml.jackson.databind.ser.PropertyWriter> it = writes.properties(); it.hasNext();) {
                if (it.next() instanceof BeanPropertyWriter property
                        && access(property.getAnnotation(JsonProperty.class)) == JsonProperty.Access.READ_ONLY) {
                    // Written, and ignored by the reader (adv16 A18): a record's creator then gets null or zero.
                    return raw.getName() + " writes the property '" + property.getName() + "', which its reader "
                            + "ignores: it is @JsonProperty(access = READ_ONLY), so its value would not arrive; drop "
                            + "the access, or mark it @JsonIgnore if it is not part of the message";
                }
            }
            String creation = creationProblem(raw, writes, bean);
            if (creation != null) {
                return creation;
            }
        }
        com.fasterxml.jackson.annotation.JsonIgnoreProperties ignored =
                raw.getAnnotation(com.fasterxml.jackson.annotation.JsonIgnoreProperties.class);
        if (serializer instanceof BeanSerializerBase writes && (ignored == null || !ignored.ignoreUnknown())) {
            for (Iterator<com.fasterxml.jackson.databind.ser.PropertyWriter> it = writes.properties(); it.hasNext();) {
                if (it.next() instanceof BeanPropertyWriter property && bean.findProperty(property.getName()) == null
                        && (ignored == null || !Set.of(ignored.value()).contains(property.getName()))) {
                    return raw.getName() + " writes the property '" + property.getName() + "', which its reader does "
                            + "not know (a getter without a setter or field; mark it @JsonIgnore)";
                }
            }
        }
        for (Iterator<SettableBeanProperty> it = bean.properties(); it.hasNext();) {
            SettableBeanProperty property = it.next();
            if (access(property.getAnnotation(JsonProperty.class)) == JsonProperty.Access.WRITE_ONLY) {
                // Read but never written (adv16 A18's twin): the receiver would make it null or zero, silently.
                return raw.getName() + "'s property '" + property.getName() + "' is @JsonProperty(access = "
                        + "WRITE_ONLY): its writer never writes it, so it would arrive as null or zero; drop the "
                        + "access, or mark it @JsonIgnore if it is not part of the message";
            }
            String problem = check(property.getType(), true);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    /**
     * Why a receiver cannot create the class {@code type}, written as the single value of its {@code @JsonValue}
     * member, from that value, or null (adv19 A6: with a no-argument constructor and no creator from the value,
     * the protocol loaded and every receive failed with "no String-argument constructor/factory method").
     */
    private String singleValueProblem(JavaType type, BeanDeserializerBase bean) {
        com.fasterxml.jackson.databind.introspect.AnnotatedMember accessor =
                mapper.getSerializationConfig().introspect(type).findJsonValueAccessor();
        Class<?> value = accessor == null ? Object.class : accessor.getRawType();
        com.fasterxml.jackson.databind.deser.ValueInstantiator creator = bean.getValueInstantiator();
        String kind = JdkMessageTypes.writtenKind(value.getName());
        boolean readBack = creator.canCreateUsingDelegate() || kind != null && switch (kind) {
            case "string" -> creator.canCreateFromString();
            case "int" -> creator.canCreateFromInt() || creator.canCreateFromLong();
            case "long" -> creator.canCreateFromLong();
            case "double" -> creator.canCreateFromDouble();
            case "boolean" -> creator.canCreateFromBoolean();
            case "BigInteger" -> creator.canCreateFromBigInteger();
            case "BigDecimal" -> creator.canCreateFromBigDecimal();
            default -> false;
        };
        return readBack ? null : type.getRawClass().getName() + " travels as a single value (@JsonValue, "
                + value.getSimpleName() + "), but a receiver has no way to create one from that value: give it a "
                + "one-argument constructor of the @JsonValue's type, or a one-argument @JsonCreator";
    }

    /**
     * Why a receiver cannot read back the enum {@code type} as its writer writes it, or null: an enum written as an
     * object ({@code @JsonFormat(shape = OBJECT)}) is read from its name unless a {@code @JsonCreator} factory
     * reads the object (adv19 A6: "Cannot deserialize value of type … from Object value" at every receive).
     */
    private String enumProblem(JavaType type) {
        try {
            if (mapper.getSerializerProviderInstance().findValueSerializer(type) instanceof BeanSerializerBase
                    && context.findRootValueDeserializer(type)
                            instanceof com.fasterxml.jackson.databind.deser.std.EnumDeserializer) {
                return type.getRawClass().getName() + " is an enum written as an object (@JsonFormat(shape = OBJECT)), "
                        + "but a receiver reads an enum from its name: add a static @JsonCreator factory that reads the "
                        + "object, or drop the shape";
            }
        } catch (JsonMappingException | RuntimeException e) {
            return type.getRawClass().getName() + " cannot be described by the codec: " + reason(e);
        }
        return null;
    }

    /**
     * Why a receiver cannot create or fill a collection or map of {@code type}, or null (adv18 A7): an interface
     * or abstract class the codec has no default implementation for ({@code BlockingQueue}, {@code
     * TransferQueue}: "Cannot construct instance"; Jackson's own fallbacks, sj-api's JdkMessageTypes.CONTAINER_DEFAULTS),
     * and a sorted one ({@code TreeSet}, {@code SortedSet}, {@code PriorityQueue}, a {@code TreeMap}'s keys) of elements that are not
     * {@code Comparable}: the comparator is code and does not travel, and the receiver's collection, in natural
     * order, fails at the first insertion. As SJ018 has it.
     */
    private static String containerProblem(JavaType type) {
        Class<?> raw = type.getRawClass();
        boolean map = type.isMapLikeType();
        if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
            if (!JdkMessageTypes.CONTAINER_DEFAULTS.contains(raw.getName())) {
                return raw.getName() + " is a collection or map interface the codec has no implementation to create for"
                        + " (it creates one for Collection, List, Set, EnumSet, SortedSet, NavigableSet, Queue, Deque, Map, SortedMap,"
                        + " NavigableMap, ConcurrentMap and ConcurrentNavigableMap); declare a class it can create"
                        + " (LinkedBlockingQueue) or one of those";
            }
        }
        boolean sorted = java.util.SortedSet.class.isAssignableFrom(raw) || java.util.SortedMap.class.isAssignableFrom(raw)
                || java.util.PriorityQueue.class.isAssignableFrom(raw)
                || java.util.concurrent.PriorityBlockingQueue.class.isAssignableFrom(raw);
        JavaType element = map ? type.getKeyType() : type.getContentType();
        Class<?> elements = element == null ? Object.class : element.getRawClass();
        if (sorted && elements != Object.class && !Comparable.class.isAssignableFrom(elements)) {
            return raw.getName() + " keeps its " + (map ? "keys" : "elements") + " sorted, but " + elements.getTypeName()
                    + " is not Comparable: the comparator is code and does not travel, so the receiver's "
                    + raw.getSimpleName() + " (natural order) cannot hold one; make the element type Comparable, or send a"
                    + " List";
        }
        return null;
    }

    /**
     * The problem of a part of {@code type} when the codec cannot describe {@code type} as a whole (a map key
     * inside a record has no key decoder: Jackson's "Cannot find a (Map) Key deserializer" names the key
     * type, not the way to it), found through what its writer writes; null if no part names one.
     */
    private String partProblem(JavaType type) {
        try {
            if (mapper.getSerializerProviderInstance().findValueSerializer(type) instanceof BeanSerializerBase writes) {
                for (Iterator<com.fasterxml.jackson.databind.ser.PropertyWriter> it = writes.properties(); it.hasNext();) {
                    if (it.next() instanceof BeanPropertyWriter property) {
                        String problem = check(property.getType(), true);
                        if (problem != null) {
                            return problem;
                        }
                    }
                }
            }
        } catch (JsonMappingException | RuntimeException e) {
            return null; // the writer cannot be described either: the codec's own reason stands
        }
        return null;
    }

    /**
     * Why two fields of {@code raw}'s hierarchy that travel share a name, or null: a class of the program
     * travels as its fields, one property per name, and the codec wrote the subclass's alone (adv17 A7:
     * {@code B extends A}, both with {@code private int x}: the receiver's {@code A.x} kept its default,
     * silently). As SJ018 has it.
     */
    private static String hiddenField(Class<?> raw) {
        java.util.Map<String, Class<?>> declaredIn = new java.util.HashMap<>();
        for (Class<?> c = raw; c != null && c != Object.class; c = c.getSuperclass()) {
            for (java.lang.reflect.Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic()
                        || field.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonIgnore.class)) {
                    continue;
                }
                Class<?> sub = declaredIn.putIfAbsent(field.getName(), c);
                if (sub != null) {
                    return c.getName() + "'s field '" + field.getName() + "' is hidden by the field of the same name in "
                            + sub.getName() + ": a class travels as its fields, one property per name, so only one of "
                            + "them would arrive; rename one, or mark it transient or @JsonIgnore";
                }
            }
        }
        return null;
    }

    private static JsonProperty.Access access(JsonProperty annotation) {
        return annotation == null ? JsonProperty.Access.AUTO : annotation.access();
    }

    /**
     * The permitted subclass {@code permitted} of the sealed {@code type} with its type parameters bound through
     * {@code type}'s arguments, as the receiver decodes it (adv16 A9's addendum: for {@code Msg<Pt>} and {@code
     * record Put<K>(Map<K, Integer> m) implements Msg<K>}, a {@code Put<Pt>}, whose keys cannot be read back;
     * the raw {@code Put} this looked at before has {@code Object} keys and passed, and the receiver failed).
     */
    private JavaType member(JavaType type, Class<?> permitted) {
        try {
            return mapper.getTypeFactory().constructSpecializedType(type, permitted);
        } catch (IllegalArgumentException unrelated) {
            return mapper.getTypeFactory().constructType(permitted);
        }
    }

    /**
     * Why a receiver cannot create a {@code raw} from what the writer writes, its properties (adv15 A21), or
     * null: a class whose only creator takes a single value (a private one-argument constructor, a factory
     * {@code of(int)}, a value class {@code Email(String)}) is written as an object of its properties and
     * could never be read back ("Cannot construct instance … cannot deserialize from Object value"); and a
     * creator parameter that the writer does not write would be created as null or zero, silently.
     */
    private String creationProblem(Class<?> raw, BeanSerializerBase writes,
            BeanDeserializerBase bean) {
        com.fasterxml.jackson.databind.deser.ValueInstantiator creator = bean.getValueInstantiator();
        Set<String> written = new java.util.LinkedHashSet<>();
        for (Iterator<com.fasterxml.jackson.databind.ser.PropertyWriter> it = writes.properties(); it.hasNext();) {
            written.add(it.next().getName());
        }
        if (!creator.canCreateUsingDefault() && !creator.canCreateFromObjectWith() && !creator.canCreateUsingDelegate()) {
            return raw.getName() + " is written as its properties " + written + " but a receiver can create one only "
                    + "from a single value (a one-argument constructor or factory): give it a no-argument constructor "
                    + "(any access), a @JsonCreator constructor whose parameters are its properties, or make it a record";
        }
        if (creator.canCreateFromObjectWith()) {
            SettableBeanProperty[] parameters = creator.getFromObjectArguments(mapper.getDeserializationConfig());
            for (SettableBeanProperty parameter : parameters == null ? new SettableBeanProperty[0] : parameters) {
                if (parameter != null && parameter.getInjectableValueId() == null
                        && !written.contains(parameter.getName())) {
                    return raw.getName() + "'s creator takes '" + parameter.getName() + "', which its writer does not "
                            + "write (no field or getter of that name): a receiver would create it with '"
                            + parameter.getName() + "' null or zero; name the parameter as the field it sets "
                            + "(@JsonProperty)";
                }
            }
        }
        return null;
    }

    /**
     * Why a map's keys of {@code key} would not arrive as themselves, or null. Keys travel as strings: the
     * writer writes a key's text ({@code toString()} for a class of the program) and the reader makes the
     * declared key type from it, so a key type of the program (a record has no way back at all; a class
     * with a constructor from a String is made from the text its {@code toString()} gave) does not round
     * trip (adv15 A4). Keys that do: strings, the boxes, enums, and the JDK's value types sj-api's
     * JdkMessageTypes.KEYS lists (UUID, java.time, Locale, Currency, URI, BigDecimal…: the codec has a key decoder
     * for each, and reading one makes no look-up; a Class key would be loaded, a File key was read back from
     * a constructor Jackson found); {@code Object} keys arrive as strings, so the sender's monitor lets only
     * strings through there.
     */
    private String keyProblem(JavaType key) {
        Class<?> raw = key.getRawClass();
        if (raw == Object.class || raw == String.class || raw.isPrimitive() || raw.isEnum()) {
            return null;
        }
        if (JdkMessageTypes.KEYS.contains(raw.getName())) {
            return null; // JdkMessageTypesTest round-trips each as a key through this codec
        }
        return raw.getName() + " is the key type of a map and would not arrive as itself: keys travel as strings (a "
                + "key is written as its text and the receiver makes a " + raw.getSimpleName() + " from that text); use "
                + "String, a box, an enum, UUID or a java.time key, or send the entries as a list of records";
    }

    private static String reason(Exception e) {
        String message = e instanceof JsonMappingException mapping ? mapping.getOriginalMessage() : e.getMessage();
        if (message != null && message.contains(ClassNamesRefused.class.getName())) {
            return ClassNamesRefused.REASON; // Jackson's "Configured PolymorphicTypeValidator … denied …"
        }
        return message == null ? e.toString() : message;
    }

    /** The API's session endpoint types, which no codec writes. */
    static final class Endpoints {
        private Endpoints() {
        }

        static boolean isEndpoint(Class<?> type) {
            return org.sessionj.api.SJService.class.isAssignableFrom(type)
                    || org.sessionj.api.SJServerSocket.class.isAssignableFrom(type)
                    || org.sessionj.api.SJSocket.class.isAssignableFrom(type)
                    || org.sessionj.api.SJSelector.class.isAssignableFrom(type)
                    || org.sessionj.api.SJScope.class.isAssignableFrom(type);
        }
    }
}
