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

    /**
     * A valid set protocol, {@code @Protocol("{S1, …, Sn}")} (docs/session-types.md §8): the type of the
     * sessions of a typed selector, never of one session.
     *
     * @param binaryName the interface's binary name
     * @param resolved the members with names replaced by binary names, references kept: what the descriptor holds
     * @param expanded each member with every reference inlined, in the same order
     * @param protocols for each member that is exactly one protocol reference {@code @(P)}, P's binary
     *                  name, else null (such a member can type no selector: its sessions have no protocol)
     */
    record SetProtocol(String binaryName, List<SessionType> resolved, List<SessionType> expanded,
            List<String> protocols) implements ProtocolDefinition {
        public SetProtocol {
            resolved = List.copyOf(resolved);
            expanded = List.copyOf(expanded);
            protocols = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(protocols));
        }
    }

    /** A protocol with errors; {@code problems} are complete diagnostic messages (with codes). */
    record Invalid(String binaryName, List<String> problems) implements ProtocolDefinition {
        public Invalid {
            problems = List.copyOf(problems);
        }
    }
}
