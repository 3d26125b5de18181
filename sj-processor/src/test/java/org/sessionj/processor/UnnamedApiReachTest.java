package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 1: a compilation unit that never names {@code org.sessionj.api} is still checked when
 * it reaches a session, a service or a {@code @NoAlias} value through a {@code var}, a method result, an
 * implicitly typed lambda or another class's field. (Each user class below has no import of the API; a
 * checker that skipped such units by their names compiled every one of these programs.)
 */
class UnnamedApiReachTest {
    private static final String LIBRARY = """
            package demo;
            import org.sessionj.api.*;
            public class Library {
                @Protocol("cbegin.!<int>") public interface One {}
                public interface Handler { void handle(@Session("!<int>") SJSocket s); }
                @NoAlias public int[] data = new int[4];
                public static SJService one() {
                    return SJService.create(One.class, "h", 1);
                }
                public static void lend(Handler handler) {
                    try (SJSocket s = SJService.create(One.class, "h", 1).request()) {
                        handler.handle(s);
                    }
                }
            }
            """;

    /** The shape of {@code org.sessionj.runtime.SJRuntime}'s factories. */
    private static final String RUNTIME = ServiceProtocolFlowTest.RUNTIME;

    @Test
    void aSessionFromAServiceReturnedByAMethodIsReportedThoughTheUnitNamesNoApiType() {
        assertRejected("SJ010", 4, msg("session 's'", "protocol is not known"), """
                package app;
                class User {
                    void run() {
                        try (var s = demo.Library.one().request()) {
                            s.send("wrong");
                        }
                    }
                }
                """, LIBRARY);
    }

    @Test
    void anImplicitlyTypedLambdaLentASessionIsCheckedAgainstTheHandlersType() {
        assertRejected("SJ013", 4, msg("expected !<int>", "java.lang.String"), """
                package app;
                class User {
                    void run() {
                        demo.Library.lend(s -> s.send("wrong"));
                    }
                }
                """, LIBRARY);
    }

    @Test
    void aNoAliasFieldOfAnotherClassCannotBeCopiedFromAUnitThatNamesNoAnnotation() {
        assertRejected("SJ043", 4, msg("@NoAlias field 'data'"), """
                package app;
                class User {
                    int[] steal(demo.Library library) {
                        int[] copy = library.data;
                        return copy;
                    }
                }
                """, LIBRARY);
    }

    @Test
    void aServiceMadeByTheRuntimeIsCheckedInAUnitThatImportsOnlyTheRuntime() {
        assertRejected("SJ013", 6, msg("expected !<int>", "java.lang.String"), """
                package app;
                import org.sessionj.runtime.SJRuntime;
                class User {
                    void run() {
                        try (var s = SJRuntime.global().service(demo.Library.One.class, "h", 1).request()) {
                            s.send("wrong");
                        }
                    }
                }
                """, LIBRARY, RUNTIME);
    }

    @Test
    void theSameProgramsWellTypedCompile() {
        assertAccepted("""
                package app;
                import org.sessionj.runtime.SJRuntime;
                class User {
                    void run() {
                        try (var s = SJRuntime.global().service(demo.Library.One.class, "h", 1).request()) {
                            s.send(1);
                        }
                        demo.Library.lend(s -> s.send(2));
                    }
                }
                """, LIBRARY, RUNTIME);
    }

    @Test
    void aUnitThatReachesNothingOfTheApiCompilesBesideOneThatDoes() {
        assertAccepted("""
                package app;
                import java.util.ArrayList;
                import java.util.List;
                class Plain {
                    private final List<String> names = new ArrayList<>();
                    void add(String name) {
                        Runnable r = () -> names.add(name);
                        r.run();
                    }
                }
                """, LIBRARY);
    }

    /**
     * A unit that names the API by qualified names only, with no import of it: no longer found by a search
     * of the file's text (which read every session-free file once more), but by the pre-scan, which sees
     * the parameter's type.
     */
    @Test
    void aUnitThatNamesTheApiByQualifiedNamesOnlyIsChecked() {
        assertRejected("SJ013", 4, msg("expected !<int>", "java.lang.String"), """
                package app;
                class User {
                    void run(@org.sessionj.api.Session("!<int>") org.sessionj.api.SJSocket s) {
                        s.send("wrong");
                    }
                }
                """);
    }
}
