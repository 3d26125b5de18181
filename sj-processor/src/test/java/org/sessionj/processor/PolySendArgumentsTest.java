package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv21 B7: {@code send(Object)} is not generic, so javac types a reference conditional or switch
 * expression given to it by the target, {@code Object}, and infers {@code List.of()} or {@code new
 * ArrayList<>()} there as {@code List<Object>}. SJ013 read that type and refused what a user naturally
 * writes ({@code s.send(name != null ? name : "anonymous")}). Each value a send may send is now checked on
 * its own: every arm, every switch result, and a value whose type arguments only the target fixes as
 * {@code T v = expr;} would type it. The rejected twins keep the check honest.
 */
class PolySendArgumentsTest {
    private static String program(String type, String body) {
        return """
                import org.sessionj.api.*;
                import java.time.LocalDate;
                import java.util.*;
                class C {
                  enum Size { S, L }
                  @Protocol("cbegin.!<%s>") interface P {}
                  void run(int k, String name, List<String> names) {
                    try (SJSocket s = SJService.create(P.class, "localhost", 1).request()) {
                      %s
                    }
                  }
                }
                """.formatted(type, body);
    }

    @Test
    void eachArmOfAConditionalIsSentAsItsOwnType() {
        assertAccepted(program("String", "s.send(name != null ? name : \"anonymous\");"));
        assertAccepted(program("String", "s.send(k > 0 ? (k > 9 ? \"many\" : \"some\") : (\"none\"));"));
        assertAccepted(program("Size", "s.send(k > 0 ? Size.L : Size.S);"));
        assertAccepted(program("List<String>", "s.send(k > 0 ? names : List.of());"));
        assertAccepted(program("List<String>", "s.send(names.isEmpty() ? List.of(\"none\") : names);"));
        assertAccepted(program("String", "s.send(k > 0 ? name : null);"));
    }

    @Test
    void anArmOfAnotherTypeIsRefusedWhereItStands() {
        assertRejected("SJ013", 9, msg("session 's': expected !<java.lang.String> but the program sends "
                + "!<java.lang.Integer>"), program("String", "s.send(k > 0 ? name : Integer.valueOf(k));"));
        assertRejected("SJ013", 9, msg("expected !<java.util.List<java.lang.String>> but the program sends "
                + "!<java.util.List<java.lang.Integer>>"), program("List<String>", "s.send(k > 0 ? names : List.of(1));"));
        assertRejected("SJ013", 9, msg("sends !<int>"), program("String", "s.send(k > 0 ? name : k);"));
    }

    @Test
    void eachResultOfASwitchExpressionIsSentAsItsOwnType() {
        assertAccepted(program("String", "s.send(switch (k) { case 0 -> \"zero\"; default -> \"many\"; });"));
        assertAccepted(program("LocalDate",
                "s.send(switch (k) { case 0 -> LocalDate.EPOCH; default -> { yield LocalDate.of(2020, 1, 1); } });"));
        assertRejected("SJ013", 9, msg("expected !<java.lang.String> but the program sends !<java.time.LocalDate>"),
                program("String", "s.send(switch (k) { case 0 -> \"zero\"; default -> { yield LocalDate.EPOCH; } });"));
    }

    @Test
    void anEmptyGenericValueTakesTheMessagesTypeArguments() {
        assertAccepted(program("List<String>", "s.send(List.of());"));
        assertAccepted(program("List<String>", "s.send(new ArrayList<>());"));
        assertAccepted(program("List<String>", "s.send(Collections.emptyList());"));
        assertAccepted(program("Optional<String>", "s.send(Optional.empty());"));
        assertAccepted(program("Map<String, Integer>", "s.send(new HashMap<>());"));
        assertAccepted(program("Map<String, Integer>", "s.send(new HashMap<>(16));"));
    }

    @Test
    void aGenericValueWhoseArgumentsFixItsTypeIsCheckedAsJavaTypesIt() {
        // the arguments fix the element type: List<Integer> is not a List<String>
        assertRejected("SJ013", 9, msg("sends !<java.util.ArrayList<java.lang.Integer>>"),
                program("List<String>", "s.send(new ArrayList<>(List.of(1)));"));
        // an empty value of another class than the message's is still refused
        assertRejected("SJ013", 9, msg("sends !<java.util.HashSet<java.lang.Object>>"),
                program("List<String>", "s.send(new HashSet<>());"));
        assertRejected("SJ013", 9, msg("sends !<java.util.Optional<java.lang.Object>>"),
                program("List<String>", "s.send(Optional.empty());"));
    }

    @Test
    void aReceiveGivenToASendSendsTheTypeItReceives() {
        String echo = """
                import org.sessionj.api.*;
                import java.util.*;
                class E {
                  @Protocol("cbegin.?(%s).!<%s>") interface P {}
                  void run() {
                    try (SJSocket s = SJService.create(P.class, "localhost", 1).request()) {
                      %s
                    }
                  }
                }
                """;
        assertAccepted(echo.formatted("String", "String", "s.send(s.receive());"));
        assertAccepted(echo.formatted("List<String>", "List<String>", "s.send(s.receive());"));
        assertAccepted(echo.formatted("String", "String", "SJ.send(s.receive(), s);"));
        assertAccepted(echo.formatted("int", "int", "s.send(s.receive());"));
        assertRejected("SJ013", 7, msg("expected !<java.lang.String> but the program sends !<int>"),
                echo.formatted("int", "String", "s.send(s.receive());"));
        assertRejected("SJ013", 7, msg("expected !<java.util.List<java.lang.Integer>> but the program sends "
                + "!<java.util.List<java.lang.String>>"), echo.formatted("List<String>", "List<Integer>",
                "s.send(s.receive());"));
    }

    @Test
    void aRelayForwardsWhatOneSessionReceivesToTheOther() {
        String relay = """
                import org.sessionj.api.*;
                class R {
                  @Protocol("cbegin.?(%s)") interface In {}
                  @Protocol("cbegin.!<%s>") interface Out {}
                  void run() {
                    try (SJSocket a = SJService.create(In.class, "localhost", 1).request();
                         SJSocket b = SJService.create(Out.class, "localhost", 2).request()) {
                      b.send(a.receive());
                    }
                  }
                }
                """;
        assertAccepted(relay.formatted("String", "String"));
        assertRejected("SJ013", 8, msg("session 'b': expected !<java.lang.String> but the program sends !<int>"),
                relay.formatted("int", "String"));
    }

    private static String shapes(String type, String body) {
        return """
                import org.sessionj.api.*;
                import java.util.*;
                class F {
                  sealed interface Shape permits Circle, Square {}
                  record Circle(double r) implements Shape {}
                  record Square(double side) implements Shape {}
                  static class Base { int a; }
                  static class Sub extends Base { int b; }
                  @Protocol("cbegin.!<%s>") interface P {}
                  void run(String name, Circle circle, List<String> names, List raw) {
                    try (SJSocket s = SJService.create(P.class, "localhost", 1).request()) {
                      %s
                    }
                  }
                }
                """.formatted(type, body);
    }

    /**
     * adv22 C4: a generic call whose arguments fix its type arguments is inferred against {@code Object}
     * from its arguments alone ({@code List.of(circle, square)} as {@code List<Record & Shape>}); as
     * {@code List<Shape> v = List.of(circle, square);} it is a {@code List<Shape>}.
     */
    @Test
    void aGenericValueIsTypedWithTheMessagesTypeArgumentsWhenItsArgumentsFit() {
        assertAccepted(shapes("List<Shape>", "s.send(List.of(new Circle(1), new Square(2)));"));
        assertAccepted(shapes("List<Shape>", "s.send(List.of(circle));"));
        assertAccepted(shapes("Optional<Shape>", "s.send(Optional.of(circle));"));
        assertAccepted(shapes("Set<Shape>", "s.send(new HashSet<>(List.of(circle)));"));
        assertAccepted(shapes("Map<String, Object>", "s.send(Map.of(\"name\", name, \"age\", 3));"));
        assertAccepted(shapes("List<Object>", "s.send(Arrays.asList(name, 1));"));
        assertAccepted(shapes("List<Shape>", "s.send(Arrays.asList(new Shape[] {circle}));"));
        assertAccepted(shapes("List<Shape>", "s.send(new ArrayList<>(List.of(circle, new Square(1))));"));
    }

    @Test
    void aGenericValueWhoseArgumentsDoNotFitTheMessagesTypeArgumentsIsRefused() {
        assertRejected("SJ013", 12, msg("session 's': expected !<java.util.List<java.lang.String>> but the program"
                + " sends !<java.util.List<"), shapes("List<String>", "s.send(List.of(name, 1));"));
        assertRejected("SJ013", 12, msg("its type arguments from its arguments alone"),
                shapes("List<String>", "s.send(List.of(name, 1));"));
        assertRejected("SJ013", 12, msg("sends !<java.util.Optional<F.Circle>>"),
                shapes("Optional<String>", "s.send(Optional.of(circle));"));
        // another class altogether: the message says what is sent, with no hint about type arguments
        com.google.testing.compile.Compilation other = CompilerHarness.compile(shapes("List<Shape>", "s.send(Optional.of(circle));"));
        org.assertj.core.api.Assertions.assertThat(other.errors()).hasSize(1);
        org.assertj.core.api.Assertions.assertThat(other.errors().get(0).getMessage(java.util.Locale.ROOT))
                .contains("sends !<java.util.Optional<F.Circle>>").doesNotContain("infers its type arguments");
        assertRejected("SJ013", 12, msg("sends !<java.util.Map<java.lang.String,java.lang.Integer>>"),
                shapes("Map<String, String>", "s.send(Map.of(\"age\", 3));"));
        // no unchecked conversion: a raw list's contents were never checked against the message type
        assertRejected("SJ013", 12, msg("sends !<java.util.ArrayList> (a raw type"),
                shapes("List<Shape>", "s.send(new ArrayList<>(raw));"));
        // adv22 C11: each argument must travel as itself in the message type, as a value sent alone would
        assertRejected("SJ013", 12, msg("sends !<java.util.List<F.Sub>>"),
                shapes("List<Base>", "s.send(List.of(new Sub()));"));
        assertRejected("SJ013", 12, msg("sends !<java.util.HashSet<F.Sub>>"),
                shapes("Set<Base>", "s.send(new HashSet<>(List.of(new Sub())));"));
        assertRejected("SJ013", 12, msg("sends !<java.util.Map<java.lang.String,F.Circle>>"),
                shapes("Map<String, Object>", "s.send(Map.of(\"shape\", circle));"));
        assertAccepted(shapes("List<Base>", "s.send(List.of(new Base()));"));
        // nested generic values are not instantiated from the outer message type: give them a type
        assertRejected("SJ013", 12, msg("expected !<java.util.List<java.util.List<F$Shape>>>"),
                shapes("List<List<Shape>>", "s.send(List.of(List.of(circle)));"));
    }
}
