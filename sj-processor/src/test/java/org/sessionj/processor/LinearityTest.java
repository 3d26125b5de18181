package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** Sockets are linear; no session actions in catch/finally; misplaced request/accept. */
class LinearityTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Lin {
                @Protocol("cbegin.!<int>") interface One {}
            }
            """;

    private static String body(String members, String statements) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class User {
                %s
                    void run() {
                        SJService c = SJService.create(Lin.One.class, "h", 1);
                        try (SJSocket s = c.request()) {
                %s
                        }
                    }
                }
                """.formatted(members, statements);
    }

    @Test
    void servicesMayBeSharedAndNonSessionCodeIsUnaffected() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Shared {
                    private static final SJService SERVICE = SJService.create(Lin.One.class, "h", 1);
                    void run() {
                        SJService alias = SERVICE;
                        List<SJService> all = new ArrayList<>();
                        all.add(alias);
                        Runnable r = () -> {
                            try (SJSocket s = SERVICE.request()) {
                                s.send(1);
                            }
                        };
                        try (SJSocket s = alias.request()) {
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            s.send(all.size());
                        }
                    }
                }
                """);
    }

    @Test
    void aliasingIntoAnotherVariable() {
        assertRejected("SJ030", 9, msg("session 's' is copied into variable 't'"), body("", """
                            SJSocket t = s;
                """), PROTOCOLS);
    }

    @Test
    void storingIntoAField() {
        assertRejected("SJ031", 9, msg("session 's' escapes into field 'kept'"), body("    SJSocket kept;", """
                            kept = s;
                """), PROTOCOLS);
    }

    @Test
    void storingIntoACollection() {
        assertRejected("SJ031", 10, msg("session 's' escapes into a call of 'add'"), body("", """
                            List<SJSocket> all = new ArrayList<>();
                            all.add(s);
                """), PROTOCOLS);
    }

    @Test
    void storingIntoAnArray() {
        assertRejected("SJ031", 9, msg("session 's' escapes into an array"), body("", """
                            SJSocket[] all = {s};
                """), PROTOCOLS);
    }

    @Test
    void capturedByALambda() {
        assertRejected("SJ032", 9, msg("session 's' is captured by a lambda"), body("", """
                            Runnable r = () -> s.send(1);
                """), PROTOCOLS);
    }

    @Test
    void capturedByAnAnonymousClass() {
        assertRejected("SJ032", 10, msg("session 's' is captured by an anonymous class"), body("", """
                            Runnable r = new Runnable() {
                                public void run() { s.send(1); }
                            };
                """), PROTOCOLS);
    }

    @Test
    void capturedByAMethodReference() {
        assertRejected("SJ032", 9, msg("session 's' is captured by a method reference"), body("", """
                            java.util.function.IntConsumer r = s::send;
                """), PROTOCOLS);
    }

    @Test
    void overwritingAnUnfinishedSession() {
        assertRejected("SJ033", 11, msg("session 't' is reassigned while its session is not complete: !<int> remains"),
                body("", """
                            s.send(1);
                            SJSocket t = c.request();
                            t = c.request();
                            t.send(2);
                """), PROTOCOLS);
    }

    @Test
    void sessionActionInACatchBlock() {
        assertRejected("SJ026", 12, msg("session 's': only close() is allowed in a catch block"), body("", """
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                                s.send(0);
                            }
                            s.send(1);
                """), PROTOCOLS);
    }

    @Test
    void sessionActionInAFinallyBlock() {
        assertRejected("SJ026", 13, msg("only close() is allowed in a finally block"), body("", """
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                            } finally {
                                s.send(0);
                            }
                """), PROTOCOLS);
    }

    @Test
    void requestWhoseSessionIsNotHeldInAVariable() {
        assertRejected("SJ017", 9, msg("the session returned by request() must initialise a local SJSocket variable"),
                body("", """
                            s.send(1);
                            c.request().send(1);
                """.replace("s.send(1);\n", "s.send(1);")), PROTOCOLS);
    }

    @Test
    void returningASocket() {
        assertRejected("SJ031", 6, msg("session 's' escapes by being returned"), """
                package demo;
                import org.sessionj.api.*;
                class Factory {
                    SJSocket open(SJService unused) {
                        SJSocket s = SJService.create(Lin.One.class, "h", 1).request();
                        return s;
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void socketsFromACollectionCannotBeChecked() {
        assertRejected("SJ010", 5, msg("session 's'", "sockets taken from an array or collection cannot be checked"),
                """
                package demo;
                import org.sessionj.api.*;
                class Many {
                    void run(java.util.List<SJSocket> sockets) {
                        for (SJSocket s : sockets) {
                            s.send(1);
                        }
                    }
                }
                """);
    }
}
