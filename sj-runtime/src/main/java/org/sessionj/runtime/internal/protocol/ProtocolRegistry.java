package org.sessionj.runtime.internal.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.api.spi.ProtocolDescriptors;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.types.Action;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.SessionSet;
import org.sessionj.types.SessionSets;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * Finds the session type of a {@link Protocol} interface: from the descriptor sj-processor generates
 * (a class, {@link ProtocolDescriptors}, or else the resource
 * {@code META-INF/sessionj/protocols/<binary name>.sj}; already resolved and expanded), else by
 * parsing the annotation and resolving names at run time. Each interface is compiled once. A missing
 * descriptor means the processor did not run: one warning per interface, or an error, as
 * {@code sessionj.missingDescriptor} says ({@link MissingDescriptor}).
 */
public final class ProtocolRegistry {
    /** Where sj-processor puts the resolved protocol of interface {@code B}: this prefix, {@code B}, {@code .sj}. */
    public static final String DESCRIPTOR_PREFIX = "META-INF/sessionj/protocols/";

    /**
     * Begins each line of the record sj-processor writes after the descriptor in its resource (which
     * {@code @Protocol} texts it was made from, for the processor's SJ009; its DescriptorSources.LINE):
     * comments to the parser, but not part of the descriptor, whose hash {@link StaleUsers} compares.
     */
    static final String RECORD_LINE = "// source ";

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
     * The compiled protocol of {@code protocol} for a service or server socket the calling code creates:
     * {@link #of}, and, when the protocol was compiled with sj-processor but the class calling into SJ was
     * not, the {@code sessionj.missingDescriptor} policy applied to that class ({@link UncheckedCallers}).
     */
    public static CompiledProtocol forCreate(Class<?> protocol) {
        CompiledProtocol compiled = of(protocol);
        if (compiled.described()) {
            UncheckedCallers.check(protocol.getName(), MissingDescriptor.from(SystemSettings.system()));
        }
        return compiled;
    }

    /**
     * Before a session of {@code compiled} starts ({@code request()}, {@code accept()}): when the protocol was
     * compiled with sj-processor but the class that runs the session was not, the {@code
     * sessionj.missingDescriptor} policy applied to that class, as at {@link #forCreate} (adv17 A6: a service
     * created by a checked factory method or held in a checked class's field, and used by an unchecked class,
     * was never looked at). Called for the first session of each service or server socket object (a stack
     * walk costs ~2 µs, too much for every session set-up); nothing when the policy is {@code ignore}.
     */
    public static void forSession(CompiledProtocol compiled) {
        if (compiled.described()) {
            UncheckedCallers.check(compiled.name(), MissingDescriptor.from(SystemSettings.system()));
        }
    }

    /**
     * The member protocols of a set protocol, {@code @Protocol("{@(A), @(B)}")}, in written order; empty
     * when {@code protocol} is a sequence protocol. Read from the descriptor (which keeps a set's
     * references, by binary name) or else from the annotation, resolving names at run time.
     *
     * @throws IllegalArgumentException when a member is not a single protocol reference {@code @(P)}: a
     *                                  typed selector tells members apart by their protocols
     * @throws SJException when {@code protocol} is no protocol, or its set does not parse
     */
    public static Optional<List<Class<?>>> setMembers(Class<?> protocol) {
        ClassLoader loader = loaderOf(protocol);
        Optional<String> described = descriptorText(protocol, loader);
        String text = described.orElseGet(() -> annotation(protocol).value());
        if (!SessionSets.isSet(text)) {
            return Optional.empty();
        }
        SessionSet set;
        try {
            set = SessionSets.parse(text);
        } catch (RuntimeException e) {
            throw new SJException("the set protocol " + protocol.getName() + " does not parse: " + e.getMessage(), e);
        }
        List<Class<?>> members = new ArrayList<>(set.size());
        for (int i = 0; i < set.size(); i++) {
            SessionType member = set.members().get(i);
            if (member.actions().size() != 1 || !(member.head() instanceof Action.ProtocolRef ref)) {
                throw new IllegalArgumentException("member " + (i + 1) + " of the set protocol " + protocol.getName()
                        + " is not a protocol reference @(P): a typed selector tells its members apart by their"
                        + " protocols");
            }
            if (described.isPresent()) {
                try {
                    members.add(Class.forName(ref.name(), false, loader));
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new SJException("the set protocol " + protocol.getName() + " names " + ref.name()
                            + ", which does not load: " + e, e);
                }
            } else {
                members.add(new TypeNameResolver(protocol, loader).resolveClass(ref.name()));
            }
        }
        return Optional.of(List.copyOf(members));
    }

    /**
     * A protocol made from a session type that arrived at run time (the type of a received service),
     * named {@code name} for messages; message classes load with {@code loader}.
     */
    public static CompiledProtocol ofType(String name, SessionType type, ClassLoader loader) {
        SessionTypes.checkWellFormed(type);
        return new CompiledProtocol(name, type, StateMachine.compile(type, loader), loader, false);
    }

    private static CompiledProtocol compile(Class<?> protocol) {
        ClassLoader loader = loaderOf(protocol);
        Optional<String> text = descriptorText(protocol, loader);
        SessionType type;
        if (text.isPresent()) {
            type = parsed(protocol, text.get());
            // Off by default: the look-up scans the class path, which a descriptor class spares a cold start.
            if (SystemSettings.system().flag("checkUsers", false)) { // StaleUsers.SETTING, literal for ConfigurationDocTest
                StaleUsers.check(protocol, loader, text.get());
            }
        } else {
            annotation(protocol); // not a protocol at all: say that rather than "no descriptor"
            MissingDescriptor.from(SystemSettings.system()).apply(protocol);
            type = fromAnnotation(protocol, loader);
        }
        SessionTypes.checkWellFormed(type);
        State start = StateMachine.compile(type, loader);
        return new CompiledProtocol(protocol.getName(), type, start, loader, text.isPresent());
    }

    private static ClassLoader loaderOf(Class<?> protocol) {
        ClassLoader loader = protocol.getClassLoader();
        return loader != null ? loader : ClassLoader.getSystemClassLoader();
    }

    private static Optional<SessionType> descriptor(Class<?> protocol, ClassLoader loader) {
        Optional<String> text = descriptorText(protocol, loader);
        return text.isEmpty() ? Optional.empty() : Optional.of(parsed(protocol, text.get()));
    }

    private static SessionType parsed(Class<?> protocol, String text) {
        refuseSet(protocol, text);
        try {
            return SessionTypes.parse(text);
        } catch (RuntimeException e) {
            throw new SJException("the protocol descriptor of " + protocol.getName() + " (the class "
                    + protocol.getName() + ProtocolDescriptors.CLASS_SUFFIX + " or the resource " + DESCRIPTOR_PREFIX
                    + protocol.getName() + ".sj, generated by sj-processor) is corrupt: " + e.getMessage(), e);
        }
    }

    private static Optional<String> descriptorText(Class<?> protocol, ClassLoader loader) {
        Optional<String> compiled = descriptorClassText(protocol, loader);
        if (compiled.isPresent()) {
            return compiled;
        }
        String resource = DESCRIPTOR_PREFIX + protocol.getName() + ".sj";
        try (InputStream in = loader.getResourceAsStream(resource)) {
            return in == null ? Optional.empty()
                    : Optional.of(withoutRecord(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the protocol descriptor " + resource, e);
        }
    }

    /** The descriptor in the text of a descriptor resource: what precedes the record ({@link #RECORD_LINE}), stripped. */
    static String withoutRecord(String file) {
        int record = file.startsWith(RECORD_LINE) ? 0 : file.indexOf("\n" + RECORD_LINE);
        return (record < 0 ? file : file.substring(0, record)).strip();
    }

    /**
     * The descriptor from the class sj-processor generates next to the protocol
     * ({@link ProtocolDescriptors}); empty when there is none (a processor older than it, or none: the
     * resource and then the annotation are read). Read first: a class comes from an AOT cache or CDS
     * archive without opening a jar, whereas the first resource look-up of a fresh JVM opens and indexes
     * every jar on the class path (issue 15, cold start).
     */
    private static Optional<String> descriptorClassText(Class<?> protocol, ClassLoader loader) {
        String name = protocol.getName() + ProtocolDescriptors.CLASS_SUFFIX;
        Class<?> holder;
        try {
            holder = Class.forName(name, true, loader);
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        } catch (LinkageError e) {
            throw new SJException("the protocol descriptor class " + name + " cannot be loaded: " + e, e);
        }
        Optional<String> text = ProtocolDescriptors.defined(holder);
        if (text.isEmpty()) {
            throw new SJException("the protocol descriptor class " + name + " defines no descriptor: it is not"
                    + " one sj-processor generated");
        }
        return Optional.of(text.get().strip());
    }

    /** A set protocol types a selector's sessions, never one session: say so rather than "does not parse". */
    private static void refuseSet(Class<?> protocol, String text) {
        if (SessionSets.isSet(text)) {
            throw new SJException(protocol.getName() + " is a set protocol (" + text + "): it types the sessions of"
                    + " a typed selector, SJSelector.of(" + protocol.getSimpleName() + ".class), not one session");
        }
    }

    /** Parses {@code @Protocol} and resolves its names, inlining referenced protocols the same way. */
    private static SessionType fromAnnotation(Class<?> protocol, ClassLoader loader) {
        return SessionTypes.expand(declared(protocol, loader), new RuntimeProtocolResolver(loader));
    }

    /** The annotation's type with Java type names resolved (references to other protocols left as they are). */
    static SessionType declared(Class<?> protocol, ClassLoader loader) {
        Protocol annotation = annotation(protocol);
        refuseSet(protocol, annotation.value());
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
