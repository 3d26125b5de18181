package org.sessionj.crosscheck.mutation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.sessionj.crosscheck.mutation.Tree.Owner;
import org.sessionj.crosscheck.mutation.Tree.Ref;
import org.sessionj.crosscheck.program.MessageType;
import org.sessionj.crosscheck.program.Side;
import org.sessionj.crosscheck.program.Stmt;
import org.sessionj.crosscheck.program.Stmt.Act;
import org.sessionj.crosscheck.program.Stmt.ActKind;
import org.sessionj.crosscheck.program.Stmt.Form;
import org.sessionj.crosscheck.program.Stmt.WrapKind;

/**
 * Random single mutations of a generated program: drop an action (or a construct, or the decision of
 * one), duplicate an action, swap two adjacent statements, retype a message, move an action
 * elsewhere (another block, a loop body, a branch arm, an {@code outwhile} operand, another session
 * method) or into a Java construct ({@link WrapKind}: lambda, catch, finally, assert, pattern alias,
 * ...), wrap a run of statements in a {@code try} that may throw midway, or insert a {@code close()}.
 * Every mutant is valid Java (checked with {@link Tree#valid}) and differs from the program.
 */
public final class Mutator {
    private final SplittableRandom random;
    private int fresh;

    public Mutator(SplittableRandom random) {
        this.random = random;
    }

    /** Up to {@code count} distinct mutants of {@code program} (fewer only if it has too few sites). */
    public List<Mutation> mutants(Side program, int count) {
        fresh = 10_000;
        List<Mutation> out = new ArrayList<>();
        Set<Side> seen = new HashSet<>();
        seen.add(program);
        for (int attempt = 0; attempt < count * 30 && out.size() < count; attempt++) {
            Mutation mutation = switch (operator()) {
                case 0 -> drop(program);
                case 1 -> dropConstruct(program);
                case 2 -> duplicate(program);
                case 3 -> swap(program);
                case 4 -> retype(program);
                case 5 -> wrapInPlace(program);
                case 6 -> move(program);
                case 7 -> wrapRangeInTry(program);
                default -> insertClose(program);
            };
            if (mutation != null && Tree.valid(mutation.mutant()) && seen.add(mutation.mutant())) {
                out.add(mutation);
            }
        }
        return out;
    }

    /** Weights: drop 12, drop construct/decision 6, duplicate 10, swap 12, retype 14, wrap 16, move 20, try 6, close 4. */
    private int operator() {
        int roll = random.nextInt(100);
        int[] bounds = {12, 18, 28, 40, 54, 70, 90, 96};
        for (int i = 0; i < bounds.length; i++) {
            if (roll < bounds[i]) {
                return i;
            }
        }
        return 8;
    }

    /** A statement and where it is. */
    private record Site(Ref ref, int index, Stmt stmt) {
    }

    private static List<Site> sites(Side side) {
        List<Site> out = new ArrayList<>();
        for (Ref ref : Tree.all(side)) {
            List<Stmt> block = Tree.block(side, ref);
            for (int i = 0; i < block.size(); i++) {
                out.add(new Site(ref, i, block.get(i)));
            }
        }
        return out;
    }

    /** Sites of movable actions: sends, receives, outbranches and session-method calls. */
    private static List<Site> actions(Side side) {
        return sites(side).stream().filter(site -> site.stmt() instanceof Act act && act.kind() != ActKind.CLOSE
                || site.stmt() instanceof Stmt.Call).toList();
    }

    private <T> T pick(List<T> items) {
        return items.isEmpty() ? null : items.get(random.nextInt(items.size()));
    }

    private static String name(Stmt stmt) {
        return switch (stmt) {
            case Act act -> act.kind().name().toLowerCase(Locale.ROOT);
            case Stmt.Call call -> "call";
            case Stmt.Select select -> "select";
            case Stmt.Branch branch -> "branch";
            case Stmt.OutLoop loop -> "outwhile";
            case Stmt.InLoop loop -> "inwhile";
            case Stmt.Rec rec -> "rec";
            case Stmt.Jump jump -> "jump";
            case Stmt.Wrap wrap -> "wrap";
        };
    }

    private static String describe(Stmt stmt) {
        return switch (stmt) {
            case Act act -> switch (act.kind()) {
                case SEND -> "the send of " + act.declared().protocol() + " (#" + act.id() + ")";
                case RECEIVE -> "the receive of " + act.declared().protocol() + " (#" + act.id() + ")";
                case OUTBRANCH -> "the outbranch " + act.label() + " (#" + act.id() + ")";
                case CLOSE -> "the close";
            };
            case Stmt.Call call -> "the call of " + call.method();
            case Stmt.Select select -> "the selection #" + select.id();
            case Stmt.Branch branch -> "the branching #" + branch.id();
            case Stmt.OutLoop loop -> "the outwhile loop #" + loop.id();
            case Stmt.InLoop loop -> "the inwhile loop #" + loop.id();
            case Stmt.Rec rec -> "the recursion " + rec.label();
            case Stmt.Jump jump -> (jump.recurse() ? "continue " : "break ") + jump.label();
            case Stmt.Wrap wrap -> "the " + wrap.kind() + " #" + wrap.id();
        };
    }

    private static String where(Ref ref) {
        return (ref.scope() < 0 ? "the session body" : "session method #" + ref.scope()) + " at " + ref.path();
    }

    // ---- operators ------------------------------------------------------------------------------

    private Mutation drop(Side side) {
        Site site = pick(actions(side));
        if (site == null) {
            return null;
        }
        return new Mutation("drop/" + name(site.stmt()), "drop " + describe(site.stmt()) + " in " + where(site.ref()),
                Tree.removeIdentical(side, site.stmt()));
    }

    private Mutation dropConstruct(Side side) {
        Site site = pick(sites(side).stream().filter(s -> s.stmt() instanceof Stmt.Select
                || s.stmt() instanceof Stmt.Branch || s.stmt() instanceof Stmt.OutLoop
                || s.stmt() instanceof Stmt.InLoop).toList());
        if (site == null) {
            return null;
        }
        List<Stmt> block = new ArrayList<>(Tree.block(side, site.ref()));
        String what;
        switch (site.stmt()) {
            case Stmt.OutLoop loop when random.nextBoolean() && loop.session() -> {
                block.set(site.index(), new Stmt.OutLoop(loop.id(), loop.body(), loop.inCondition(), false));
                what = "outwhile-decision";
            }
            case Stmt.InLoop loop when random.nextBoolean() -> {
                block.remove(site.index());
                block.addAll(site.index(), loop.body());
                what = "inwhile-decision";
            }
            case Stmt.Branch branch when random.nextBoolean() -> {
                block.remove(site.index());
                block.addAll(site.index(), branch.arms().get(random.nextInt(branch.arms().size())).body());
                what = "inbranch-decision";
            }
            default -> {
                block.remove(site.index());
                what = name(site.stmt());
            }
        }
        return new Mutation("drop/" + what, "drop " + what + " of " + describe(site.stmt()) + " in " + where(site.ref()),
                Tree.replace(side, site.ref(), block));
    }

    private Mutation duplicate(Side side) {
        Site site = pick(actions(side));
        if (site == null) {
            return null;
        }
        return new Mutation("duplicate/" + name(site.stmt()), "duplicate " + describe(site.stmt()) + " in "
                + where(site.ref()), Tree.insert(side, site.ref(), site.index() + 1, List.of(copy(site.stmt()))));
    }

    private Stmt copy(Stmt stmt) {
        return stmt instanceof Act act ? act.withId(++fresh) : new Stmt.Call(((Stmt.Call) stmt).method());
    }

    private Mutation swap(Side side) {
        Site site = pick(sites(side).stream().filter(s -> !(s.stmt() instanceof Stmt.Jump)
                && s.index() + 1 < Tree.block(side, s.ref()).size()
                && !(Tree.block(side, s.ref()).get(s.index() + 1) instanceof Stmt.Jump)).toList());
        if (site == null) {
            return null;
        }
        List<Stmt> block = new ArrayList<>(Tree.block(side, site.ref()));
        Stmt next = block.get(site.index() + 1);
        block.set(site.index(), next);
        block.set(site.index() + 1, site.stmt());
        return new Mutation("swap/" + name(site.stmt()) + "-" + name(next), "swap " + describe(site.stmt()) + " and "
                + describe(next) + " in " + where(site.ref()), Tree.replace(side, site.ref(), block));
    }

    private Mutation retype(Side side) {
        Site site = pick(sites(side).stream().filter(s -> s.stmt() instanceof Act act
                && (act.kind() == ActKind.SEND || act.kind() == ActKind.RECEIVE)).toList());
        if (site == null) {
            return null;
        }
        Act act = (Act) site.stmt();
        MessageType declared = act.declared();
        Act retyped;
        String signature;
        if (act.kind() == ActKind.SEND && random.nextInt(4) == 0) {
            retyped = new Act(act.id(), act.kind(), declared, declared, Form.BARE, null);
            signature = "retype/send/null/" + category(declared);
        } else {
            MessageType written;
            do {
                written = pick(MessageType.ALL);
            } while (written.equals(declared));
            Form form = act.form();
            if (act.kind() == ActKind.RECEIVE && declared.primitive() && written.primitive() && random.nextBoolean()) {
                form = Form.LOCAL; // a generic receive() into another primitive: unboxing after an unchecked cast
            }
            if (form == Form.BARE) {
                form = Form.PLAIN;
            }
            retyped = new Act(act.id(), act.kind(), declared, written, form, null);
            signature = "retype/" + name(act) + "/" + formOf(act.kind(), form, written) + "/" + category(declared) + "->"
                    + relation(declared, written);
        }
        List<Stmt> block = new ArrayList<>(Tree.block(side, site.ref()));
        block.set(site.index(), retyped);
        return new Mutation(signature, "retype " + describe(act) + " as " + retyped.written().protocol()
                + (retyped.form() == Form.BARE ? " (null)" : "") + " in " + where(site.ref()),
                Tree.replace(side, site.ref(), block));
    }

    private static String formOf(ActKind kind, Form form, MessageType written) {
        if (kind == ActKind.RECEIVE) {
            return form == Form.PLAIN && written.primitive() ? "receiveX" : "generic";
        }
        return form == Form.NOALIAS ? "pass" : "send";
    }

    private static String category(MessageType type) {
        if (type.primitive()) {
            return "primitive";
        }
        if (type.equals(MessageType.BOXED_INT)) {
            return "boxed";
        }
        if (type.array()) {
            return "array";
        }
        return type.equals(MessageType.STRING) ? "string" : "object";
    }

    /** The written type's category, with primitive widening (JLS 5.1.2) told apart. */
    private static String relation(MessageType declared, MessageType written) {
        if (declared.primitive() && written.primitive()) {
            String from = declared.java();
            String to = written.java();
            boolean widening = switch (from) {
                case "int" -> to.equals("long") || to.equals("double");
                case "long" -> to.equals("double");
                case "char" -> to.equals("int") || to.equals("long") || to.equals("double");
                default -> false;
            };
            return widening ? "primitive(widening)" : "primitive(other)";
        }
        return category(written);
    }

    private Mutation wrapInPlace(Side side) {
        Site site = pick(actions(side));
        if (site == null) {
            return null;
        }
        WrapKind kind = wrapKind();
        List<Stmt> block = new ArrayList<>(Tree.block(side, site.ref()));
        block.set(site.index(), new Stmt.Wrap(++fresh, kind, List.of(site.stmt()), random.nextBoolean()));
        return new Mutation("wrap/" + kind, "wrap " + describe(site.stmt()) + " in " + where(site.ref()) + " into "
                + kind, Tree.replace(side, site.ref(), block));
    }

    private WrapKind wrapKind() {
        WrapKind kind;
        do {
            kind = WrapKind.values()[random.nextInt(WrapKind.values().length)];
        } while (kind == WrapKind.TRY_SWALLOW);
        return kind;
    }

    private Mutation move(Side side) {
        Site site = pick(actions(side));
        if (site == null) {
            return null;
        }
        Ref target = pick(Tree.all(side));
        int size = Tree.block(side, target).size();
        int index = random.nextInt(size + 1);
        boolean sameList = target.equals(site.ref());
        if (sameList && (index == site.index() || index == site.index() + 1)) {
            return null; // that is where it is
        }
        Stmt moved = site.stmt() instanceof Act act ? act : new Stmt.Call(((Stmt.Call) site.stmt()).method());
        WrapKind kind = random.nextInt(3) == 0 ? wrapKind() : null;
        Stmt inserted = kind == null ? moved : new Stmt.Wrap(++fresh, kind, List.of(moved), random.nextBoolean());
        if (inserted == site.stmt()) {
            inserted = ((Act) moved).withId(((Act) moved).id()); // a distinct object: the original is removed by identity
        }
        Side mutant = Tree.removeIdentical(Tree.insert(side, target, index, List.of(inserted)), site.stmt());
        String relation = relation(site.ref(), target, sameList);
        return new Mutation("move/" + relation + (kind == null ? "" : "+" + kind), "move " + describe(site.stmt())
                + " from " + where(site.ref()) + " to position " + index + " of " + where(target)
                + (kind == null ? "" : " inside " + kind), mutant);
    }

    private static String relation(Ref from, Ref to, boolean sameList) {
        if (from.scope() != to.scope()) {
            return "to-other-method";
        }
        if (to.owner() == Owner.LOOP_CONDITION) {
            return "into-outwhile-operand";
        }
        if (sameList) {
            return "within-block";
        }
        String owner = to.owner().name().toLowerCase(Locale.ROOT).replace('_', '-');
        if (startsWith(to.path(), from.path())) {
            return "into-nested-" + owner;
        }
        if (startsWith(from.path(), to.path())) {
            return "out-to-enclosing-" + owner;
        }
        return "across-to-" + owner;
    }

    private static boolean startsWith(List<Integer> path, List<Integer> prefix) {
        return path.size() > prefix.size() && path.subList(0, prefix.size()).equals(prefix);
    }

    private Mutation wrapRangeInTry(Side side) {
        Ref ref = pick(Tree.all(side).stream().filter(r -> !Tree.block(side, r).isEmpty()).toList());
        if (ref == null) {
            return null;
        }
        List<Stmt> block = new ArrayList<>(Tree.block(side, ref));
        int from = random.nextInt(block.size());
        int to = from + 1 + random.nextInt(block.size() - from);
        List<Stmt> range = new ArrayList<>(block.subList(from, to));
        block.subList(from, to).clear();
        block.add(from, new Stmt.Wrap(++fresh, WrapKind.TRY_SWALLOW, range, random.nextInt(4) != 0));
        String context = ref.recursions().isEmpty() ? "" : "/in-recursion";
        return new Mutation("wrap-range/TRY_SWALLOW" + context, "wrap statements " + from + ".." + (to - 1) + " of "
                + where(ref) + " in a try that may throw after the first", Tree.replace(side, ref, block));
    }

    private Mutation insertClose(Side side) {
        Ref ref = pick(Tree.all(side));
        int index = random.nextInt(Tree.block(side, ref).size() + 1);
        Act close = new Act(++fresh, ActKind.CLOSE, null, null, Form.PLAIN, null);
        return new Mutation("insert/close/" + (ref.scope() < 0 ? "session-body" : "session-method"),
                "insert s.close() at position " + index + " of " + where(ref), Tree.insert(side, ref, index, List.of(close)));
    }
}
