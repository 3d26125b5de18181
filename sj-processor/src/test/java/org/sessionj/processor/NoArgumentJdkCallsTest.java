package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A11: under a broad catch that goes on (adv18 A12), every JDK call between two actions of a plain local
 * session counts as a failure unless it cannot fail. A new empty collection, a clock's {@code now()}, the current
 * thread's name and a random UUID cannot fail for any argument (they take none), and were SJ024 — a false alarm on
 * natural code ({@code Instant sent = Instant.now(); s.send(sent);}). Their overloads that take an argument still
 * count: a capacity may be negative, a copy runs the source's code.
 */
class NoArgumentJdkCallsTest {
    private static String client(String statement, String type) {
        return """
                import java.util.*;
                import java.time.*;
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<%s>") interface Pair {}
                  static void main(@Session(protocol = Pair.class) SJService svc, int n) {
                    try {
                      client(svc, n);
                    } catch (Exception e) {
                      System.out.println("failed, next: " + e);
                    }
                  }
                  static void client(@Session(protocol = Pair.class) SJService svc, int n) {
                    SJSocket a = svc.request();
                    a.send(n);
                    %s
                    a.send(v);
                    a.close();
                  }
                }
                """.formatted(type, statement);
    }

    @Test
    void aNewEmptyCollectionCannotFail() {
        assertAccepted(client("ArrayList<Integer> v = new ArrayList<>();", "ArrayList<Integer>"));
        assertAccepted(client("HashMap<String, Integer> v = new HashMap<>();", "HashMap<String,Integer>"));
    }

    @Test
    void aClockThreadOrUuidCannotFail() {
        assertAccepted(client("Instant v = Instant.now();", "Instant"));
        assertAccepted(client("LocalDate v = LocalDate.now();", "LocalDate"));
        assertAccepted(client("String v = Thread.currentThread().getName();", "String"));
        assertAccepted(client("UUID v = UUID.randomUUID();", "UUID"));
        assertAccepted(client("List<Integer> v = List.of();", "List<Integer>"));
    }

    /** The overloads that take an argument still count: a negative capacity fails, a clock given a zone may not exist. */
    @Test
    void anOverloadWithAnArgumentStillCounts() {
        assertRejected("SJ024", 8, msg("session 'a' is not complete if, in 'client', the constructor call on line 16 "
                + "throws an unchecked exception, which leaves 'client' and comes out of the call on line 8, where the "
                + "catch on line 9 takes it and goes on"), client("ArrayList<Integer> v = new ArrayList<>(n);",
                "ArrayList<Integer>"));
        assertRejected("SJ024", 8, msg("on line 16 throws an unchecked exception"),
                client("LocalDate v = LocalDate.now(ZoneId.of(\"Europe/Nowhere\"));", "LocalDate"));
    }
}
