package org.sessionj.types.internal;

import java.util.Map;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;

/**
 * Writes the canonical SJ notation: no spaces except one after each ':' and ',' of a choice
 * (and the ", " between type arguments), {@code end} only where an empty session is a message.
 */
public final class Printer {
    private Printer() {
    }

    public static String print(SessionType type) {
        StringBuilder out = new StringBuilder();
        sequence(type, out);
        return out.toString();
    }

    /** The canonical notation of one action. */
    public static String print(Action action) {
        StringBuilder out = new StringBuilder();
        action(action, out);
        return out.toString();
    }

    private static void sequence(SessionType type, StringBuilder out) {
        for (int i = 0; i < type.actions().size(); i++) {
            if (i > 0) {
                out.append('.');
            }
            action(type.actions().get(i), out);
        }
    }

    private static void action(Action action, StringBuilder out) {
        switch (action) {
            case Action.Begin begin -> out.append(begin.side().keyword());
            case Action.Send send -> payload(send.payload(), out.append("!<")).append('>');
            case Action.Receive receive -> payload(receive.payload(), out.append("?(")).append(')');
            case Action.Select select -> choices(select.branches(), out.append("!{")).append('}');
            case Action.Branch branch -> choices(branch.branches(), out.append("?{")).append('}');
            case Action.OutWhile loop -> {
                out.append("![");
                sequence(loop.body(), out);
                out.append("]*");
            }
            case Action.InWhile loop -> {
                out.append("?[");
                sequence(loop.body(), out);
                out.append("]*");
            }
            case Action.Rec rec -> {
                out.append("rec ").append(rec.variable()).append('[');
                sequence(rec.body(), out);
                out.append(']');
            }
            case Action.RecVar variable -> out.append('#').append(variable.variable());
            case Action.ProtocolRef ref -> out.append("@(").append(ref.name()).append(')');
            case Action.DualRef ref -> out.append("^(").append(ref.name()).append(')');
        }
    }

    private static StringBuilder payload(Payload payload, StringBuilder out) {
        switch (payload) {
            case Payload.JavaType type -> out.append(type);
            case Payload.SessionPayload session -> {
                if (session.type().isEnd()) {
                    out.append("end");
                } else {
                    sequence(session.type(), out);
                }
            }
        }
        return out;
    }

    private static StringBuilder choices(Map<String, SessionType> branches, StringBuilder out) {
        boolean first = true;
        for (Map.Entry<String, SessionType> branch : branches.entrySet()) {
            if (!first) {
                out.append(", ");
            }
            first = false;
            out.append(branch.getKey()).append(": ");
            sequence(branch.getValue(), out);
        }
        return out;
    }
}
