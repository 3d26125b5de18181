package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * SJ024's "swallow and go on" rule for calls of the JDK: the program's code run by a JDK call or by Java
 * itself (adv16 A6: {@code IntSupplier.getAsInt()} of a method reference, {@code o.toString()} on an
 * {@code Object}, a comparator lambda given to {@code list.sort}, an enhanced for over the program's
 * {@code Iterable}, a string concatenation's {@code toString()}) may throw any unchecked exception, and
 * a catch that names an unchecked failure makes every call of its try block a throw point of it (adv16
 * A16: {@code LocalDate.parse}, {@code Scanner.nextInt}, {@code new BigDecimal(text)},
 * {@code UUID.fromString} document the exception they throw on bad input without declaring it). Each
 * rejected snippet is one the checker accepted before, where the peer waits forever (runtime-confirmed
 * by adv16).
 */
class ForeignCodeThrowPointsTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.!<int>") interface C2 {}
                @Protocol("cbegin.!<int>.!<String>") interface CS {}
            }
            """;

    /** The body starts on line 14; {@code next} is the program's method, which throws. */
    private static String client(String params, String body) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class User {
                    static int next() {
                        throw new IllegalStateException("no next");
                    }
                    static class Bad {
                        public String toString() {
                            throw new IllegalStateException("no text");
                        }
                    }
                    int run(@Session(protocol = P.C2.class) SJService svc, @Session(protocol = P.CS.class) SJService text%s) {
                %s        return 0;
                    }
                }
                """.formatted(params, body);
    }

    // ---- A6: the program's code run by a JDK call

    /** A method reference called through the JDK's functional interface. */
    @Test
    void programMethodThroughAJdkFunctionalInterface() {
        assertRejected("SJ024", 18, msg("if the call of 'getAsInt' on line 18 throws an unchecked exception, which the "
                + "catch on line 20 takes and goes on"), PROTOCOLS, client("", """
                        java.util.function.IntSupplier supplier = User::next;
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            s.send(supplier.getAsInt());
                            s.close();
                        } catch (RuntimeException e) {
                            System.out.println("skipped: " + e);
                        }
                """));
    }

    /** {@code toString()} called on an {@code Object}, which is the program's {@code Bad}. */
    @Test
    void toStringOfAnObject() {
        assertRejected("SJ024", 17, msg("if the call of 'toString' on line 17 throws an unchecked exception"),
                PROTOCOLS, client(", Object o", """
                        try {
                            SJSocket s = text.request();
                            s.send(1);
                            s.send(o.toString());
                            s.close();
                        } catch (RuntimeException e) {
                            System.out.println("skipped: " + e);
                        }
                """));
    }

    /** A lambda of the program given to a JDK method, which runs it. */
    @Test
    void lambdaRunByAJdkMethod() {
        assertRejected("SJ024", 17, msg("if the call of 'sort' on line 17 throws an unchecked exception"),
                PROTOCOLS, client(", List<Integer> list", """
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            list.sort((a, b) -> next());
                            s.send(2);
                            s.close();
                        } catch (RuntimeException e) {
                            System.out.println("skipped: " + e);
                        }
                """));
    }

    /** An enhanced for calls the Iterable's iterator(), hasNext() and next(): the program's list. */
    @Test
    void enhancedForOverAnIterable() {
        assertRejected("SJ024", 18, msg("if the iterator(), hasNext() or next() of the enhanced for's Iterable "
                + "(line 18) throws an unchecked exception"), PROTOCOLS, client(", Iterable<Integer> items", """
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            int sum = 0;
                            for (int item : items) {
                                sum += item;
                            }
                            s.send(sum);
                            s.close();
                        } catch (RuntimeException e) {
                            System.out.println("skipped: " + e);
                        }
                """));
    }

    /** A string concatenation calls its operand's toString(). */
    @Test
    void stringConcatenationOfAProgramObject() {
        assertRejected("SJ024", 17, msg("if the toString() of an operand of the string concatenation (line 17) "
                + "throws an unchecked exception"), PROTOCOLS, client(", Bad bad", """
                        try {
                            SJSocket s = text.request();
                            s.send(1);
                            s.send("value: " + bad);
                            s.close();
                        } catch (RuntimeException e) {
                            System.out.println("skipped: " + e);
                        }
                """));
    }

    // ---- A16: a catch that names the failure it expects

    /** {@code LocalDate.parse} documents {@code DateTimeParseException} and does not declare it. */
    @Test
    void parseUnderACatchOfItsFailure() {
        assertRejected("SJ024", 17, msg("if the call of 'parse' on line 17 throws an unchecked exception, which the "
                + "catch on line 19 takes and goes on"), PROTOCOLS, client(", String input", """
                        try {
                            SJSocket s = text.request();
                            s.send(1);
                            s.send(java.time.LocalDate.parse(input).toString());
                            s.close();
                        } catch (java.time.format.DateTimeParseException e) {
                            System.out.println("bad date, try again");
                        }
                """));
    }

    /** {@code Scanner.nextInt()} and {@code InputMismatchException}. */
    @Test
    void scannerUnderACatchOfItsFailure() {
        assertRejected("SJ024", 17, msg("if the call of 'nextInt' on line 17"), PROTOCOLS, client(", Scanner in", """
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            s.send(in.nextInt());
                            s.close();
                        } catch (InputMismatchException e) {
                            System.out.println("not a number");
                        }
                """));
    }

    /** A constructor: {@code new BigDecimal(text)} and {@code NumberFormatException}; {@code UUID.fromString}. */
    @Test
    void constructorAndFactoryUnderACatchOfTheirFailure() {
        assertRejected("SJ024", 17, msg("if the constructor call on line 17 throws an unchecked exception"), PROTOCOLS,
                client(", String input", """
                        try {
                            SJSocket s = text.request();
                            s.send(1);
                            s.send(new java.math.BigDecimal(input).toPlainString());
                            s.close();
                        } catch (NumberFormatException e) {
                            System.out.println("not a number");
                        }
                """));
        assertRejected("SJ024", 17, msg("if the call of 'fromString' on line 17"), PROTOCOLS, client(", String input", """
                        try {
                            SJSocket s = text.request();
                            s.send(1);
                            s.send(UUID.fromString(input).toString());
                            s.close();
                        } catch (IllegalArgumentException e) {
                            System.out.println("not an id");
                        }
                """));
    }

    /**
     * adv19 A13: a subtype of a JVM check that only library code throws ({@code StringIndexOutOfBoundsException},
     * from {@code String}'s methods) names a failure of the call; the one the JVM throws itself for an array
     * ({@code ArrayIndexOutOfBoundsException}) names the array index's failure, a throw point of its own (adv21 B8).
     */
    @Test
    void aLibraryOnlySubtypeOfAJvmCheckNamesTheCallsFailure() {
        assertRejected("SJ024", 17, msg("if the call of 'substring' on line 17"), PROTOCOLS, client(", String code", """
                        try {
                            SJSocket s = text.request();
                            s.send(1);
                            s.send(code.substring(0, 3));
                            s.close();
                        } catch (StringIndexOutOfBoundsException e) {
                            System.out.println("code too short, skipped");
                        }
                """));
        assertRejected("SJ024", 16, msg("if the array index on line 16 (ArrayIndexOutOfBoundsException) throws"),
                PROTOCOLS, client(", int[] numbers", """
                        try {
                            SJSocket s = svc.request();
                            s.send(numbers[0]);
                            s.send(numbers[1]);
                            s.close();
                        } catch (ArrayIndexOutOfBoundsException e) {
                            System.out.println("skipped: " + e);
                        }
                """));
    }

    // ---- corrected forms, and what is not counted

    /**
     * Corrected: the session is a resource. Not counted: a JDK call that cannot fail for any argument
     * ({@code trim}: UnfailingJdkCalls) under a catch of every unchecked exception (a {@code substring} there
     * counts, adv18 A12: BroadCatchTest), a JDK call under a catch of one the JVM throws by its own
     * checks ({@code NullPointerException}, an index; the array read before the session begins: adv21 B8 counts an
     * index between two actions); the JDK's own code under a catch of an unrelated
     * failure is counted (it names what the block expects), but a catch inside the socket's scope covers it.
     */
    @Test
    void resourceAndUnnamedFailures() {
        assertAccepted(PROTOCOLS, client(", String input, Scanner in, int[] numbers", """
                        try (SJSocket s = text.request()) {
                            s.send(1);
                            s.send(java.time.LocalDate.parse(input).toString());
                        } catch (java.time.format.DateTimeParseException e) {
                            System.out.println("bad date, try again");
                        }
                        try {
                            SJSocket s = text.request();
                            s.send(1);
                            s.send(input.trim());
                            s.close();
                        } catch (RuntimeException e) {
                            System.out.println("skipped: " + e);
                        }
                        try {
                            int first = numbers[0];
                            int second = numbers[1];
                            int third = numbers[2];
                            SJSocket s = svc.request();
                            s.send(first);
                            s.send(Math.addExact(second, third));
                            s.close();
                        } catch (NullPointerException | IndexOutOfBoundsException e) {
                            System.out.println("skipped: " + e);
                        }
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            int n;
                            try {
                                n = in.nextInt();
                            } catch (InputMismatchException e) {
                                n = 0;
                            }
                            s.send(n);
                            s.close();
                        } catch (InputMismatchException e) {
                            System.out.println("not reached");
                        }
                """));
    }

    /** Corrected A6: the program's code run through the JDK, with the session a resource. */
    @Test
    void resourceWithProgramCodeThroughTheJdk() {
        assertAccepted(PROTOCOLS, client(", Object o, Iterable<Integer> items", """
                        java.util.function.IntSupplier supplier = User::next;
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            int sum = supplier.getAsInt();
                            for (int item : items) {
                                sum += item;
                            }
                            s.send(sum);
                        } catch (RuntimeException e) {
                            System.out.println("skipped: " + e);
                        }
                        try (SJSocket s = text.request()) {
                            s.send(1);
                            s.send(o.toString() + o);
                        } catch (RuntimeException e) {
                            System.out.println("skipped: " + e);
                        }
                """));
    }
}
