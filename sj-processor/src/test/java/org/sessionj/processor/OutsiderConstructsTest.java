package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, a fresh adversarial pass as an outsider over JLS ch. 14–15 constructs not covered
 * elsewhere: nested switch expressions with {@code yield}, labelled blocks, local classes, compound
 * assignment, for-update clauses, interface default and static methods, inherited and shadowed
 * fields, inner classes reading {@code Outer.this.f}, generic classes and methods, enum constant
 * bodies, initializer blocks — with session actions and with {@code @NoAlias} values inside.
 */
class OutsiderConstructsTest {
    /** Members start on line 9. */
    private static String cls(String members) {
        return """
                package demo;
                import org.sessionj.api.*;
                import java.util.*;
                class User {
                    @Protocol("cbegin.!<int>.!<int>") interface Two {}
                    @Protocol("cbegin.?(int)") interface Recv {}
                    @Protocol("cbegin.!<int[]>") interface Arr {}
                    static void consume(int[] values) { }
                %s
                }
                """.formatted(members);
    }

    /** A session {@code s} of {@code !<int>.!<int>}; the statements start on line 11. */
    private static String session(String parameters, String statements) {
        return cls("""
                    void run(%s) {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                %s
                        }
                    }
                """.formatted(parameters, statements));
    }

    /** A {@code @NoAlias} local {@code x}; the statements start on line 11. */
    private static String owned(String parameters, String statements) {
        return cls("""
                    void run(%s) {
                        @NoAlias int[] x = new int[1];
                %s
                    }
                """.formatted(parameters, statements));
    }

    // ------------------------------------------------------------------ switch expressions, yield, labelled blocks

    @Test
    void anActionOnOnePathOfANestedSwitchExpression() {
        assertRejected("SJ020", 14, msg("session 's'", "the cases of this switch"), session("int k, int j", """
                            s.send(1);
                            int v = switch (k) {
                                case 1 -> {
                                    int w = switch (j) { case 2 -> { s.send(2); yield 1; } default -> 0; };
                                    yield w;
                                }
                                default -> { s.send(2); yield 0; }
                            };
                """));
    }

    @Test
    void nestedSwitchExpressionsActingOnceOnEveryPath() {
        assertAccepted(session("int k, int j", """
                            s.send(1);
                            int v = switch (k) {
                                case 1 -> {
                                    int w = switch (j) { case 2 -> { s.send(2); yield 1; } default -> { s.send(3); yield 0; } };
                                    yield w;
                                }
                                default -> { s.send(2); yield 0; }
                            };
                """));
    }

    @Test
    void aBreakOutOfALabelledBlockSkippingAnAction() {
        assertRejected("SJ020", 11, msg("the exits of this labeled statement"), session("boolean c", """
                            done: {
                                s.send(1);
                                if (c) break done;
                                s.send(2);
                            }
                """));
    }

    @Test
    void aLabelledBlockWithoutActionsIsTransparent() {
        assertAccepted(session("boolean c, int n", """
                            done: {
                                if (c) break done;
                                n++;
                            }
                            s.send(1);
                            s.send(2);
                """));
    }

    @Test
    void aNoAliasValueMovedBeforeABreakOutOfALabelledBlock() {
        assertRejected("SJ041", 18, msg("moved into a call of 'consume' on line 13"), owned("boolean c", """
                            out: {
                                if (c) {
                                    consume(x);
                                    break out;
                                }
                                x[0] = 1;
                            }
                            x[0] = 2;
                """));
    }

    @Test
    void aNoAliasValueYieldedFromANestedSwitchExpression() {
        assertRejected("SJ041", 12, msg("moved into 'y' on line 11"), owned("int k, int j", """
                            int[] y = switch (k) { case 1 -> { yield switch (j) { default -> x; }; } default -> new int[1]; };
                            x[0] = 1;
                """));
    }

    // ------------------------------------------------------------------ local classes, compound assignment, for update

    @Test
    void aLocalClassCapturingTheSocket() {
        assertRejected("SJ032", 11, msg("session 's' is captured by a local class"), session("", """
                            class Helper { void go() { s.send(1); } }
                            new Helper().go();
                            s.send(2);
                """));
    }

    @Test
    void aLocalClassCapturingANoAliasValueMovesIt() {
        assertRejected("SJ041", 12, msg("moved into a local class on line 11"), owned("", """
                            class Reader { int first() { return x[0]; } }
                            x[0] = 1;
                """));
    }

    @Test
    void anAnonymousClassWhoseFieldInitializerActs() {
        assertRejected("SJ032", 11, msg("captured by an anonymous class"), session("", """
                            Object o = new Object() { int v = go(); int go() { s.send(1); return 1; } };
                            s.send(2);
                """));
    }

    @Test
    void compoundAssignmentFromAReceive() {
        assertAccepted(cls("""
                    int run() {
                        try (SJSocket s = SJService.create(Recv.class, "h", 1).request()) {
                            int total = 1;
                            total += s.receiveInt();
                            return total;
                        }
                    }
                """));
        assertRejected("SJ021", 12, msg("the loop body changes the session"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(Recv.class, "h", 1).request()) {
                            int total = 0;
                            for (int i = 0; i < 2; i++) total += s.receiveInt();
                        }
                    }
                """));
    }

    @Test
    void compoundAssignmentAndLockingReadANoAliasValue() {
        assertAccepted(owned("", """
                            x[0] += 1;
                            synchronized (x) {
                                x[0] = 2;
                            }
                            consume(x);
                """));
    }

    @Test
    void anActionInAForUpdateClause() {
        assertRejected("SJ021", 11, msg("the loop body changes the session"), session("", """
                            for (int i = 0; i < 1; i++, s.send(1)) {
                            }
                """));
    }

    // ------------------------------------------------------------------ interfaces, inheritance, shadowing, inner classes

    @Test
    void interfaceDefaultAndStaticMethodsAreCheckedAgainstTheirSessionTypes() {
        assertRejected("SJ012", 10, msg("expected end"), cls("""
                    interface Server {
                        default void serve(@Session("!<int>") SJSocket s) { s.send(1); s.send(2); }
                    }
                """));
        assertRejected("SJ012", 10, msg("expected !<int> but the program receives ?(int)"), cls("""
                    interface Server {
                        static void helper(@Session("!<int>") SJSocket s) { s.receiveInt(); }
                    }
                """));
        assertAccepted(cls("""
                    interface Server {
                        default void serve(@Session("!<int>") SJSocket s) { s.send(1); }
                    }
                """));
    }

    @Test
    void anInheritedSocketFieldHasNoSessionType() {
        assertRejected("SJ010", 11, msg("field 'shared'"), cls("""
                    static class Base { SJSocket shared; }
                    static class Sub extends Base {
                        void run() { shared.send(1); }
                    }
                """));
    }

    @Test
    void aFieldShadowedByTheSessionVariableReachedThroughThis() {
        assertRejected("SJ010", 14, msg("field 'this.s'"), cls("""
                    SJSocket s;
                    void run() {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            s.send(1);
                            s.send(2);
                            this.s.send(3);
                        }
                    }
                """));
    }

    @Test
    void anInnerClassCopyingTheOuterNoAliasFieldOut() {
        assertRejected("SJ043", 11, msg("@NoAlias field 'ghost'"), cls("""
                    @NoAlias int[] ghost = new int[2];
                    class Inner {
                        int[] leak() { return User.this.ghost; }
                        int peek() { return User.this.ghost[0]; }
                    }
                """));
    }

    @Test
    void anInnerClassReadingThroughTheOuterNoAliasFieldIsFine() {
        assertAccepted(cls("""
                    @NoAlias int[] ghost = new int[2];
                    class Inner {
                        int peek() { return User.this.ghost[0] + User.this.ghost.length; }
                    }
                """));
    }

    // ------------------------------------------------------------------ generics, enums, initializers

    @Test
    void genericMethodsWithASessionTypedTypeVariable() {
        assertAccepted(cls("""
                    <S extends SJSocket> void serve(@Session("!<int>") S s) { s.send(1); }
                """));
        assertRejected("SJ012", 9, msg("expected end"), cls("""
                    <S extends SJSocket> void serve(@Session("!<int>") S s) { s.send(1); s.send(2); }
                """));
    }

    @Test
    void aGenericClassHoldingASocketInAField() {
        assertRejected("SJ010", 9, msg("field 'held'"), cls("""
                    static class Box<T extends SJSocket> { T held; void use() { held.send(1); } }
                """));
    }

    @Test
    void anEnumConstantBodyIsChecked() {
        assertRejected("SJ012", 10, msg("expected end"), cls("""
                    enum Mode {
                        FAST { void go(@Session("!<int>") SJSocket q) { q.send(1); q.send(2); } };
                        abstract void go(@Session("!<int>") SJSocket q);
                    }
                """));
    }

    @Test
    void initializerBlocksAreCheckedAsBodies() {
        assertRejected("SJ024", 10, msg("session 'q'", "!<int> remains"), cls("""
                    static {
                        try (SJSocket q = SJService.create(Two.class, "h", 1).request()) {
                            q.send(1);
                        }
                    }
                """));
        assertAccepted(cls("""
                    {
                        try (SJSocket q = SJService.create(Two.class, "h", 1).request()) {
                            q.send(1);
                            q.send(2);
                        }
                    }
                """));
    }

    @Test
    void recordAccessorValuesAreSentAsValues() {
        assertAccepted(cls("""
                    record Pair(int a, int b) { }
                    void run(Pair p) {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            s.send(p.a());
                            s.send(p.b());
                        }
                    }
                """));
    }

    // ------------------------------------------------------------------ @NoAlias through library calls

    @Test
    void aNoAliasValueChosenOnOnePathOfAConditional() {
        assertRejected("SJ041", 12, msg("moved into 'y' on line 11"), owned("boolean c", """
                            @NoAlias int[] y = c ? x : new int[1];
                            x[0] = 1;
                """));
    }

    @Test
    void aConditionalBetweenTwoNoAliasValuesMovesBoth() {
        assertRejected("SJ041", 13, msg("@NoAlias 'b' is used after its value was moved into 'c' on line 12"),
                owned("", """
                            @NoAlias int[] b = new int[1];
                            @NoAlias int[] c = x.length > 0 ? x : b;
                            b[0] = 1;
                """));
    }

    @Test
    void aNoAliasValueGivenToOptionalOf() {
        assertRejected("SJ041", 12, msg("moved into a call of 'of' on line 11"), owned("", """
                            Optional<int[]> kept = Optional.of(x);
                            x[0] = 1;
                """));
    }

    @Test
    void aNoAliasValueAddedToAListAndThenPassed() {
        assertRejected("SJ041", 13, msg("moved into a call of 'add' on line 12"), cls("""
                    void run(List<int[]> list) {
                        try (SJSocket s = SJService.create(Arr.class, "h", 1).request()) {
                            @NoAlias int[] x = new int[1];
                            list.add(x);
                            s.pass(x);
                        }
                    }
                """));
    }

    @Test
    void aNoAliasValueGivenToAVarargsMethod() {
        // Arrays.asList(x) keeps x (as its element here): a view of x (adv14 A1), ended by x's move
        assertRejected("SJ048", 13, msg("'all' holds the result of 'asList' on line 11"), owned("", """
                            List<int[]> all = Arrays.asList(x);
                            consume(x);
                            all.get(0)[0] = 1;
                """));
        assertRejected("SJ041", 12, msg("moved into a call of 'of' (as the result of 'asList'"), owned("", """
                            List<List<int[]>> kept = List.of(Arrays.asList(x));
                            x[0] = 1;
                """));
    }

    @Test
    void aNoAliasValueStoredIntoAnObjectArray() {
        assertRejected("SJ041", 13, msg("moved into 'box[0]' on line 12"), owned("", """
                            Object[] box = new Object[1];
                            box[0] = x;
                            x[0] = 1;
                """));
    }

    @Test
    void aNoAliasValueCapturedByAThread() {
        assertRejected("SJ041", 12, msg("moved into a lambda on line 11"), owned("", """
                            new Thread(() -> consume(x)).start();
                            x[0] = 1;
                """));
    }

    @Test
    void aNoAliasValueThroughRequireNonNull() {
        assertRejected("SJ041", 12, msg("moved into 'y' on line 11"), owned("", """
                            int[] y = Objects.requireNonNull(x);
                            x[0] = 1;
                """));
    }

    @Test
    void jdkArrayMethodsThatKeepNothingBorrowTheValue() {
        assertAccepted(owned("int[] source", """
                            Arrays.fill(x, 1);
                            System.arraycopy(source, 0, x, 0, 1);
                            Arrays.sort(x);
                            String shown = Arrays.toString(x) + Arrays.hashCode(x) + Arrays.equals(x, source);
                            int[] longer = Arrays.copyOf(x, 4);
                            consume(x);
                """));
    }

    @Test
    void jdkMethodsThatKeepOrReturnTheArrayMoveIt() {
        assertRejected("SJ048", 13, msg("'values' holds the result of 'stream' on line 11"), owned("", """
                            java.util.stream.IntStream values = Arrays.stream(x);
                            consume(x);
                            values.sum();
                """));
    }

    @Test
    void readingANoAliasValueInConcatenationAndForEachIsFine() {
        assertAccepted(owned("", """
                            String d = "x" + x + x.length;
                            int t = 0;
                            for (int v : x) {
                                t += v;
                            }
                            int[] copy = x.clone();
                            consume(x);
                """));
    }
}
