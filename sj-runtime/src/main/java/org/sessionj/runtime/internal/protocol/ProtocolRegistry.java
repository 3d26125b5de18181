package org.sessionj.runtime.internal.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * Finds the session type of a {@link Protocol} interface: from the descriptor sj-processor generates
 * ({@code META-INF/sessionj/protocols/<binary name>.sj}, already resolved and expanded), else by
 * parsing the annotation and resolving names at run time. Each interface is compiled once. A missing
 * descriptor means the processor did not run: one warning per interface, or an error, as
 * {@code sessionj.missingDescriptor} says ({@link MissingDescriptor}).
 */
public final class ProtocolRegistry {
    /** Where sj-processor puts the resolved protocol of interface {@code B}: this prefix, {@code B}, {@code .sj}. */
    public static final String DESCRIPTOR_PREFIX = "META-INF/sessionj/protocols/";

    private static final ClassValue<CompiledProtocol> COMPILED = new ClassValue<>() {
        @Override
        protected CompiledProtocol computeValue(Class<?> type) {
            return compile(type);
        }
    };

    private ProtocolRegistry() {
    }

    /** The compiled protocol of {@code protocol}; fails with a clear message if it is not a protocol interface. */
    public static CompiledProtocol of(Class<?> protocol) {
        try {
            return COMPILED.get(protocol);
        } catch (ProtocolException e) {
            throw new SJException("protocol " + protocol.getName() + " is not well-formed: " + e.getMessage(), e);
        }
    }

    /**
     * A protocol made from a session type that arrived at run time (the type of a received service),
     * named {@code name} for messages; message classes load with {@code loader}.
     */
    public static CompiledProtocol ofType(String name, SessionType type, ClassLoader loader) {
        SessionTypes.checkWellFormed(type);
        return new CompiledProtocol(name, type, StateMachine.compile(type, loader), loader);
    }

    private static CompiledProtocol compile(Class<?> protocol) {
        ClassLoader loader = loaderOf(protocol);
        Optional<SessionType> described = descriptor(protocol, loader);
        SessionType type;
        if (described.isPresent()) {
            type = described.get();
        } else {
            annotation(protocol); // not a protocol at all: say that rather than "no descriptor"
            MissingDescriptor.from(SystemSettings.system()).apply(protocol);
            type = fromAnnotation(protocol, loader);
        }
        SessionTypes.checkWellFormed(type);
        State start = StateMachine.compile(type, loader);
        return new CompiledProtocol(protocol.getName(), type, start, loader);
    }

    private static ClassLoader loaderOf(Class<?> protocol) {
        ClassLoader loader = protocol.getClassLoader();
        return loader != null ? loader : ClassLoader.getSystemClassLoader();
    }

    private static Optional<SessionType> descriptor(Class<?> protocol, ClassLoader loader) {
        String resource = DESCRIPTOR_PREFIX + protocol.getName() + ".sj";
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            try {
                return Optional.of(SessionTypes.parse(text));
            } catch (RuntimeException e) {
                throw new SJException("the protocol descriptor " + resource + " is corrupt: " + e.getMessage(), e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the protocol descriptor " + resource, e);
        }
    }

    /** Parses {@code @Protocol} and resolves its names, inlining referenced protocols the same way. */
    private static SessionType fromAnnotation(Class<?> protocol, ClassLoader loader) {
        return SessionTypes.expand(declared(protocol, loader), new RuntimeProtocolResolver(loader));
    }

    /** The annotation's type with Java type names resolved (references to other protocols left as they are). */
    static SessionType declared(Class<?> protocol, ClassLoader loader) {
        Protocol annotation = annotation(protocol);
        SessionType parsed;
        try {
            parsed = SessionTypes.parse(annotation.value());
        } catch (RuntimeException e) {
            throw new SJException("the @Protocol of " + protocol.getName() + " does not parse: " + e.getMessage(), e);
        }
        return new TypeNameResolver(protocol, loader).resolve(parsed);
    }

    private static Protocol annotation(Class<?> protocol) {
        Protocol annotation = protocol.getAnnotation(Protocol.class);
        if (!protocol.isInterface() || annotation == null) {
            throw new SJException(protocol.getName() + " is not a protocol: protocols are interfaces annotated with @"
                    + Protocol.class.getName());
        }
        return annotation;
    }

    /** Resolves {@code @(P)} names, already binary names, to their protocols' declared types. */
    private static final class RuntimeProtocolResolver implements org.sessionj.types.ProtocolResolver {
        private final ClassLoader loader;

        RuntimeProtocolResolver(ClassLoader loader) {
            this.loader = loader;
        }

        @Override
        public Optional<SessionType> resolve(String name) {
            Class<?> referenced;
            try {
                referenced = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return Optional.empty();
            }
            Optional<SessionType> fromDescriptor = descriptor(referenced, loaderOf(referenced));
            return fromDescriptor.isPresent() ? fromDescriptor : Optional.of(declared(referenced, loader));
        }
    }
}
