package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 12, classes 3 and 5: session-method contracts at the call site (lent sockets that are ended,
 * overrides, endpoint protocols) and values that are not what the type says (boxes for primitives,
 * generic receives into other primitives).
 */
class ContractsAndValuesTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface R {
                @Protocol("cbegin.!<int>") interface One {}
                @Protocol("cbegin.!<int>.!<int>") interface Two {}
                @Protocol("cbegin.?(int)") interface GetInt {}
                @Protocol("cbegin.?(Integer)") interface GetBox {}
                @Protocol("cbegin.!<Object>") interface AnyValue {}
                @Protocol("cbegin.!<cbegin.!<int>>") interface Hand {}
                @Protocol("sbegin.?(int)") interface Server {}
                @Protocol("sbegin.?(String)") interface OtherServer {}
            }
            """;

    private static String cls(String members) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                %s
                }
                """.formatted(members);
    }

    @Test
    void sessionMethodThatClosesItsSocketEndsTheCallersSession() {
        assertRejected("SJ025", 7, msg("session 's' is used after it was lent to 'first' on line 6, which closes it"),
                cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.One.class, "h", 1).request()) {
                            first(s);
                            s.send(2);
                        }
                    }
                    static void first(@Session("!<int>") SJSocket s) {
                        s.send(1);
                        s.close();
                    }
                """), PROTOCOLS);
    }

    @Test
    void sessionMethodWithTheSocketAsResourceEndsIt() {
        assertRejected("SJ025", 7, msg("which closes it (try-with-resources)"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.One.class, "h", 1).request()) {
                            first(s);
                            s.send(2);
                        }
                    }
                    static void first(@Session("!<int>") SJSocket s) {
                        try (s) {
                            s.send(1);
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void endingPropagatesThroughLending() {
        assertRejected("SJ025", 7, msg("which lends it to 'inner', which closes it"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.One.class, "h", 1).request()) {
                            outer(s);
                            s.send(2);
                        }
                    }
                    static void outer(@Session("!<int>") SJSocket s) {
                        inner(s);
                    }
                    static void inner(@Session("!<int>") SJSocket s) {
                        s.send(1);
                        s.close();
                    }
                """), PROTOCOLS);
    }

    @Test
    void sessionMethodThatEndsTheWholeRestIsFine() {
        assertAccepted(PROTOCOLS, cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.Two.class, "h", 1).request()) {
                            s.send(1);
                            last(s);
                        }
                    }
                    static void last(@Session("!<int>") SJSocket s) {
                        s.send(2);
                        s.close();
                    }
                """));
    }

    @Test
    void overrideWithALongerSessionType() {
        assertRejected("SJ036", 8, msg("parameter 's' of 'run'", "declares it @Session(\"!<int>\")"), """
                package demo;
                import org.sessionj.api.*;
                interface Step {
                    void run(@Session("!<int>") SJSocket s);
                }
                class Twice implements Step {
                    @Override
                    public void run(@Session("!<int>.!<int>") SJSocket s) {
                        s.send(1);
                        s.send(2);
                    }
                }
                """);
    }

    @Test
    void overrideThatDropsTheSessionAnnotation() {
        assertRejected("SJ036", 6, msg("is without a @Session type"), """
                package demo;
                import org.sessionj.api.*;
                abstract class Step {
                    abstract void run(@Session("!<int>") SJSocket s);
                    abstract static class Plain extends Step {
                        abstract void run(SJSocket s);
                    }
                }
                """);
    }

    @Test
    void overrideWithTheSameTypeIsFine() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                interface Step {
                    void run(@Session("!<int>") SJSocket s);
                }
                class Once implements Step {
                    @Override
                    public void run(@Session("!<int>") SJSocket s) {
                        s.send(1);
                    }
                }
                """);
    }

    @Test
    void serverSocketOfAnotherProtocolGivenToATypedParameter() {
        assertRejected("SJ035", 6, msg("'other': the call to 'serve' needs a server socket of protocol sbegin.?(int)",
                "of protocol OtherServer"), cls("""
                    void run() {
                        SJServerSocket other = SJServerSocket.create(R.OtherServer.class, 0);
                        serve(other);
                    }
                    void serve(@Session(protocol = R.Server.class) SJServerSocket server) {
                        try (SJSocket s = server.accept()) {
                            int x = s.receiveInt();
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void nullableBoxSentWhereTheTypeSaysAPrimitive() {
        assertRejected("SJ013", 6, msg("expected !<int> but the program sends !<java.lang.Integer>"), cls("""
                    void run(Integer maybe) {
                        try (SJSocket s = SJService.create(R.One.class, "h", 1).request()) {
                            s.send(maybe);
                        }
                    }
                """), PROTOCOLS);
        assertAccepted(PROTOCOLS, cls("""
                    void run(Integer maybe) {
                        try (SJSocket s = SJService.create(R.One.class, "h", 1).request()) {
                            s.send(maybe.intValue());
                        }
                    }
                """));
    }

    @Test
    void genericReceiveWidenedToAnotherPrimitive() {
        assertRejected("SJ013", 6, msg("expected ?(int) but the program receives ?(long)"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetInt.class, "h", 1).request()) {
                            long x = s.receive();
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void genericReceiveOfABoxIntoAnotherPrimitive() {
        assertRejected("SJ013", 6, msg("expected ?(java.lang.Integer) but the program receives ?(double)"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            double x = s.receive();
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void aBoxReceivedIntoItsPrimitiveMayBeNull() {
        // The mirror image of sending a box where the type says int: ?(Integer) admits null, which
        // the receiver would unbox (the runtime fails the session: "received null for
        // ?(java.lang.Integer) where a primitive was expected").
        assertRejected("SJ013", 6, msg("expected ?(java.lang.Integer) but the program receives ?(int) (a box, "
                + "which the peer may send as null: receive it as java.lang.Integer and unbox it explicitly)"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            int x = s.receiveInt();
                        }
                    }
                """), PROTOCOLS);
        assertRejected("SJ013", 6, msg("expected ?(java.lang.Integer) but the program receives ?(int) (a box"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            int x = s.receive();
                        }
                    }
                """), PROTOCOLS);
    }

    /** adv11 A2: unboxed where it stands, whatever the syntax: a cast, an operator, an argument, a condition. */
    @ParameterizedTest
    @ValueSource(strings = {
        "int x = (Integer) s.receive();",
        "int x = 1 + s.<Integer>receive();",
        "int x = -s.<Integer>receive();",
        "int x = 0; x += s.<Integer>receive();",
        "long x = (long) (Integer) s.receive();",
        "int[] a = new int[(Integer) s.receive()];",
        "int[] a = { s.<Integer>receive() };",
        "Math.abs((Integer) s.receive());",
        "boolean b = s.<Integer>receive() == 3;",
        "boolean b = s.<Integer>receive() < 3;",
        "switch (s.<Integer>receive()) { case 1 -> { } default -> { } }",
        "java.util.function.IntSupplier f = () -> 0; int x = true ? s.<Integer>receive() : 0;",
        "Integer[] a = new Integer[1]; int[] b = new int[1]; b[(Integer) s.receive()] = 1;",
        "int k = 1; int v = switch (k) { case 1 -> s.<Integer>receive(); default -> throw new IllegalStateException(); };",
        "int k = 1; long v = Math.max(switch (k) { case 1 -> s.<Integer>receive(); default -> 0; }, 0);",
    })
    void aBoxUnboxedWhereItStandsMayBeNull(String statement) {
        assertRejected("SJ013", 6, msg("expected ?(java.lang.Integer) but the program receives ?(java.lang.Integer) "
                + "where it is unboxed (a box, which the peer may send as null"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            %s
                        }
                    }
                """.formatted(statement)), PROTOCOLS);
    }

    /**
     * adv17 A13: a switch expression's arm is unboxed only when the switch's own value is (a poly switch
     * assigned to a box keeps the box); a String's {@code +=} concatenates the box (null gives "null").
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "int k = 1; Integer v = switch (k) { case 1 -> s.receive(); default -> throw new IllegalStateException(); };",
        "int k = 1; Integer v; v = switch (k) { case 1 -> s.receive(); default -> throw new IllegalStateException(); };",
        "int k = 1; Object o = java.util.Objects.requireNonNullElse(switch (k) { case 1 -> s.<Integer>receive(); "
                + "default -> throw new IllegalStateException(); }, 0);",
        "String out = \"v=\"; out += s.<Integer>receive();",
    })
    void aBoxThatStaysABoxIsAccepted(String statement) {
        assertAccepted(cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            %s
                        }
                    }
                """.formatted(statement)), PROTOCOLS);
    }

    @Test
    void aBoxUnboxedByAReturnMayBeNull() {
        assertRejected("SJ013", 6, msg("receives ?(java.lang.Integer) where it is unboxed"), cls("""
                    int run() {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            return s.receive();
                        }
                    }
                """), PROTOCOLS);
    }

    /**
     * adv11 A14: a join's list used in place hands the received box straight to an unboxing context,
     * as a receive does; a list kept in a variable is the program's own (its elements unboxed later by
     * choice, as a received Integer variable is).
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "int x = SJ.<Integer>join(s).get(0);",
        "int x = 1 + (SJ.<Integer>join(s)).getFirst();",
        "for (int x : SJ.<Integer>join(s)) { }",
        "Math.abs(SJ.<Integer>join(s).getLast());",
    })
    void aJoinedBoxUnboxedWhereItStandsMayBeNull(String statement) {
        assertRejected("SJ013", 6, msg("receives ?(java.lang.Integer) in a join whose element is unboxed",
                "(a box, which the peer may send as null"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            %s
                        }
                    }
                """.formatted(statement)), PROTOCOLS);
    }

    @Test
    void aJoinedBoxKeptABoxIsFine() {
        assertAccepted(PROTOCOLS, cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            Integer x = SJ.<Integer>join(s).get(0);
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            for (Integer x : SJ.<Integer>join(s)) { }
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            java.util.List<Integer> all = SJ.join(s);
                            int first = all.get(0) == null ? 0 : all.get(0);
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            boolean some = SJ.<Integer>join(s).get(0) != null;
                        }
                    }
                """));
    }

    @Test
    void aBoxKeptABoxIsFine() {
        assertAccepted(PROTOCOLS, cls("""
                    Integer run(java.util.List<Object> out) {
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            out.add(s.<Integer>receive());
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            String text = "got " + s.<Integer>receive();
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            boolean none = s.<Integer>receive() == null;
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            Object o = (Integer) s.receive();
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            switch (s.<Integer>receive()) {
                                case null -> System.out.println("none");
                                case Integer i -> System.out.println(i);
                            }
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            int kind = switch (s.<Integer>receive()) {
                                case null -> 0;
                                case 1 -> 1;
                                default -> 2;
                            };
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            return s.receive();
                        }
                    }
                """));
    }

    @Test
    void aServiceIsNeverAPlainMessage() {
        // !<Object> admits any object, but Jackson would write a service as an empty bean: the peer got {}.
        assertRejected("SJ013", 7, msg("expected !<java.lang.Object> but the program sends !<org.sessionj.api.SJService> "
                + "(a service is not a message: a service travels only where the type says !<cbegin.…>"), cls("""
                    void run() {
                        SJService svc = SJService.create(R.One.class, "h", 1);
                        try (SJSocket s = SJService.create(R.AnyValue.class, "h", 1).request()) {
                            s.send(svc);
                        }
                    }
                """), PROTOCOLS);
        assertRejected("SJ013", 7, msg("(a server socket is not a message"), cls("""
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(R.Server.class, 0);
                             SJSocket s = SJService.create(R.AnyValue.class, "h", 1).request()) {
                            s.send(ss);
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void genericReceiveIntoTheSamePrimitiveItsBoxOrASupertypeIsFine() {
        assertAccepted(PROTOCOLS, cls("""
                    void run() {
                        try (SJSocket s = SJService.create(R.GetInt.class, "h", 1).request()) {
                            int x = s.receive();
                        }
                        try (SJSocket s = SJService.create(R.GetBox.class, "h", 1).request()) {
                            Integer x = s.receive();
                            int y = x == null ? 0 : x;
                        }
                        try (SJSocket s = SJService.create(R.GetInt.class, "h", 1).request()) {
                            Integer x = s.receive();
                        }
                        try (SJSocket s = SJService.create(R.GetInt.class, "h", 1).request()) {
                            Number x = s.receive();
                        }
                    }
                """));
    }

    @Test
    void serviceOfDifferentProtocolsOnTwoPathsSent() {
        assertRejected("SJ013", 10, msg("sends a service of different protocols on the paths that reach here"), cls("""
                    void run(boolean c) {
                        SJService given = SJService.create(R.One.class, "h", 1);
                        if (c) {
                            given = SJService.create(R.Two.class, "h", 1);
                        }
                        try (SJSocket s = SJService.create(R.Hand.class, "h", 1).request()) {
                            s.send(given);
                        }
                    }
                """), PROTOCOLS);
        assertAccepted(PROTOCOLS, cls("""
                    void run(boolean c) {
                        SJService given = SJService.create(R.One.class, "h", 1);
                        if (c) {
                            given = SJService.create(R.One.class, "h", 2);
                        }
                        try (SJSocket s = SJService.create(R.Hand.class, "h", 1).request()) {
                            s.send(given);
                        }
                    }
                """));
    }
}
