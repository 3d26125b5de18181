package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.compile;
import static org.sessionj.processor.CompilerHarness.describe;
import static org.sessionj.processor.CompilerHarness.msg;

import com.google.testing.compile.Compilation;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, a fresh adversarial pass as an outsider: a session socket handed to the library and
 * language features a Java programmer reaches for — threads, executors, streams, {@code Optional},
 * collections, arrays, varargs, {@code Object} and generic parameters, conditionals and switch
 * expressions choosing between sockets, locks, null checks — each rejected with the code that names
 * the escape, or accepted where the program is well typed.
 */
class OutsiderSocketEscapesTest {
    /** The statements run with a fresh session {@code s} of {@code !<int>.!<int>}; they start on line 16. */
    private static String session(String parameters, String statements) {
        return cls("""
                    void run(%s) {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                %s
                        }
                    }
                """.formatted(parameters, statements));
    }

    /** Members start on line 14. */
    private static String cls(String members) {
        return """
                package demo;
                import org.sessionj.api.*;
                import java.util.*;
                import java.util.concurrent.*;
                import java.util.function.*;
                class User {
                    @Protocol("cbegin.!<int>.!<int>") interface Two {}
                    @Protocol("cbegin.?(int)") interface Recv {}
                    interface Step { void run(@Session("!<int>") SJSocket s); }
                    static void log(Object o) { }
                    static <T> void keep(T t) { }
                    static void all(SJSocket... ss) { }
                    final Object lock = new Object();
                %s
                }
                """.formatted(members);
    }

    /** Exactly {@code count} errors, each with {@code code}, on {@code line}. */
    private static void assertRejectedEach(String code, int count, long line, String source) {
        Compilation compilation = compile(source);
        assertThat(compilation.errors()).as("errors of\n" + describe(compilation)).hasSize(count);
        compilation.errors().forEach(error -> {
            assertThat(error.getMessage(Locale.ROOT)).startsWith("[" + code + "]");
            assertThat(error.getLineNumber()).isEqualTo(line);
        });
    }

    // ------------------------------------------------------------------ concurrency

    @Test
    void aThreadRunningTheSession() {
        assertRejected("SJ032", 16, msg("session 's' is captured by a lambda"), session("", """
                            new Thread(() -> { s.send(1); s.send(2); }).start();
                """));
    }

    @Test
    void anExecutorRunningTheSession() {
        assertRejected("SJ032", 16, msg("captured by a lambda"), session("ExecutorService pool", """
                            pool.submit(() -> { s.send(1); s.send(2); });
                """));
    }

    @Test
    void anAsynchronousTaskSendingWhileTheOwnerSendsToo() {
        assertRejected("SJ032", 16, msg("captured by a lambda"), session("", """
                            CompletableFuture.runAsync(() -> s.send(1));
                            s.send(2);
                """));
    }

    @Test
    void aThreadSubclassGivenTheSocket() {
        assertRejected("SJ031", 17, msg("session 's' escapes into a constructor call"), session("", """
                            new Worker(s).start();
                """).replace("    final Object lock", "    static class Worker extends Thread { Worker(Object o) { } }\n"
                + "    final Object lock"));
    }

    // ------------------------------------------------------------------ streams, Optional, collections

    @Test
    void forEachOverAListSendingOnTheSession() {
        assertRejected("SJ032", 16, msg("captured by a lambda"), session("List<Integer> xs", """
                            xs.forEach(x -> s.send(x));
                """));
    }

    @Test
    void aStreamOfSocketsHasNoSessionType() {
        assertRejected("SJ010", 15, msg("session parameter 'x'"), cls("""
                    void run(List<SJSocket> sockets) {
                        sockets.stream().forEach(x -> x.send(1));
                    }
                """));
    }

    @Test
    void optionalOfTheSocket() {
        assertRejected("SJ031", 16, msg("session 's' escapes into a call of 'of'"), session("", """
                            Optional<SJSocket> maybe = Optional.of(s);
                            s.send(1);
                            s.send(2);
                """));
    }

    @Test
    void theSocketPutIntoAMapIsOneError() {
        // put() returns the previous session: the same escape, not a second untyped session.
        assertRejected("SJ031", 16, msg("escapes into a call of 'put'"), session("Map<String, SJSocket> byName", """
                            byName.put("first", s);
                """));
    }

    @Test
    void listOfTheSocket() {
        assertRejected("SJ031", 16, msg("escapes into a call of 'of'"), session("", """
                            List<SJSocket> one = List.of(s);
                """));
    }

    @Test
    void aSocketFromAWildcardListHasNoSessionType() {
        assertRejected("SJ010", 15, msg("the session returned by 'sockets.get(0)'"), cls("""
                    void run(List<? extends SJSocket> sockets) {
                        sockets.get(0).send(1);
                    }
                """));
    }

    @Test
    void aServiceMayGoAnywhere() {
        assertAccepted(cls("""
                    void run() {
                        SJService service = SJService.create(Two.class, "h", 1);
                        Optional<SJService> kept = Optional.of(service);
                        try (SJSocket s = service.request()) {
                            s.send(1);
                            s.send(2);
                        }
                    }
                """));
    }

    // ------------------------------------------------------------------ arrays, varargs, Object and generic parameters

    @Test
    void anArrayInitializerHoldingTheSocket() {
        assertRejected("SJ031", 16, msg("escapes into an array"), session("", """
                            SJSocket[] held = {s};
                """));
    }

    @Test
    void aVarargsParameterOfSocketsIsAnArray() {
        assertRejected("SJ031", 16, msg("escapes into a call of 'all'"), session("", """
                            all(s);
                """));
    }

    @Test
    void anObjectParameter() {
        assertRejected("SJ031", 16, msg("escapes into a call of 'log'"), session("", """
                            log(s);
                            s.send(1);
                            s.send(2);
                """));
    }

    @Test
    void aGenericParameter() {
        assertRejected("SJ031", 16, msg("escapes into a call of 'keep'"), session("", """
                            keep(s);
                """));
    }

    @Test
    void requireNonNullIsOneError() {
        assertRejected("SJ031", 16, msg("escapes into a call of 'requireNonNull'"), session("", """
                            Objects.requireNonNull(s).send(1);
                """));
    }

    /** As a statement it is a null check, a read like {@code s != null}: its result, a copy, is dropped (adv12 A11). */
    @Test
    void requireNonNullAsAStatementIsANullCheck() {
        assertAccepted(session("", """
                            Objects.requireNonNull(s);
                            Objects.requireNonNull(s, "s");
                            s.send(1);
                            s.send(2);
                """));
    }

    @Test
    void requireNonNullWhoseResultIsKeptCopiesTheSocket() {
        assertRejected("SJ031", 16, msg("escapes into a call of 'requireNonNull'"), session("", """
                            SJSocket t = Objects.requireNonNull(s);
                            s.send(1);
                            s.send(2);
                """));
    }

    @Test
    void theSocketInAStringConcatenation() {
        assertRejected("SJ031", 16, msg("escapes into an expression that is not a session operation"), session("", """
                            String label = "session " + s;
                            s.send(1);
                            s.send(2);
                """));
    }

    @Test
    void objectMethodsOnTheSocket() {
        assertRejected("SJ031", 16, msg("session 's' escapes as the receiver of 'hashCode', which is not a session "
                + "operation"), session("", """
                            int id = s.hashCode();
                            s.send(1);
                            s.send(2);
                """));
    }

    // ------------------------------------------------------------------ choosing between sockets

    @Test
    void aConditionalChoosingBetweenTwoSocketsOfDifferentStates() {
        assertRejectedEach("SJ030", 2, 18, cls("""
                    void run(boolean c) {
                        try (SJSocket a = SJService.create(Two.class, "h", 1).request();
                                SJSocket b = SJService.create(Two.class, "h", 1).request()) {
                            a.send(1);
                            SJSocket t = c ? a : b;
                            t.send(2);
                        }
                    }
                """));
    }

    @Test
    void aConditionalAsTheReceiverOfAnAction() {
        assertRejectedEach("SJ031", 2, 17, cls("""
                    void run(boolean c) {
                        try (SJSocket a = SJService.create(Two.class, "h", 1).request();
                                SJSocket b = SJService.create(Two.class, "h", 1).request()) {
                            (c ? a : b).send(1);
                        }
                    }
                """));
    }

    @Test
    void aSwitchExpressionChoosingBetweenSockets() {
        assertRejectedEach("SJ031", 2, 17, cls("""
                    void run(int k) {
                        try (SJSocket a = SJService.create(Two.class, "h", 1).request();
                                SJSocket b = SJService.create(Two.class, "h", 1).request()) {
                            SJSocket t = switch (k) { case 1 -> a; default -> b; };
                        }
                    }
                """));
    }

    @Test
    void aConditionalBeginningTheSameSessionFromEitherServiceIsAccepted() {
        assertAccepted(cls("""
                    void run(boolean primary) {
                        SJService main = SJService.create(Two.class, "main", 1);
                        SJService backup = SJService.create(Two.class, "backup", 1);
                        try (SJSocket s = primary ? main.request() : backup.request()) {
                            s.send(1);
                            s.send(2);
                        }
                    }
                """));
    }

    @Test
    void aConditionalBeginningSessionsOfDifferentProtocols() {
        assertRejected("SJ010", 15, msg("session 's'", "the arms of this conditional begin it with different types "
                + "(!<int>.!<int> and ?(int))"), cls("""
                    void run(boolean c) {
                        try (SJSocket s = c ? SJService.create(Two.class, "h", 1).request()
                                : SJService.create(Recv.class, "h", 1).request()) {
                            s.send(1);
                        }
                    }
                """));
    }

    // ------------------------------------------------------------------ locks and null checks

    @Test
    void lockingOnTheSocketIsAnEscape() {
        assertRejected("SJ031", 16, msg("session 's' escapes"), session("", """
                            synchronized (s) {
                                s.send(1);
                                s.send(2);
                            }
                """));
    }

    @Test
    void actionsInsideASynchronizedBlockOnAnotherLockAreChecked() {
        assertAccepted(session("", """
                            synchronized (lock) {
                                s.send(1);
                                s.send(2);
                            }
                """));
        assertRejected("SJ024", 15, msg("!<int> remains"), session("", """
                            synchronized (lock) {
                                s.send(1);
                            }
                """));
    }

    @Test
    void aNullCheckOfTheSocketIsARead() {
        assertAccepted(session("", """
                            assert s != null;
                            if (s == null) {
                                throw new IllegalStateException("no session");
                            }
                            s.send(1);
                            s.send(2);
                """));
    }

    /** A session from request() is never null: the null branch never runs and is not joined (adv10 F17). */
    @Test
    void aNullCheckOfASessionHasNoNullBranch() {
        assertAccepted(session("", """
                            if (s != null) {
                                s.send(1);
                            }
                            s.send(2);
                """));
    }

    /**
     * Its null branch never runs: what it does is checked with 's' null there (NeverNullTest) but not joined,
     * and what the other branch does is checked.
     */
    @Test
    void aNullCheckStillChecksTheBranchThatRuns() {
        assertRejected("SJ012", 21, msg("session 's'"), session("", """
                            if (s == null) {
                                System.out.println("never");
                            } else {
                                s.send(1);
                                s.send(1);
                                s.send(2);
                            }
                """));
    }

    @Test
    void anInstanceofTypeTestOfTheSocket() {
        assertRejected("SJ031", 16, msg("session 's' escapes"), session("", """
                            boolean closeable = s instanceof AutoCloseable;
                            s.send(1);
                            s.send(2);
                """));
    }

    // ------------------------------------------------------------------ var, resources, method references

    @Test
    void varCopyOfTheSocket() {
        assertRejected("SJ030", 16, msg("session 's' is copied into variable 't'"), session("", """
                            var t = s;
                            t.send(1);
                            t.send(2);
                """));
    }

    @Test
    void varSessionVariableIsChecked() {
        assertRejected("SJ012", 17, msg("expected end"), cls("""
                    void run() {
                        try (var s = SJService.create(Two.class, "h", 1).request()) {
                            s.send(1); s.send(2);
                            s.send(3);
                        }
                    }
                """));
    }

    @Test
    void aResourceReferenceIsChecked() {
        assertAccepted(cls("""
                    void run() {
                        SJSocket r = SJService.create(Two.class, "h", 1).request();
                        try (r) {
                            r.send(1);
                            r.send(2);
                        }
                    }
                """));
        assertRejected("SJ024", 16, msg("!<int> remains"), cls("""
                    void run() {
                        SJSocket r = SJService.create(Two.class, "h", 1).request();
                        try (r) {
                            r.send(1);
                        }
                    }
                """));
    }

    @Test
    void aVarLambdaParameterTakesTheInterfacesType() {
        assertRejected("SJ012", 14, msg("session 't': expected end"), cls("""
                    Step twice = (var t) -> { t.send(1); t.send(2); };
                """));
    }

    @Test
    void methodReferencesToThisSessionMethods() {
        assertAccepted(cls("""
                    Step step = this::serve;
                    void serve(@Session("!<int>") SJSocket s) { s.send(1); }
                """));
        assertRejected("SJ036", 14, msg("parameter 's' of 'serveTwice' is @Session(\"!<int>.!<int>\")"), cls("""
                    Step step = this::serveTwice;
                    void serveTwice(@Session("!<int>.!<int>") SJSocket s) { s.send(1); s.send(2); }
                """));
    }

    @Test
    void aLambdaReturningANewSession() {
        assertRejected("SJ017", 14, msg("the session returned by request() must initialise a local SJSocket variable"),
                cls("""
                    Supplier<SJSocket> open = () -> SJService.create(Two.class, "h", 1).request();
                """));
    }

    @Test
    void aLambdaRunAtOnceIsStillACapture() {
        assertRejected("SJ032", 16, msg("captured by a lambda"), session("", """
                            ((Runnable) () -> s.send(1)).run();
                            s.send(2);
                """));
    }
}
