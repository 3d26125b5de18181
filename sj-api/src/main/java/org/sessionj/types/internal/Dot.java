package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.SessionType;
import org.sessionj.types.internal.Unfolding.Choice;
import org.sessionj.types.internal.Unfolding.End;
import org.sessionj.types.internal.Unfolding.Head;
import org.sessionj.types.internal.Unfolding.Prefix;

/**
 * Graphviz state machine of a session type. States are numbered in breadth-first order from the
 * initial state, and edges follow the written order of labels, so the output is deterministic.
 */
public final class Dot {
    private Dot() {
    }

    public static String toDot(SessionType type) {
        Map<SessionType, Integer> states = new LinkedHashMap<>();
        List<String> edges = new ArrayList<>();
        List<Integer> ends = new ArrayList<>();
        Deque<SessionType> queue = new ArrayDeque<>();
        SessionType initial = Unfolding.unfoldRecursion(type);
        states.put(initial, 0);
        queue.add(initial);
        while (!queue.isEmpty()) {
            SessionType state = queue.poll();
            int from = states.get(state);
            Head head = Unfolding.head(state);
            switch (head) {
                case End end -> ends.add(from);
                case Prefix prefix -> edges.add(edge(from, target(prefix.continuation(), states, queue),
                        Printer.print(prefix.action())));
                case Choice choice -> choice.branches().forEach((label, next) ->
                        edges.add(edge(from, target(next, states, queue), choice.step(label))));
            }
        }
        StringBuilder out = new StringBuilder("digraph session {\n");
        out.append("  rankdir=LR;\n");
        out.append("  node [shape=circle];\n");
        out.append("  start [shape=point];\n");
        for (int state : states.values()) {
            out.append("  s").append(state).append(" [label=\"").append(state).append('"')
                    .append(ends.contains(state) ? ", shape=doublecircle" : "").append("];\n");
        }
        out.append("  start -> s0;\n");
        edges.forEach(edge -> out.append(edge));
        return out.append("}\n").toString();
    }

    private static int target(SessionType next, Map<SessionType, Integer> states, Deque<SessionType> queue) {
        SessionType state = Unfolding.unfoldRecursion(next);
        Integer known = states.get(state);
        if (known != null) {
            return known;
        }
        int id = states.size();
        states.put(state, id);
        queue.add(state);
        return id;
    }

    private static String edge(int from, int to, String label) {
        return "  s" + from + " -> s" + to + " [label=\"" + escape(label) + "\"];\n";
    }

    private static String escape(String label) {
        return label.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
