package org.sessionj.crosscheck.program;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * Random well-formed session bodies (the part after {@code cbegin}) that terminate when both sides
 * follow them with a bounded budget: every {@code #X} ends an arm of a choice that also has an arm
 * leaving the recursion, so whichever side selects can always leave it.
 *
 * <p>Covers sends and receives of every {@link MessageType}, selections and branchings (1–3 labels,
 * empty arms too), both loops, {@code rec}/{@code #X} (also nested), at any nesting up to the depth.
 * Deterministic for a given random source.
 */
public final class ProtocolGenerator {
    /** The labels of choices: the constants of the generated {@code Proto.Label} enum. */
    public static final List<String> LABELS = List.of("A", "B", "C", "QUIT");

    private final SplittableRandom random;
    private final int maxDepth;
    private int variables;

    public ProtocolGenerator(SplittableRandom random, int maxDepth) {
        this.random = random;
        this.maxDepth = maxDepth;
    }

    /** A body of at least one action; well-formed (checked). */
    public SessionType body() {
        SessionType type;
        do {
            type = sequence(0, null, 1 + random.nextInt(4));
        } while (type.isEnd());
        if (!SessionTypes.wellFormednessProblems(type).isEmpty()) {
            throw new IllegalStateException("generated an ill-formed type " + type + ": "
                    + SessionTypes.wellFormednessProblems(type));
        }
        return type;
    }

    /**
     * A sequence of {@code length} actions; if {@code recursion} is not null the sequence ends with a
     * choice of which some arms recurse to it ({@code #recursion}) and at least one does not.
     */
    private SessionType sequence(int depth, String recursion, int length) {
        List<Action> actions = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            actions.add(action(depth));
        }
        if (recursion != null) {
            actions.add(recursiveChoice(depth, recursion));
        }
        return new SessionType(actions);
    }

    private Action action(int depth) {
        boolean nest = depth < maxDepth;
        int roll = random.nextInt(nest ? 100 : 60);
        if (roll < 30) {
            return new Action.Send(payload());
        }
        if (roll < 60) {
            return new Action.Receive(payload());
        }
        if (roll < 70) {
            return new Action.Select(arms(depth + 1, null));
        }
        if (roll < 80) {
            return new Action.Branch(arms(depth + 1, null));
        }
        if (roll < 87) {
            return new Action.OutWhile(sequence(depth + 1, null, random.nextInt(3)));
        }
        if (roll < 94) {
            return new Action.InWhile(sequence(depth + 1, null, random.nextInt(3)));
        }
        String variable = "X" + (++variables);
        return new Action.Rec(variable, sequence(depth + 1, variable, random.nextInt(3)));
    }

    /** Arms of a choice; with a recursion variable, at least one arm recurses and at least one leaves. */
    private Map<String, SessionType> arms(int depth, String recursion) {
        int count = recursion == null ? 1 + random.nextInt(3) : 2 + random.nextInt(2);
        int leaving = random.nextInt(count);
        int recursing = count > 1 ? (leaving + 1 + random.nextInt(count - 1)) % count : -1;
        Map<String, SessionType> arms = new LinkedHashMap<>();
        int first = random.nextInt(LABELS.size());
        for (int i = 0; i < count; i++) {
            String label = LABELS.get((first + i) % LABELS.size());
            SessionType arm = sequence(depth, null, random.nextInt(depth >= maxDepth ? 2 : 3));
            if (recursion != null && i != leaving && (i == recursing || random.nextBoolean())) {
                arm = arm.then(SessionType.of(new Action.RecVar(recursion)));
            }
            arms.put(label, arm);
        }
        return arms;
    }

    private Action recursiveChoice(int depth, String recursion) {
        Map<String, SessionType> arms = arms(depth + 1, recursion);
        return random.nextBoolean() ? new Action.Select(arms) : new Action.Branch(arms);
    }

    private Payload payload() {
        return MessageType.ALL.get(random.nextInt(MessageType.ALL.size())).payload();
    }
}
