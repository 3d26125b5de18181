package org.sessionj.runtime.internal.protocol;

import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;
import org.sessionj.types.Side;

/**
 * A protocol ready for sessions: its resolved, expanded type (class names binary), that type's
 * canonical text, and its compiled state machine.
 *
 * @param name the protocol interface's binary name
 * @param type the resolved, expanded type, as declared (with its {@code cbegin}/{@code sbegin} if any)
 * @param text the canonical SJ notation of {@code type}
 * @param start the first state after the begin
 * @param loader the class loader message classes are loaded with
 */
public record CompiledProtocol(String name, SessionType type, String text, State start, ClassLoader loader) {

    /** The side the type declares with its first action, or null when it does not begin with one. */
    public Side declaredSide() {
        return !type.isEnd() && type.head() instanceof Action.Begin begin ? begin.side() : null;
    }

    /** The type as used by {@code side}: the declared begin, or {@code side}'s begin added when there is none. */
    public SessionType typeFor(Side side) {
        return declaredSide() != null ? type : type.prepend(new Action.Begin(side));
    }
}
