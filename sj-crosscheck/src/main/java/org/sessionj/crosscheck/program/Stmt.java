package org.sessionj.crosscheck.program;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements of a generated side, one level above Java: every session action is one node, so
 * that a mutation drops, duplicates, swaps, retypes or moves exactly one action, and the writer
 * ({@link JavaWriter}) always produces Java that compiles. Immutable; {@link #blocks()} and
 * {@link #withBlocks} give uniform access to the nested statement lists.
 */
public sealed interface Stmt {

    /** The statement lists nested in this one, in a fixed order. */
    default List<List<Stmt>> blocks() {
        return List.of();
    }

    /** This statement with its nested lists replaced (same count and order as {@link #blocks()}). */
    default Stmt withBlocks(List<List<Stmt>> blocks) {
        return this;
    }

    /** What an action does. */
    enum ActKind { SEND, RECEIVE, OUTBRANCH, CLOSE }

    /** How an action is written (see {@link JavaWriter}). */
    enum Form {
        /** {@code s.send(literal)} / {@code T v = s.receiveT()}. */
        PLAIN,
        /** {@code T a = literal; s.send(a)} / {@code T v = s.receive()} (generic). */
        LOCAL,
        /** {@code @NoAlias T a = literal; s.pass(a)} / {@code @NoAlias T v = s.receive()}. */
        NOALIAS,
        /** {@code s.send((Boxed) null)} (a mutation) / {@code s.receiveT();} with the value dropped. */
        BARE,
        /** {@code s.outbranch(Enum.L)} (only for {@link ActKind#OUTBRANCH}). */
        ENUM
    }

    /**
     * One session action: a send or receive of a message, an outbranch of a label, or a close.
     *
     * @param declared the message type the protocol has here (null for outbranch and close)
     * @param written the message type the code uses (differs from {@code declared} only in a retyped mutant)
     * @param label the label of an outbranch, the enum of an enum outbranch after a '.'
     */
    record Act(int id, ActKind kind, MessageType declared, MessageType written, Form form, String label)
            implements Stmt {
        public Act withId(int newId) {
            return new Act(newId, kind, declared, written, form, label);
        }
    }

    /** An arm of a choice: its label and its statements (an outbranch arm begins with its {@link Act}). */
    record Arm(String label, List<Stmt> body) {
        public Arm {
            body = List.copyOf(body);
        }
    }

    /** How a selection decides its arm. */
    enum SelectStyle { IF_CHAIN, ARROW_SWITCH, COLON_SWITCH }

    /**
     * A selection: the program decides ({@code Ctl.choose}) and each arm starts with its outbranch.
     *
     * @param leaving bit i set when arm i leaves every enclosing recursion (chosen when the budget is spent)
     */
    record Select(int id, List<Arm> arms, int leaving, SelectStyle style) implements Stmt {
        public Select {
            arms = List.copyOf(arms);
        }

        @Override
        public List<List<Stmt>> blocks() {
            return arms.stream().map(Arm::body).toList();
        }

        @Override
        public Stmt withBlocks(List<List<Stmt>> blocks) {
            List<Arm> replaced = new ArrayList<>();
            for (int i = 0; i < arms.size(); i++) {
                replaced.add(new Arm(arms.get(i).label(), blocks.get(i)));
            }
            return new Select(id, replaced, leaving, style);
        }
    }

    /** How a branching is written. */
    enum BranchStyle { ARROW_SWITCH, COLON_SWITCH, ENUM_LABEL }

    /** A branching: {@code switch (s.inbranch())} with one case per label. */
    record Branch(int id, List<Arm> arms, BranchStyle style) implements Stmt {
        public Branch {
            arms = List.copyOf(arms);
        }

        @Override
        public List<List<Stmt>> blocks() {
            return arms.stream().map(Arm::body).toList();
        }

        @Override
        public Stmt withBlocks(List<List<Stmt>> blocks) {
            List<Arm> replaced = new ArrayList<>();
            for (int i = 0; i < arms.size(); i++) {
                replaced.add(new Arm(arms.get(i).label(), blocks.get(i)));
            }
            return new Branch(id, replaced, style);
        }
    }

    /**
     * {@code while (s.outwhile(c.more())) { body }}; {@code inCondition} is empty unless a mutation moved
     * actions into the condition's operand (they run before every decision).
     *
     * @param session false once a mutation dropped the decision: {@code while (c.more())}
     */
    record OutLoop(int id, List<Stmt> body, List<Stmt> inCondition, boolean session) implements Stmt {
        public OutLoop {
            body = List.copyOf(body);
            inCondition = List.copyOf(inCondition);
        }

        @Override
        public List<List<Stmt>> blocks() {
            return List.of(body, inCondition);
        }

        @Override
        public Stmt withBlocks(List<List<Stmt>> blocks) {
            return new OutLoop(id, blocks.get(0), blocks.get(1), session);
        }
    }

    /** {@code while (s.inwhile()) { body }}. */
    record InLoop(int id, List<Stmt> body) implements Stmt {
        public InLoop {
            body = List.copyOf(body);
        }

        @Override
        public List<List<Stmt>> blocks() {
            return List.of(body);
        }

        @Override
        public Stmt withBlocks(List<List<Stmt>> blocks) {
            return new InLoop(id, blocks.get(0));
        }
    }

    /** {@code label: while (true) { body }}: a {@code rec label[…]}. */
    record Rec(String label, List<Stmt> body) implements Stmt {
        public Rec {
            body = List.copyOf(body);
        }

        @Override
        public List<List<Stmt>> blocks() {
            return List.of(body);
        }

        @Override
        public Stmt withBlocks(List<List<Stmt>> blocks) {
            return new Rec(label, blocks.get(0));
        }
    }

    /**
     * {@code continue label;} ({@code #label}) or {@code break label;} (the recursion is left);
     * {@code implicit} when the {@code continue} is left out because it ends the loop body anyway.
     */
    record Jump(boolean recurse, String label, boolean implicit) implements Stmt {
    }

    /** A call of a session method of the same class: {@code method(s, c);}. */
    record Call(String method) implements Stmt {
    }

    /** Java constructs a mutation puts around actions (see {@link JavaWriter} for each one's code). */
    enum WrapKind {
        /** {@code ((Runnable) () -> { … }).run();} */
        LAMBDA,
        /** {@code new Object() { void run() { … } }.run();} */
        ANONYMOUS_CLASS,
        /** {@code class L { void run() { … } } new L().run();} */
        LOCAL_CLASS,
        /** {@code try { c.boom(flag); } catch (IllegalStateException e) { … }}: runs when flag. */
        CATCH,
        /** {@code try { } finally { … }} */
        FINALLY,
        /** {@code try { …first… c.boom(flag); …rest… } catch (IllegalStateException e) { }}: the rest is skipped when flag. */
        TRY_SWALLOW,
        /** {@code assert switch (0) { default -> { …; yield true; } };}: not run (assertions are off). */
        ASSERT,
        /** {@code if (c.flag(flag)) { … }} */
        IF,
        /** {@code for (int k = 0; k < (flag ? 2 : 0); k++) { … }} */
        FOR,
        /** {@code do { … } while (false);} */
        DO_ONCE,
        /** {@code synchronized (c) { … }} */
        SYNCHRONIZED,
        /** {@code lN: { … }} */
        LABELED_BLOCK,
        /** {@code int z = switch (c.pick(flag ? 1 : 2)) { case 0 -> { …; yield 0; } default -> 1; };} */
        SWITCH_EXPRESSION,
        /** {@code switch ((Object) c) { case Ctl q when switch (0) { default -> { …; yield flag; } } -> { } default -> { } }} */
        CASE_GUARD,
        /** {@code if (s instanceof SJSocket t) { …on t… }} */
        INSTANCEOF_ALIAS,
        /** {@code switch ((Object) s) { case SJSocket t -> { …on t… } default -> { } }} */
        PATTERN_ALIAS,
        /** a call of {@code static <S extends SJSocket> void gN(S t, Ctl c) { …on t… }} */
        GENERIC_METHOD
    }

    /**
     * Statements inside a construct a mutation introduced.
     *
     * @param flag the construct's run-time switch where it has one (see {@link WrapKind})
     */
    record Wrap(int id, WrapKind kind, List<Stmt> body, boolean flag) implements Stmt {
        public Wrap {
            body = List.copyOf(body);
        }

        @Override
        public List<List<Stmt>> blocks() {
            return List.of(body);
        }

        @Override
        public Stmt withBlocks(List<List<Stmt>> blocks) {
            return new Wrap(id, kind, blocks.get(0), flag);
        }
    }
}
