package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, outsider pass over values in expressions: overload resolution picking another primitive
 * for {@code send} (char, byte, short literals, a conditional's binary numeric promotion), switch
 * expressions and session actions as arguments of session actions, multicasts over sessions in
 * different states, explicit type arguments of {@code receive}.
 */
class OutsiderValuesTest {
    /** {@code statements} on line 10 with session {@code s} of {@code protocol}. */
    private static String session(String protocol, String parameters, String statements) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    @Protocol("cbegin.!<int>") interface I {}
                    @Protocol("cbegin.?(Integer)") interface RI {}
                    @Protocol("cbegin.?(int).!<int>") interface RS {}
                    @Protocol("cbegin.!<int>.?(int)") interface SR {}
                    void run(%s) {
                        try (SJSocket s = SJService.create(%s.class, "h", 1).request()) {
                %s
                        }
                    }
                }
                """.formatted(parameters, protocol, statements);
    }

    @Test
    void aCharLiteralPicksSendOfChar() {
        assertRejected("SJ013", 10, msg("expected !<int> but the program sends !<char>"), session("I", "", """
                            s.send('a');
                """));
    }

    @Test
    void aCastOrAShortVariablePicksAnotherOverload() {
        assertRejected("SJ013", 10, msg("sends !<byte>"), session("I", "", "s.send((byte) 1);"));
        assertRejected("SJ013", 11, msg("sends !<short>"), session("I", "", "short small = 1;\ns.send(small);"));
    }

    @Test
    void aConditionalPromotedToLong() {
        assertRejected("SJ013", 10, msg("sends !<long>"), session("I", "boolean c", "s.send(c ? 1 : 2L);"));
    }

    @Test
    void aSwitchExpressionOrAConstantExpressionAsTheValueIsFine() {
        assertAccepted(session("I", "int k", "s.send(switch (k) { case 1 -> 10; default -> k + 1; });"));
    }

    @Test
    void aReceiveAsTheArgumentOfASendRunsFirst() {
        assertAccepted(session("RS", "", "s.send(s.receiveInt() + 1);"));
        assertRejected("SJ012", 10, msg("expected !<int> but the program receives ?(int)"), session("SR", "",
                "s.send(s.receiveInt());"));
    }

    @Test
    void aMulticastOverSessionsInDifferentStates() {
        assertRejected("SJ012", 11, msg("session 't': expected ?(int) but the program sends !<int>"), session("I", "", """
                            try (SJSocket t = SJService.create(RS.class, "h", 1).request()) {
                                SJ.send(1, s, t);
                                t.send(2);
                            }
                """));
    }

    @Test
    void anExplicitTypeArgumentOfReceiveIsTheReceivedType() {
        assertAccepted(session("RI", "", "Integer value = s.<Integer>receive();"));
        assertRejected("SJ013", 10, msg("expected ?(java.lang.Integer) but the program receives ?(java.lang.String)"),
                session("RI", "", "String value = s.<String>receive();"));
    }

    @Test
    void aReceivedValueUsedAsAnObjectOrDroppedIsFine() {
        assertAccepted(session("RI", "", "String text = \"got \" + s.receive();"));
        assertAccepted(session("RI", "", "s.receive();"));
    }
    /** {@code statements} on line 12 with session {@code s} of {@code cbegin.!<List<String>>}; {@code Bag} extends the raw ArrayList. */
    private static String listSession(String parameters, String statements) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class User {
                    @Protocol("cbegin.!<List<String>>") interface Names {}
                    @Protocol("cbegin.!<List>") interface AnyList {}
                    @SuppressWarnings({"rawtypes", "serial"}) static class Bag extends ArrayList {}
                    @SuppressWarnings("serial") static class Words extends ArrayList<String> {}
                    @SuppressWarnings({"rawtypes", "unchecked"})
                    <T extends List<String>> void run(%s) {
                        try (SJSocket s = SJService.create(Names.class, "h", 1).request()) {
                %s
                        }
                    }
                }
                """.formatted(parameters, statements);
    }

    /**
     * A raw List where the type says List<String> reaches send(Object) only by an unchecked
     * conversion; the runtime monitor checks the erased class alone (adv8 finding 20).
     */
    @Test
    void aRawTypeSentWhereTheTypeIsParameterisedIsRejected() {
        assertRejected("SJ013", 12, msg("expected !<java.util.List<java.lang.String>> but the program sends !<java.util.List>",
                "a raw type", "give it type arguments"), listSession("List raw", "s.send(raw);"));
        assertRejected("SJ013", 13, msg("sends !<java.util.ArrayList>", "a raw type"),
                listSession("", "List raw = new ArrayList(); raw.add(1);\ns.send(new ArrayList(raw));"));
    }

    @Test
    void aClassWithARawSupertypeSentWhereTheTypeIsParameterisedIsRejected() {
        assertRejected("SJ013", 12, msg("sends !<demo.User.Bag>", "a raw type"), listSession("", "s.send(new Bag());"));
    }

    @Test
    void parameterisedValuesOfTheMessageTypeOrItsSubtypesAreSent() {
        assertAccepted(listSession("List<String> names, T typed", """
                            if (names.isEmpty()) { s.send(names); }
                            else if (typed.isEmpty()) { s.send(typed); }
                            else if (names.size() == 1) { s.send(new Words()); }
                            else { s.send(new ArrayList<String>(names)); }
                """));
    }

    @Test
    void aRawMessageTypeTakesARawValue() {
        assertAccepted("""
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class User {
                    @Protocol("cbegin.!<List>.!<List>") interface AnyList {}
                    @SuppressWarnings("rawtypes")
                    void run(List raw, List<Integer> numbers) {
                        try (SJSocket s = SJService.create(AnyList.class, "h", 1).request()) {
                            s.send(raw);
                            s.send(numbers);
                        }
                    }
                }
                """);
    }
}
