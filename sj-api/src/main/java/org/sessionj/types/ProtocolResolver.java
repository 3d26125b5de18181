package org.sessionj.types;

import java.util.Map;
import java.util.Optional;

/**
 * Finds the session type a protocol name stands for, to inline {@code @(P)} and {@code ^(P)}.
 * The processor resolves names in the compilation, the runtime from generated descriptors, the
 * CLI from files or definitions given on the command line.
 */
@FunctionalInterface
public interface ProtocolResolver {

    /** The (unexpanded) type of the protocol named {@code name}, or empty when there is none. */
    Optional<SessionType> resolve(String name);

    /** A resolver that knows no protocol. */
    static ProtocolResolver none() {
        return name -> Optional.empty();
    }

    /** A resolver over fixed definitions. */
    static ProtocolResolver of(Map<String, SessionType> definitions) {
        Map<String, SessionType> copy = Map.copyOf(definitions);
        return name -> Optional.ofNullable(copy.get(name));
    }
}
