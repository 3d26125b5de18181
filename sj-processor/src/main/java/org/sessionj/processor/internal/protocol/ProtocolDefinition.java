package org.sessionj.processor.internal.protocol;

import java.util.List;
import org.sessionj.types.SessionType;

/** What the processor knows about one {@code @Protocol} interface. */
public sealed interface ProtocolDefinition {

    /**
     * A valid protocol.
     *
     * @param binaryName the interface's binary name
     * @param resolved the declared type with Java and protocol names replaced by binary names, references kept
     * @param expanded {@code resolved} with every reference inlined: what the descriptor holds
     */
    record Valid(String binaryName, SessionType resolved, SessionType expanded) implements ProtocolDefinition {
    }

    /** A protocol with errors; {@code problems} are complete diagnostic messages (with codes). */
    record Invalid(String binaryName, List<String> problems) implements ProtocolDefinition {
        public Invalid {
            problems = List.copyOf(problems);
        }
    }
}
