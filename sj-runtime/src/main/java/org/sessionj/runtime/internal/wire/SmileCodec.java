package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.PropertyWriter;
import com.fasterxml.jackson.databind.ser.std.BeanSerializerBase;
import com.fasterxml.jackson.databind.type.TypeFactory;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.sessionj.types.Payload;

/**
 * The Jackson Smile codec for message types that are not primitives, primitive arrays or strings.
 * Values are always read as the declared type: no class is taken from the wire, a key twice in an object
 * is refused, and Java
 * serialization is never used; a sealed declared type names which of its permitted subclasses
 * follows ({@link SealedTypes}).
 */
public final class SmileCodec {
    /**
     * java.time values and {@code Optional}s are everyday message contents: Jackson's own modules
     * for them are registered (without them such a value cannot be written at all).
     */
    private static final ObjectMapper MAPPER = PeerValues.configure(JdkValues.configure(new ObjectMapper(
            // text that is not UTF-8 and decimals of a huge scale are refused as their tokens are reached
            // (hostile18 H5, H6: CheckedSmileFactory)
            new CheckedSmileFactory(SmileFactory.builder()
            // A key twice in one object (hostile H7) is refused by CheckedSmileParser, cheaper than Jackson's
            // STRICT_DUPLICATE_DETECTION
            // A frame bounds the bytes of a value, not the work of decoding it (hostile17 H9): tokens, numbers
            // and keys are bounded too (DecodeLimits).
            .streamReadConstraints(DecodeLimits.fromSystem()),
                    DecodeLimits.maxNumberScale(org.sessionj.runtime.spi.support.SystemSettings.system())))
            .registerModule(new Jdk8Module())
            .registerModule(new JavaTimeModule())
            .setAnnotationIntrospector(new SealedTypes())
            .setPolymorphicTypeValidator(new ClassNamesRefused())
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .registerModule(endpointsRefused())));

    static {
        MAPPER.getSerializerProvider().setNullKeySerializer(new NullKeyRefused());
    }

    /**
     * A null map key has no text to travel as (keys travel as strings): the send fails in the project's
     * words, with the path to the map, instead of Jackson's "Null key for a Map not allowed in JSON (use a
     * converting NullKeySerializer?)" (adv15 A23).
     */
    private static final class NullKeyRefused extends com.fasterxml.jackson.databind.ser.std.StdSerializer<Object> {
        private static final long serialVersionUID = 1L;

        NullKeyRefused() {
            super(Object.class);
        }

        @Override
        public void serialize(Object value, com.fasterxml.jackson.core.JsonGenerator out,
                com.fasterxml.jackson.databind.SerializerProvider provider) throws java.io.IOException {
            throw JsonMappingException.from(out, CodecFailures.NULL_KEY);
        }
    }

    /**
     * A session endpoint is never a plain value: as a bean the peer would get an empty map, or fail
     * to decode. Declared message types are checked when the protocol loads ({@link Decodability}), but
     * an {@code Object}, {@code Object[]} or {@code List<Object>} may still hold one: writing it fails
     * the send ("cannot encode a message of type …"), before anything is written.
     */
    private static com.fasterxml.jackson.databind.Module endpointsRefused() {
        com.fasterxml.jackson.databind.module.SimpleModule module =
                new com.fasterxml.jackson.databind.module.SimpleModule("sj-endpoints");
        com.fasterxml.jackson.databind.JsonSerializer<Object> refuse =
                new com.fasterxml.jackson.databind.ser.std.StdSerializer<>(Object.class) {
                    private static final long serialVersionUID = 1L;

                    @Override
                    public void serialize(Object value, com.fasterxml.jackson.core.JsonGenerator out,
                            com.fasterxml.jackson.databind.SerializerProvider provider) throws java.io.IOException {
                        throw com.fasterxml.jackson.databind.exc.InvalidDefinitionException.from(out,
                                "a session endpoint (" + value.getClass().getName() + ") cannot travel inside a "
                                        + "message; send it as a session payload (!<cbegin…>)",
                                provider.constructType(value.getClass()));
                    }
                };
        for (Class<?> endpoint : new Class<?>[] {org.sessionj.api.SJService.class, org.sessionj.api.SJServerSocket.class,
                org.sessionj.api.SJSocket.class, org.sessionj.api.SJSelector.class, org.sessionj.api.SJScope.class}) {
            addRefusal(module, endpoint, refuse);
        }
        return module;
    }

    @SuppressWarnings("unchecked")
    private static <T> void addRefusal(com.fasterxml.jackson.databind.module.SimpleModule module, Class<T> type,
            com.fasterxml.jackson.databind.JsonSerializer<Object> refuse) {
        module.addSerializer(type, (com.fasterxml.jackson.databind.JsonSerializer<T>) (Object) refuse);
    }

    private SmileCodec() {
    }

    /** A reader for values of {@code declared} (resolved with {@code loader}). */
    public static ObjectReader readerFor(JavaType declared) {
        return MAPPER.readerFor(declared);
    }

    /**
     * Why a receiver cannot decode values of {@code declared} ({@link Decodability}: a session
     * endpoint inside it, a class the codec cannot create, a property it writes and cannot read back),
     * or null.
     */
    public static String decodingProblem(JavaType declared) {
        return Decodability.problem(MAPPER, declared);
    }

    /** A writer for values of {@code declared}. */
    public static ObjectWriter writerFor(JavaType declared) {
        return MAPPER.writerFor(declared);
    }

    /**
     * The properties the codec writes for a value of {@code type} when it writes it as a bean (a record's
     * components, a class's properties), each with its declared type and a way to read it from a value;
     * empty when it writes the type otherwise (a scalar, a JDK value type, a collection) or cannot.
     */
    public static List<BeanPropertyWriter> writtenProperties(JavaType type) {
        JsonSerializer<Object> serializer;
        try {
            serializer = MAPPER.getSerializerProviderInstance().findValueSerializer(type);
        } catch (JsonMappingException | RuntimeException e) {
            return List.of(); // Decodability refused it when the protocol loaded
        }
        if (!(serializer instanceof BeanSerializerBase bean)) {
            return List.of();
        }
        List<BeanPropertyWriter> properties = new ArrayList<>();
        for (Iterator<PropertyWriter> it = bean.properties(); it.hasNext();) {
            if (it.next() instanceof BeanPropertyWriter property) {
                properties.add(property);
            }
        }
        return properties;
    }

    /** The Jackson type of {@code type} (a class, with no type arguments of its own). */
    public static JavaType jacksonType(Class<?> type) {
        return MAPPER.getTypeFactory().constructType(type);
    }

    /**
     * The Jackson type of {@code actual}, a class of a value declared as {@code declared}, with the type
     * arguments the declaration gives it ({@code Put<Named>} for a {@code Put} declared as {@code Msg<Named>}:
     * what the codec writes it as); the raw class where they cannot be carried over.
     */
    public static JavaType specialized(JavaType declared, Class<?> actual) {
        try {
            return MAPPER.getTypeFactory().constructSpecializedType(declared, actual);
        } catch (IllegalArgumentException e) {
            return jacksonType(actual);
        }
    }

    /** The Jackson type of a resolved session-type message type. */
    public static JavaType jacksonType(Payload.JavaType type, ClassLoader loader) throws ClassNotFoundException {
        TypeFactory factory = MAPPER.getTypeFactory();
        if (type.isArray()) {
            return factory.constructArrayType(jacksonType(type.componentType(), loader));
        }
        Class<?> raw = TypeClasses.load(type, loader);
        if (type.typeArguments().isEmpty()) {
            return factory.constructType(raw);
        }
        JavaType[] arguments = new JavaType[type.typeArguments().size()];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = jacksonType(type.typeArguments().get(i), loader);
        }
        return factory.constructParametricType(raw, arguments);
    }
}
