package org.sessionj.runtime.internal.monitor;

import org.sessionj.types.Action;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * One state of a compiled session type: the next action a session may take and where each outcome
 * leads. Checking an action is a field read or two; the SJ notation for error messages is made only
 * when a check fails.
 */
public final class State {
    /** The next action's kind. */
    public enum Kind { SEND, RECEIVE, SELECT, BRANCH, OUTWHILE, INWHILE, END }

    /** The terminated session. */
    public static final State END = new State(Kind.END, null, null);

    final Kind kind;
    /** The action this state stands for (null for END). */
    final Action action;
    final MessageType message;
    /** After SEND/RECEIVE. */
    State next;
    /** SELECT/BRANCH: labels in declared order and their continuations. */
    String[] labels;
    State[] branches;
    /** OUTWHILE/INWHILE: the loop body's first state, and the state after the loop. */
    State body;
    State exit;
    /** Set during compilation on a placeholder for {@code rec X[...]}: the state it stands for. */
    State forward;
    /** Whether pending output must be flushed on entering this state (an input, or the end). */
    boolean flushOnEntry;
    /** On a start state: whether its messages' codecs were primed ({@link CodecPriming}). */
    volatile boolean codecsPrimed;

    State(Kind kind, Action action, MessageType message) {
        this.kind = kind;
        this.action = action;
        this.message = message;
        this.flushOnEntry = kind == Kind.RECEIVE || kind == Kind.BRANCH || kind == Kind.INWHILE || kind == Kind.END;
    }

    public Kind kind() {
        return kind;
    }

    public MessageType message() {
        return message;
    }

    public State next() {
        return next;
    }

    public State body() {
        return body;
    }

    public State exit() {
        return exit;
    }

    /** Whether entering this state flushes buffered output. */
    public boolean flushOnEntry() {
        return flushOnEntry;
    }

    /** The continuation of {@code label}, or null when this state offers no such label. */
    public State branch(String label) {
        String[] l = labels;
        for (int i = 0; i < l.length; i++) {
            if (l[i].equals(label)) {
                return branches[i];
            }
        }
        return null;
    }

    /** The labels of a SELECT/BRANCH state, in declared order. */
    public String[] labels() {
        return labels.clone();
    }

    /** The expected action in SJ notation, e.g. {@code ?(int)} or {@code !{A: …, B: …}}; {@code end} at the end. */
    public String describe() {
        if (kind == Kind.END) {
            return "end (the session type is complete)";
        }
        return SessionTypes.print(SessionType.of(action));
    }

    @Override
    public String toString() {
        return describe();
    }
}
