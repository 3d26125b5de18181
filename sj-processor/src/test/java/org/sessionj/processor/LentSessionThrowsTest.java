package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * SJ024 across a {@code @Session} method (adv15 A18). The contract: a method lent a session it does not
 * end may throw anywhere in the part it is lent, so its caller's call is a throw point with the session as
 * it was <em>before</em> the call — for what the method declares, for an unchecked {@code throw} or
 * {@code assert} of its own (read from its source when it is compiled in the same run), and for an
 * unchecked exception where the caller swallows it. A method that ends its parameter (closes, delegates,
 * spawns it), or assigns it a session of its own, owns that session's exception paths as a plain local's.
 */
class LentSessionThrowsTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.!<int>") interface C2 {}
            }
            """;

    /** The helpers start on line 7, the caller's body two lines after their last. */
    private static String program(String helpers, String caller) {
        return """
                package demo;
                import java.io.IOException;
                import org.sessionj.api.*;
                class User {
                    static void step() throws IOException {
                    }
                %s
                    static void client(@Session(protocol = P.C2.class) SJService svc, int qty, int price) throws IOException {
                %s    }
                }
                """.formatted(helpers, caller);
    }

    @Test
    void uncheckedThrowOfTheMethodsOwnWithTheLentSessionIncomplete() {
        assertRejected("SJ024", 15, msg("session 's' is not complete if the call of 'order' on line 15 throws "
                + "IllegalArgumentException (the throw on line 9 in 'order', with the session lent to it)",
                "declare it in try-with-resources", ": !<int>.!<int> remains"), PROTOCOLS, program("""
                    static void order(@Session("!<int>.!<int>") SJSocket s, int qty, int price) {
                        s.send(qty);
                        if (price < 0) throw new IllegalArgumentException("negative price");
                        s.send(price);
                    }
                """, """
                        SJSocket s = svc.request();
                        order(s, qty, price);
                        s.close();
                """));
    }

    /**
     * adv17 A2: the throw one call further down — "extract method" on the helper above — is composed: the
     * helper lends the session on to a method whose own throw counts. Also through a constructor.
     */
    @Test
    void throwOfAMethodTheSessionIsLentOnTo() {
        assertRejected("SJ024", 18, msg("session 's' is not complete if the call of 'order' on line 18 throws "
                + "IllegalArgumentException (the throw on line 12 in 'price', with the session lent to it)",
                ": !<int>.!<int> remains"), PROTOCOLS, program("""
                    static void order(@Session("!<int>.!<int>") SJSocket s, int qty, int price) {
                        s.send(qty);
                        price(s, price);
                    }
                    static void price(@Session("!<int>") SJSocket s, int price) {
                        if (price < 0) throw new IllegalArgumentException("negative price");
                        s.send(price);
                    }
                """, """
                        SJSocket s = svc.request();
                        order(s, qty, price);
                        s.close();
                """));
        assertRejected("SJ024", 20, msg("if the call of 'order' on line 20 throws IllegalArgumentException (the throw "
                + "on line 13 in 'Pricer', with the session lent to it)"), PROTOCOLS, program("""
                    static void order(@Session("!<int>.!<int>") SJSocket s, int qty, int price) {
                        s.send(qty);
                        new Pricer(s, price);
                    }
                    static class Pricer {
                        Pricer(@Session("!<int>") SJSocket s, int price) {
                            if (price < 0) throw new IllegalArgumentException("negative price");
                            s.send(price);
                        }
                    }
                """, """
                        SJSocket s = svc.request();
                        order(s, qty, price);
                        s.close();
                """));
    }

    /** Corrected adv17 A2: the method one call further down takes its own failure; or the caller's session is a resource. */
    @Test
    void throwOfAMethodTheSessionIsLentOnToCovered() {
        assertAccepted(PROTOCOLS, program("""
                    static void order(@Session("!<int>.!<int>") SJSocket s, int qty, int price) {
                        s.send(qty);
                        price(s, price);
                    }
                    static void price(@Session("!<int>") SJSocket s, int price) {
                        int value = price;
                        try {
                            if (value < 0) throw new IllegalArgumentException("negative price");
                        } catch (IllegalArgumentException e) {
                            value = 0;
                        }
                        s.send(value);
                    }
                    static void strict(@Session("!<int>") SJSocket s, int price) {
                        if (price < 0) throw new IllegalArgumentException("negative price");
                        s.send(price);
                    }
                    static void order2(@Session("!<int>.!<int>") SJSocket s, int qty, int price) {
                        s.send(qty);
                        strict(s, price);
                    }
                """, """
                        SJSocket s = svc.request();
                        order(s, qty, price);
                        s.close();
                        try (SJSocket t = svc.request()) {
                            order2(t, qty, price);
                        }
                """));
    }

    /** Before the first action the caller's session is just as incomplete. */
    @Test
    void uncheckedThrowBeforeTheFirstAction() {
        assertRejected("SJ024", 15, msg("if the call of 'order' on line 15 throws IllegalArgumentException (the "
                + "throw on line 8"), PROTOCOLS, program("""
                    static void order(@Session("!<int>.!<int>") SJSocket s, int qty, int price) {
                        if (price < 0) throw new IllegalArgumentException("negative price");
                        s.send(qty);
                        s.send(price);
                    }
                """, """
                        SJSocket s = svc.request();
                        order(s, qty, price);
                        s.close();
                """));
    }

    @Test
    void assertOfTheMethodsOwn() {
        assertRejected("SJ024", 15, msg("if the call of 'order' on line 15 throws AssertionError (the assert on line 9"),
                PROTOCOLS, program("""
                    static void order(@Session("!<int>.!<int>") SJSocket s, int qty, int price) {
                        s.send(qty);
                        assert price >= 0;
                        s.send(price);
                    }
                """, """
                        SJSocket s = svc.request();
                        order(s, qty, price);
                        s.close();
                """));
    }

    /** The method completes its part and the caller closes: the call is taken before the part, not after. */
    @Test
    void checkedCallInAMethodThatCompletesTheSession() {
        assertRejected("SJ024", 15, msg("session 's' is not complete if the call of 'work' on line 15 throws",
                ": !<int>.!<int> remains"), PROTOCOLS, program("""
                    static void work(@Session("!<int>.!<int>") SJSocket s) throws IOException {
                        s.send(1);
                        step();
                        s.send(2);
                    }
                """, """
                        SJSocket s = svc.request();
                        work(s);
                        s.close();
                """));
    }

    /** A method that ends its parameter owns its exception paths: the caller's call counts it as ended. */
    @Test
    void checkedCallInAMethodThatEndsTheSession() {
        assertRejected("SJ024", 9, msg("session 's' is not complete if the call of 'step' on line 9 throws",
                "declare it in try-with-resources, or close it in a finally block", ": !<int> remains"), PROTOCOLS,
                program("""
                    static void finish(@Session("!<int>.!<int>") SJSocket s) throws IOException {
                        s.send(1);
                        step();
                        s.send(2);
                        s.close();
                    }
                """, """
                        SJSocket s = svc.request();
                        finish(s);
                """));
    }

    /** A parameter assigned a session the method began itself is that method's, as a plain local. */
    @Test
    void parameterAssignedASessionOfItsOwn() {
        assertRejected("SJ024", 11, msg("if the throw on line 11 runs", "declare it in try-with-resources"), PROTOCOLS,
                program("""
                    static void h(@Session("!<int>") SJSocket s, @Session(protocol = P.C2.class) SJService svc, boolean c) {
                        s.send(1);
                        s = svc.request();
                        s.send(2);
                        if (c) throw new IllegalStateException("x");
                        s.send(3);
                        s.close();
                    }
                """, """
                        SJSocket s = svc.request();
                        s.send(1);
                        s.send(2);
                        s.close();
                """));
    }

    // ---- corrected forms

    @Test
    void correctedForms() {
        assertAccepted(PROTOCOLS, program("""
                    static void order(@Session("!<int>.!<int>") SJSocket s, int qty, int price) throws IOException {
                        s.send(qty);
                        if (price < 0) throw new IOException("negative price"); // declared: the caller's throw point
                        s.send(price);
                        if (qty > 100) throw new IllegalStateException("after its part: the session is complete");
                    }
                    static void work(@Session("!<int>.!<int>") SJSocket s) throws IOException {
                        s.send(1);
                        step();
                        s.send(2);
                    }
                    static void finishWithResource(@Session("!<int>.!<int>") SJSocket s) throws IOException {
                        try (s) {
                            s.send(1);
                            step();
                            s.send(2);
                        }
                    }
                    static void validating(@Session("!<int>.!<int>") SJSocket s, int qty, int price) {
                        s.send(qty);
                        if (price < 0) throw new IllegalArgumentException("negative price"); // the caller covers it
                        try {
                            if (qty < 0) throw new IllegalStateException("caught here");
                        } catch (IllegalStateException e) {
                            System.out.println(e);
                        }
                        s.send(price);
                    }
                    static void finishInFinally(@Session("!<int>.!<int>") SJSocket s) throws IOException {
                        try {
                            s.send(1);
                            step();
                            s.send(2);
                        } finally {
                            s.close();
                        }
                    }
                """, """
                        if (price < 0) throw new IllegalArgumentException("negative price"); // before the request
                        try (SJSocket s = svc.request()) {
                            order(s, qty, price);
                        }
                        SJSocket t = svc.request();
                        try {
                            work(t);
                        } finally {
                            t.close();
                        }
                        SJSocket u = svc.request();
                        finishWithResource(u);
                        SJSocket v = svc.request();
                        finishInFinally(v);
                        try (SJSocket w = svc.request()) {
                            validating(w, qty, price);
                        }
                        SJSocket y = svc.request();
                        try {
                            validating(y, qty, price);
                        } finally {
                            y.close();
                        }
                """));
    }
}
