package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv21 B8: a caller's catch that names the JVM check its callee hits between two actions of a plain local session
 * ({@code catch (ArrayIndexOutOfBoundsException e)} around a method doing {@code parts[1]}: the newcomer's CSV loop)
 * compiled, and the peer waited. The JVM's checks are throw points of their own exception types now: an array index,
 * an integer division by a divisor that is not a constant, a cast that may fail, an array size that is not a
 * constant, a store into an array of a narrowable element type. A catch that takes one and goes on — one that names it
 * or a broad one, which agree — is SJ024. Each has a twin that compiles: the check before the session begins, a
 * try-with-resources, a check that cannot fail.
 */
class JvmCheckThrowPointsTest {
    private static String program(String caught, String parameter, String argument, String body) {
        return """
                import java.time.*;
                import java.util.*;
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<Object>") interface Pair {}
                  static void main(@Session(protocol = Pair.class) SJService svc) {
                    try {
                      go(svc, %s);
                    } catch (%s e) {
                      System.out.println("bad line, next");
                    }
                  }
                  static void go(@Session(protocol = Pair.class) SJService svc, %s) {
                    SJSocket s = svc.request();
                    s.send(1);
                    %s
                    s.close();
                  }
                }
                """.formatted(argument, caught, parameter, body);
    }

    /** The line split before the session begins (a JDK call), its part read between two actions (line 17). */
    private static String csv(String caught, String body) {
        return program(caught, "String line", "\"3\"", body).replace("SJSocket s = svc.request();",
                "String[] parts = line.split(\",\");\n    SJSocket s = svc.request();");
    }

    @Test
    void anArrayIndexUnderACatchThatNamesItIsSJ024() {
        assertRejected("SJ024", 8, msg("session 's' is not complete if, in 'go', the array index on line 17 "
                + "(ArrayIndexOutOfBoundsException) throws an unchecked exception, which leaves 'go' and comes out of the "
                + "call on line 8, where the catch on line 9 takes it and goes on"),
                csv("ArrayIndexOutOfBoundsException", "s.send(parts[1]);"));
        assertRejected("SJ024", 8, msg("the array index on line 17"), csv("IndexOutOfBoundsException", "s.send(parts[1]);"));
    }

    /** The narrow and the broad catch agree: a catch of every unchecked exception takes the index's too. */
    @Test
    void anArrayIndexUnderABroadCatchIsSJ024() {
        assertRejected("SJ024", 8, msg("the array index on line 17"), csv("RuntimeException", "s.send(parts[1]);"));
        assertRejected("SJ024", 8, msg("the array index on line 17"), csv("Exception", "s.send(parts[1]);"));
    }

    /** The corrected twins: the index read before the session begins, or the session in try-with-resources. */
    @Test
    void anIndexReadFirstOrUnderTryWithResourcesCompiles() {
        assertAccepted(csv("ArrayIndexOutOfBoundsException", "s.send(day);").replace(
                "SJSocket s = svc.request();", "String day = parts[1];\n    SJSocket s = svc.request();"));
        assertAccepted(csv("ArrayIndexOutOfBoundsException", "s.send(parts[1]);")
                .replace("SJSocket s = svc.request();", "try (SJSocket s = svc.request()) {")
                .replace("s.close();", "}"));
    }

    /** A catch that takes none of the check's exceptions is not concerned. */
    @Test
    void aCatchOfAnotherFailureIsNotConcerned() {
        assertAccepted(csv("java.time.DateTimeException", "s.send(parts[1]);"));
    }

    @Test
    void anIntegerDivisionUnderACatchOfArithmeticExceptionIsSJ024() {
        assertRejected("SJ024", 8, msg("the integer division on line 16 (ArithmeticException) throws an unchecked "
                + "exception, which leaves 'go'"), program("ArithmeticException", "int n", "0", "int k = 100 / n;\ns.send(k);"));
        assertRejected("SJ024", 8, msg("the integer division on line 17"),
                program("ArithmeticException", "int n", "0", "int k = 100;\nk %= n;\ns.send(k);"));
    }

    /** A constant divisor other than zero, or a floating-point division, cannot throw. */
    @Test
    void aConstantOrFloatingDivisorCompiles() {
        assertAccepted(program("ArithmeticException", "int n", "0", "int k = n / 4 + n % 3;\ns.send(k);"));
        assertAccepted(program("ArithmeticException", "int n", "0", "double k = 100.0 / n;\ns.send(k);"));
    }

    @Test
    void aCastUnderACatchOfClassCastExceptionIsSJ024() {
        assertRejected("SJ024", 8, msg("the cast to 'LocalDate' on line 16 (ClassCastException) throws"),
                program("ClassCastException", "Object o", "List.of(\"x\")", "s.send((LocalDate) o);"));
    }

    /** An upcast cannot fail. */
    @Test
    void anUpcastCompiles() {
        assertAccepted(program("ClassCastException", "LocalDate d", "LocalDate.EPOCH", "s.send((Object) d);"));
    }

    @Test
    void anArraySizeOrStoreUnderACatchThatNamesItIsSJ024() {
        assertRejected("SJ024", 8, msg("the array size on line 16 (NegativeArraySizeException) throws"),
                program("NegativeArraySizeException", "int n", "-1", "int[] a = new int[n];\ns.send(a.length);"));
        assertRejected("SJ024", 8, msg("the array store on line 16 (ArrayStoreException) throws"),
                program("ArrayStoreException", "Object[] row", "new String[1]", "row[0] = 1;\ns.send(2);"));
    }

    /** A constant size, and a store into an array of a final element type, cannot fail so. */
    @Test
    void aConstantSizeOrAFinalElementTypeCompiles() {
        assertAccepted(program("NegativeArraySizeException", "int n", "-1", "int[] a = new int[3];\ns.send(a.length);"));
        assertAccepted(program("ArrayStoreException", "String[] row", "new String[1]", "row[0] = \"x\";\ns.send(2);"));
    }

    /** Inside one method: the session declared in the try block, the catch after it. */
    @Test
    void anArrayIndexInsideOneMethodIsSJ024() {
        assertRejected("SJ024", 11, msg("session 's' is not complete if the array index on line 11 "
                + "(ArrayIndexOutOfBoundsException) throws an unchecked exception, which the catch on line 13 takes "
                + "and goes on"), """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<String>") interface Pair {}
                  static void main(@Session(protocol = Pair.class) SJService svc, String[] args) {
                    for (String line : args) {
                      try {
                        String[] parts = line.split(",");
                        SJSocket s = svc.request();
                        s.send(1);
                        String day;
                        day = parts[1];
                        s.send(day); s.close();
                      } catch (ArrayIndexOutOfBoundsException e) {
                        System.out.println("bad line, next");
                      }
                    }
                  }
                }
                """);
    }

    /**
     * Not a null dereference (documented): every dereference and every JDK call may throw one, and counting it would
     * make every plain local session under a broad catch need try-with-resources.
     */
    @Test
    void aNullDereferenceIsNotCounted() {
        assertAccepted(program("NullPointerException", "String name", "null", "s.send(name.length());"));
    }
}
