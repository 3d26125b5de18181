package org.sessionj.crosscheck.program;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.sessionj.crosscheck.program.Stmt.Act;
import org.sessionj.crosscheck.program.Stmt.ActKind;
import org.sessionj.crosscheck.program.Stmt.Arm;
import org.sessionj.crosscheck.program.Stmt.Branch;
import org.sessionj.crosscheck.program.Stmt.BranchStyle;
import org.sessionj.crosscheck.program.Stmt.Call;
import org.sessionj.crosscheck.program.Stmt.Form;
import org.sessionj.crosscheck.program.Stmt.InLoop;
import org.sessionj.crosscheck.program.Stmt.Jump;
import org.sessionj.crosscheck.program.Stmt.OutLoop;
import org.sessionj.crosscheck.program.Stmt.Rec;
import org.sessionj.crosscheck.program.Stmt.Select;
import org.sessionj.crosscheck.program.Stmt.SelectStyle;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/**
 * Writes a well-typed program for one side of a session type: each action becomes the statement(s)
 * an SJ programmer would write, in a randomly chosen but always correct style (dedicated or generic
 * receives, {@code @NoAlias} and {@code pass}, if-chains or switches for selections, arrow, colon or
 * enum-label switches for branchings, labelled {@code while (true)} loops for recursion), and some
 * runs of statements are moved into session methods with their {@code @Session} type.
 */
public final class SideGenerator {
    private final SplittableRandom random;
    private int ids;
    private int methods;

    public SideGenerator(SplittableRandom random) {
        this.random = random;
    }

    /** The side with session body {@code type} (without {@code cbegin}/{@code sbegin}). */
    public Side generate(Side.Role role, SessionType type) {
        List<Stmt> body = sequence(type, null);
        Side side = new Side(role, body, List.of());
        int extractions = random.nextInt(3);
        for (int i = 0; i < extractions; i++) {
            side = extractMethod(side);
        }
        if (random.nextInt(6) == 0) {
            side = new Side(role, List.of(new Call("serve")),
                    prepend(new Side.Method("serve", null, true, side.body()), side.methods()));
        }
        SessionType written = SessionTypeOf.side(side, side.body());
        if (!written.equals(type)) {
            throw new IllegalStateException("the generator wrote " + written + " for " + type);
        }
        return side;
    }

    private static List<Side.Method> prepend(Side.Method method, List<Side.Method> rest) {
        List<Side.Method> all = new ArrayList<>();
        all.add(method);
        all.addAll(rest);
        return all;
    }

    /** The statements for {@code type}; {@code recursion} is the label {@code #X} jumps to, if any. */
    private List<Stmt> sequence(SessionType type, String recursion) {
        List<Stmt> out = new ArrayList<>();
        for (Action action : type.actions()) {
            switch (action) {
                case Action.Send send -> out.add(send(MessageType.of(send.payload())));
                case Action.Receive receive -> out.add(receive(MessageType.of(receive.payload())));
                case Action.Select select -> out.add(select(select.branches()));
                case Action.Branch branch -> out.add(branch(branch.branches()));
                case Action.OutWhile loop -> out.add(new OutLoop(++ids, sequence(loop.body(), null), List.of(), true));
                case Action.InWhile loop -> out.add(new InLoop(++ids, sequence(loop.body(), null)));
                case Action.Rec rec -> out.add(rec(rec));
                case Action.RecVar var -> out.add(new Jump(true, var.variable(), false));
                default -> throw new IllegalArgumentException("not generated: " + action);
            }
        }
        return out;
    }

    private Act send(MessageType type) {
        int roll = random.nextInt(10);
        Form form = type.array() && roll < 3 ? Form.NOALIAS : roll < 6 ? Form.LOCAL : Form.PLAIN;
        return new Act(++ids, ActKind.SEND, type, type, form, null);
    }

    private Act receive(MessageType type) {
        int roll = random.nextInt(10);
        Form form;
        if (type.primitive()) {
            form = roll < 2 ? Form.BARE : roll < 5 ? Form.LOCAL : Form.PLAIN;
        } else {
            form = type.array() && roll < 3 ? Form.NOALIAS : Form.LOCAL;
        }
        return new Act(++ids, ActKind.RECEIVE, type, type, form, null);
    }

    private Stmt select(Map<String, SessionType> branches) {
        List<Arm> arms = new ArrayList<>();
        int leaving = 0;
        boolean enums = random.nextInt(4) == 0;
        int i = 0;
        for (Map.Entry<String, SessionType> branch : branches.entrySet()) {
            List<Stmt> body = new ArrayList<>();
            body.add(new Act(++ids, ActKind.OUTBRANCH, null, null, enums ? Form.ENUM : Form.PLAIN, branch.getKey()));
            body.addAll(sequence(branch.getValue(), null));
            if (!endsInRecursion(branch.getValue())) {
                leaving |= 1 << i;
            }
            arms.add(new Arm(branch.getKey(), body));
            i++;
        }
        SelectStyle style = SelectStyle.values()[random.nextInt(SelectStyle.values().length)];
        return new Select(++ids, arms, leaving, style);
    }

    private Stmt branch(Map<String, SessionType> branches) {
        List<Arm> arms = new ArrayList<>();
        for (Map.Entry<String, SessionType> branch : branches.entrySet()) {
            arms.add(new Arm(branch.getKey(), sequence(branch.getValue(), null)));
        }
        BranchStyle style = BranchStyle.values()[random.nextInt(BranchStyle.values().length)];
        return new Branch(++ids, arms, style);
    }

    private static boolean endsInRecursion(SessionType type) {
        return !type.isEnd() && type.actions().get(type.actions().size() - 1) instanceof Action.RecVar;
    }

    /**
     * {@code X: while (true) { body }}: {@code #X} becomes {@code continue X} (or nothing when it ends
     * the loop body anyway) and every arm of the final choice that does not recurse ends with
     * {@code break X}.
     */
    private Stmt rec(Action.Rec rec) {
        List<Stmt> body = sequence(rec.body(), rec.variable());
        return new Rec(rec.variable(), closeRecursion(body, rec.variable(), true));
    }

    /** Adds {@code break label} where a path ends without recursing; drops some trailing {@code continue label}. */
    private List<Stmt> closeRecursion(List<Stmt> body, String label, boolean tail) {
        List<Stmt> out = new ArrayList<>(body);
        Stmt last = out.isEmpty() ? null : out.get(out.size() - 1);
        if (last instanceof Jump jump && jump.recurse() && jump.label().equals(label)) {
            if (tail && random.nextInt(3) == 0) {
                out.set(out.size() - 1, new Jump(true, label, true)); // the end of the loop body recurses anyway
            }
            return out;
        }
        if (last instanceof Select || last instanceof Branch) {
            List<List<Stmt>> arms = new ArrayList<>();
            for (List<Stmt> arm : last.blocks()) {
                arms.add(closeRecursion(arm, label, tail));
            }
            out.set(out.size() - 1, last.withBlocks(arms));
            return out;
        }
        out.add(new Jump(false, label, false));
        return out;
    }

    // ---- session methods ------------------------------------------------------------------------

    /** Moves a random run of statements of some block into a new session method, if one qualifies. */
    private Side extractMethod(Side side) {
        List<Candidate> candidates = new ArrayList<>();
        collect(side.body(), new ArrayList<>(), candidates);
        if (candidates.isEmpty()) {
            return side;
        }
        Candidate pick = candidates.get(random.nextInt(candidates.size()));
        int length = 1 + random.nextInt(pick.maxLength);
        String name = "m" + (++methods);
        List<Stmt> run = new ArrayList<>(blockAt(side.body(), pick.path).subList(pick.start, pick.start + length));
        SessionType type = SessionTypeOf.side(side, run);
        if (type.isEnd()) {
            return side;
        }
        Side.Method method = new Side.Method(name, type.toString(), false, run);
        List<Stmt> body = replaceRun(side.body(), pick.path, 0, pick.start, length, new Call(name));
        List<Side.Method> all = new ArrayList<>(side.methods());
        all.add(method);
        return new Side(side.role(), body, all);
    }

    /** A run that may start at {@code start} of the block at {@code path}, at most {@code maxLength} long. */
    private record Candidate(List<Integer> path, int start, int maxLength) {
    }

    /** @param path pairs (statement index, nested block index) from the body to this block */
    private static void collect(List<Stmt> block, List<Integer> path, List<Candidate> out) {
        for (int start = 0; start < block.size(); start++) {
            int length = 0;
            while (start + length < block.size() && extractable(block.get(start + length))) {
                length++;
            }
            if (length > 0) {
                out.add(new Candidate(List.copyOf(path), start, length));
            }
        }
        for (int i = 0; i < block.size(); i++) {
            List<List<Stmt>> nested = block.get(i).blocks();
            for (int b = 0; b < nested.size(); b++) {
                List<Integer> inner = new ArrayList<>(path);
                inner.add(i);
                inner.add(b);
                collect(nested.get(b), inner, out);
            }
        }
    }

    /** Whether a statement can move into a method: not an outbranch, and no jump out of it. */
    private static boolean extractable(Stmt stmt) {
        if (stmt instanceof Act act && act.kind() == ActKind.OUTBRANCH || stmt instanceof Jump) {
            return false;
        }
        return jumpsOut(stmt, List.of()).isEmpty();
    }

    /** Labels of jumps inside {@code stmt} to recursions that enclose it. */
    static List<String> jumpsOut(Stmt stmt, List<String> enclosedBy) {
        List<String> out = new ArrayList<>();
        if (stmt instanceof Jump jump && !enclosedBy.contains(jump.label())) {
            out.add(jump.label());
        }
        List<String> inner = enclosedBy;
        if (stmt instanceof Rec rec) {
            inner = new ArrayList<>(enclosedBy);
            inner.add(rec.label());
        }
        for (List<Stmt> block : stmt.blocks()) {
            for (Stmt s : block) {
                out.addAll(jumpsOut(s, inner));
            }
        }
        return out;
    }

    static List<Stmt> blockAt(List<Stmt> body, List<Integer> path) {
        List<Stmt> block = body;
        for (int i = 0; i < path.size(); i += 2) {
            block = block.get(path.get(i)).blocks().get(path.get(i + 1));
        }
        return block;
    }

    private static List<Stmt> replaceRun(List<Stmt> block, List<Integer> path, int depth, int start, int length,
            Stmt replacement) {
        List<Stmt> out = new ArrayList<>(block);
        if (depth == path.size()) {
            for (int i = 0; i < length; i++) {
                out.remove(start);
            }
            out.add(start, replacement);
            return out;
        }
        int index = path.get(depth);
        int nested = path.get(depth + 1);
        Stmt stmt = out.get(index);
        List<List<Stmt>> blocks = new ArrayList<>(stmt.blocks());
        blocks.set(nested, replaceRun(blocks.get(nested), path, depth + 2, start, length, replacement));
        out.set(index, stmt.withBlocks(blocks));
        return out;
    }
}
