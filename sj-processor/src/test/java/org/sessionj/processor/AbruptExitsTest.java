package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * SJ024's one rule for the exception paths: <em>every point at which control can leave a live session's
 * scope abruptly is a throw point</em> — not only a {@code throw} and a call that declares a checked
 * exception in the plain code, but also a throw in a catch block whose session may be in one of several
 * states (adv15 A10), a throw in a finally block before its close (A17), the implicit {@code close()} of a
 * try-with-resources resource (A1), a failing {@code assert} (A20), and the throw points of a method a
 * session is lent to (A18). A session an {@code SJScope} closes is not abandoned (A27). Each rejected
 * form was accepted before and, at run time, left the peer waiting forever.
 */
class AbruptExitsTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.!<int>") interface C2 {}
                @Protocol("cbegin.!<int>.?(String)") interface Ask {}
            }
            """;

    /** The body starts on line 25. */
    private static String client(String body) {
        return """
                package demo;
                import java.io.ByteArrayOutputStream;
                import java.io.IOException;
                import org.sessionj.api.*;
                class User {
                    static class ConfigException extends Exception {
                        ConfigException(String message, Throwable cause) {
                            super(message, cause);
                        }
                    }
                    static class Log implements AutoCloseable {
                        @Override
                        public void close() throws IOException {
                        }
                    }
                    static class Quiet implements AutoCloseable {
                        @Override
                        public void close() {
                        }
                    }
                    static void step() throws IOException {
                    }
                    void run(@Session(protocol = P.C2.class) SJService svc, @Session(protocol = P.Ask.class)
                            SJService ask, String text, int x) throws Exception {
                %s    }
                }
                """.formatted(body);
    }

    // ---- A10: a catch block that wraps and rethrows, the session in one of several states

    @Test
    void catchThatWrapsAndRethrows() {
        assertRejected("SJ024", 32, msg("session 's' is not complete if the throw on line 32 runs",
                "leaves its scope", "or failed (its action on line 27 threw)", "(where an exception in the try block on line 26"),
                PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            int b = Integer.parseInt(text);
                            s.send(b);
                            s.close();
                        } catch (NumberFormatException e) {
                            throw new ConfigException("bad number " + text, e);
                        }
                """));
    }

    @Test
    void catchThatCallsACheckedMethod() {
        assertRejected("SJ024", 32, msg("if the call of 'step' on line 32 throws"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            int b = Integer.parseInt(text);
                            s.send(b);
                            s.close();
                        } catch (NumberFormatException e) {
                            step();
                            throw e;
                        }
                """));
    }

    /** Corrected: the catch closes the session (it may: it owns it in every state) before it rethrows. */
    @Test
    void catchThatClosesBeforeItRethrows() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            int b = Integer.parseInt(text);
                            s.send(b);
                            s.close();
                        } catch (NumberFormatException e) {
                            s.close();
                            throw new ConfigException("bad number " + text, e);
                        }
                """));
    }

    /** Every state the catch may see is ended or complete: nothing is abandoned. */
    @Test
    void catchAfterTheSessionCompleted() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        s.send(2);
                        try {
                            step();
                            s.close();
                        } catch (IOException e) {
                            throw new ConfigException("step", e);
                        }
                """));
    }

    // ---- A17: a finally block that throws before its close

    @Test
    void finallyThatCallsACheckedMethodBeforeItsClose() {
        assertRejected("SJ024", 32, msg("if the call of 'step' on line 32 throws in the finally block run for the "
                + "exception where the call of 'step' on line 28 throws", "close it first in the finally block",
                ": !<int> remains"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            step();
                            s.send(2);
                        } finally {
                            System.out.println("audit");
                            step();
                            s.close();
                        }
                """));
    }

    @Test
    void finallyThatThrowsBeforeItsClose() {
        assertRejected("SJ024", 31, msg("if the throw on line 31 runs in the finally block"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            step();
                            s.send(2);
                        } finally {
                            if (x < 0) throw new IllegalStateException("audit");
                            s.close();
                        }
                """));
    }

    /** Corrected: the close first, then what may throw. */
    @Test
    void finallyThatClosesFirst() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            step();
                            s.send(2);
                        } finally {
                            s.close();
                            step();
                            if (x < 0) throw new IllegalStateException("audit");
                        }
                """));
    }

    /** The finally block's own catch takes what it throws before the close. */
    @Test
    void finallyThatCatchesItsOwnException() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            step();
                            s.send(2);
                        } finally {
                            try {
                                step();
                            } catch (IOException e) {
                                System.out.println("audit failed: " + e);
                            }
                            s.close();
                        }
                """));
    }

    // ---- A1: the implicit close() of another try-with-resources resource

    @Test
    void closeOfAnotherResource() {
        assertRejected("SJ024", 27, msg("if the close() of 'log' (try-with-resources, at the end of its block on line "
                + "27) throws", ": !<int> remains"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        try (Log log = new Log()) {
                            System.out.println(log);
                        }
                        s.send(2);
                        s.close();
                """));
    }

    /** A JDK resource: {@code ByteArrayOutputStream.close()} declares IOException. */
    @Test
    void closeOfAJdkResource() {
        assertRejected("SJ024", 27, msg("if the close() of 'bos'"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        try (ByteArrayOutputStream bos = new ByteArrayOutputStream()) {
                            bos.write(x);
                        }
                        s.send(2);
                        s.close();
                """));
    }

    /** {@code try (v)} on an existing variable closes it just the same. */
    @Test
    void closeOfAnExistingVariable() {
        assertRejected("SJ024", 28, msg("if the close() of 'log'"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        Log log = new Log();
                        try (log) {
                            System.out.println(log);
                        }
                        s.send(2);
                        s.close();
                """));
    }

    /** Corrected: a close() that declares nothing, one whose exception the statement's catch takes, a session resource. */
    @Test
    void closesThatCannotAbandonTheSession() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        try (Quiet quiet = new Quiet()) {
                            System.out.println(quiet);
                        }
                        try (Log log = new Log()) {
                            System.out.println(log);
                        } catch (IOException e) {
                            System.out.println("log: " + e);
                        }
                        s.send(2);
                        s.close();
                        try (SJSocket t = svc.request(); Log log = new Log()) {
                            t.send(1);
                            t.send(2);
                        }
                """));
    }

    // ---- A20: a failing assert

    @Test
    void assertWhileLive() {
        assertRejected("SJ024", 27, msg("if the assert on line 27 fails (with -ea)", ": !<int> remains"), PROTOCOLS,
                client("""
                        SJSocket s = svc.request();
                        s.send(x);
                        assert x > 0 : "x must be positive";
                        s.send(x * 2);
                        s.close();
                """));
    }

    /** Corrected: the assert before the request, or after the close. */
    @Test
    void assertOutsideTheSession() {
        assertAccepted(PROTOCOLS, client("""
                        assert x > 0 : "x must be positive";
                        SJSocket s = svc.request();
                        s.send(x);
                        s.send(x * 2);
                        s.close();
                        assert x > 1;
                """));
    }

    // ---- A27: a member of an SJScope declared in the scope's block

    @Test
    void scopeMemberDeclaredInTheScopesBlock() {
        assertAccepted(PROTOCOLS, client("""
                        try (SJScope sc = SJ.scope()) {
                            SJSocket a = sc.add(ask.request());
                            a.send(1);
                            Thread.sleep(1);
                            String r = a.receive();
                        }
                        try (SJScope sc = SJ.scope()) {
                            SJSocket a = ask.request();
                            sc.add(a);
                            a.send(1);
                            step();
                            String r = a.receive();
                        }
                """));
    }

    /** Before it is added, the scope does not close it. */
    @Test
    void scopeMemberBeforeItIsAdded() {
        assertRejected("SJ024", 28, msg("session 'a' is not complete if the call of 'step' on line 28 throws"),
                PROTOCOLS, client("""
                        try (SJScope sc = SJ.scope()) {
                            SJSocket a = ask.request();
                            a.send(1);
                            step();
                            sc.add(a);
                            String r = a.receive();
                        }
                """));
    }

    /** A variable assigned a new session after its first was a member: the new one is not. */
    @Test
    void scopeMemberReassigned() {
        assertRejected("SJ024", 32, msg("session 'a' is not complete if the call of 'step' on line 32 throws"),
                PROTOCOLS, client("""
                        try (SJScope sc = SJ.scope()) {
                            SJSocket a = sc.add(ask.request());
                            a.send(1);
                            String r = a.receive();
                            a.close();
                            a = ask.request();
                            a.send(2);
                            step();
                            r = a.receive();
                            a.close();
                        }
                """));
    }
}
