package org.sessionj.types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import org.sessionj.types.Payload.JavaType;

/**
 * Random well-formed session types: every construct, recursion (also shadowing) with guarded
 * tail-position variables, delegation and service payloads. Message types come from a small
 * pool with an Integer ≤ Number ≤ Object chain, so that {@link #widen} finds supertypes.
 */
final class SessionTypeGenerator {
    static final JavaSubtyping NUMBERS = (sub, sup) -> sub.equals(sup)
            || sub.name().equals("Integer") && (sup.name().equals("Number") || sup.name().equals("Object"))
            && sub.arrayDimensions() == 0 && sup.arrayDimensions() == 0
            || sub.name().equals("Number") && sup.name().equals("Object")
            && sub.arrayDimensions() == 0 && sup.arrayDimensions() == 0;

    private static final List<JavaType> TYPES = List.of(
            JavaType.of("int"), JavaType.of("Integer"), JavaType.of("Number"), JavaType.of("Object"),
            new JavaType("double", List.of(), 2), JavaType.of("java.lang.String"),
            new JavaType("java.util.Map", List.of(JavaType.of("String"), new JavaType("int", List.of(), 1)), 0));
    private static final List<String> LABELS = List.of("A", "B", "C", "QUIT");
    private static final List<String> VARIABLES = List.of("X", "Y", "Z");

    private final Random random;

    private SessionTypeGenerator(Random random) {
        this.random = random;
    }

    static Arbitrary<SessionType> sessionTypes() {
        return Arbitraries.randomValue(random -> new SessionTypeGenerator(random).protocol());
    }

    private SessionType protocol() {
        List<Action> actions = new ArrayList<>();
        int begin = random.nextInt(3);
        if (begin > 0) {
            actions.add(new Action.Begin(begin == 1 ? Side.REQUEST : Side.ACCEPT));
        }
        actions.addAll(sequence(3, Map.of(), begin > 0).actions());
        return new SessionType(actions);
    }

    /** @param vars variables usable at the end of this sequence, mapped to whether they are guarded */
    private SessionType sequence(int depth, Map<String, Boolean> vars, boolean guarded) {
        int length = random.nextInt(depth <= 0 ? 2 : 4);
        List<Action> actions = new ArrayList<>();
        boolean communicated = guarded;
        for (int i = 0; i < length; i++) {
            boolean last = i == length - 1;
            Map<String, Boolean> usable = last ? withGuard(vars, communicated) : Map.of();
            Action action = action(depth, usable, communicated);
            actions.add(action);
            if (!(action instanceof Action.Rec)) {
                communicated = true;
            }
            if (action instanceof Action.RecVar) {
                break;
            }
        }
        return new SessionType(actions);
    }

    private static Map<String, Boolean> withGuard(Map<String, Boolean> vars, boolean communicated) {
        Map<String, Boolean> result = new HashMap<>();
        vars.forEach((x, g) -> result.put(x, g || communicated));
        return result;
    }

    private Action action(int depth, Map<String, Boolean> vars, boolean guarded) {
        List<String> callable = vars.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey)
                .sorted().toList();
        int kinds = depth <= 0 ? 3 : 10;
        int kind = random.nextInt(kinds + (callable.isEmpty() ? 0 : 2));
        if (kind >= kinds) {
            return new Action.RecVar(callable.get(random.nextInt(callable.size())));
        }
        return switch (kind) {
            case 0 -> new Action.Send(pick(TYPES));
            case 1 -> new Action.Receive(pick(TYPES));
            case 2 -> random.nextBoolean() ? new Action.ProtocolRef(pick(List.of("P", "Q")))
                    : new Action.DualRef(pick(List.of("P", "Q")));
            case 3 -> new Action.Select(branches(depth, vars));
            case 4 -> new Action.Branch(branches(depth, vars));
            case 5 -> new Action.OutWhile(sequence(depth - 1, Map.of(), true));
            case 6 -> new Action.InWhile(sequence(depth - 1, Map.of(), true));
            case 7 -> random.nextBoolean() ? new Action.Send(sessionPayload(depth)) : new Action.Receive(sessionPayload(depth));
            default -> {
                String x = pick(VARIABLES);
                Map<String, Boolean> inner = new HashMap<>(withGuard(vars, guarded));
                inner.put(x, false);
                yield new Action.Rec(x, sequence(depth - 1, inner, false));
            }
        };
    }

    private Map<String, SessionType> branches(int depth, Map<String, Boolean> vars) {
        Map<String, SessionType> branches = new LinkedHashMap<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            branches.put(pick(LABELS), sequence(depth - 1, withGuard(vars, true), true));
        }
        return branches;
    }

    private Payload sessionPayload(int depth) {
        SessionType body = sequence(depth - 1, Map.of(), false);
        return new Payload.SessionPayload(random.nextBoolean() ? body.prepend(new Action.Begin(Side.REQUEST)) : body);
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /**
     * A supertype of {@code type} (the sup side of ≤): selections gain labels, branchings lose
     * some (keeping one), sends widen and receives narrow along Integer ≤ Number ≤ Object.
     */
    static SessionType widen(SessionType type, Random random) {
        List<Action> actions = new ArrayList<>();
        for (Action action : type.actions()) {
            actions.add(switch (action) {
                case Action.Send send when send.payload() instanceof JavaType t && random.nextBoolean() ->
                        new Action.Send(up(t));
                case Action.Receive receive when receive.payload() instanceof JavaType t && random.nextBoolean() ->
                        new Action.Receive(down(t));
                case Action.Select select -> {
                    Map<String, SessionType> branches = widen(select.branches(), random);
                    if (random.nextBoolean()) {
                        branches.putIfAbsent("EXTRA", SessionType.of(new Action.Send(JavaType.of("int"))));
                    }
                    yield new Action.Select(branches);
                }
                case Action.Branch branch -> {
                    Map<String, SessionType> branches = widen(branch.branches(), random);
                    if (branches.size() > 1 && random.nextBoolean()) {
                        branches.remove(branches.keySet().iterator().next());
                    }
                    yield new Action.Branch(branches);
                }
                case Action.OutWhile loop -> new Action.OutWhile(widen(loop.body(), random));
                case Action.InWhile loop -> new Action.InWhile(widen(loop.body(), random));
                case Action.Rec rec -> new Action.Rec(rec.variable(), widen(rec.body(), random));
                default -> action;
            });
        }
        return new SessionType(actions);
    }

    private static Map<String, SessionType> widen(Map<String, SessionType> branches, Random random) {
        Map<String, SessionType> result = new LinkedHashMap<>();
        branches.forEach((label, body) -> result.put(label, widen(body, random)));
        return result;
    }

    private static JavaType up(JavaType t) {
        return switch (t.name()) {
            case "Integer" -> JavaType.of("Number");
            case "Number" -> JavaType.of("Object");
            default -> t;
        };
    }

    private static JavaType down(JavaType t) {
        return switch (t.name()) {
            case "Object" -> JavaType.of("Number");
            case "Number" -> JavaType.of("Integer");
            default -> t;
        };
    }
}
