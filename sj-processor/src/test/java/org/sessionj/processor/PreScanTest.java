package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * The pre-scan that skips bodies which cannot touch a session (SessionRelevance) must never skip one
 * that does. Each program here reaches a session without naming the session API in the body that
 * breaks the rule (and mostly without importing it in that file): only the static types of its
 * expressions, or the elements they name, show the session. Each must still be rejected; a pre-scan
 * (or a per-file filter) that looked at names rather than types would let them all compile.
 */
class PreScanTest {
    /** Protocols and helper types that hand out sockets; the files under test import none of them. */
    static final String API = """
            package demo;
            import org.sessionj.api.*;
            import java.util.function.Supplier;
            public interface Api {
                @Protocol("cbegin.!<int>") interface One {}
                /** A source of sockets: its result is a socket expression wherever it is called. */
                interface Source { SJSocket open(); }
                /** A supplier of sockets: {@code box.get()} is a socket though no API name is written. */
                interface Box extends Supplier<SJSocket> {}
                /** A record with a socket component. */
                record Holder(SJSocket socket) {}
                /** A generic source whose type argument is bounded by the socket type. */
                interface Typed<S extends SJSocket> { S take(); }
                /** A shared array that a @NoAlias method hands out. */
                final class Store {
                    private Store() {}
                    public static @NoAlias int[] fresh() { return new int[1]; }
                    public static void keep(@NoAlias int[] values) {}
                }
                /** A functional interface whose results must be unique: its implementations are checked. */
                interface Maker { @NoAlias int[] make(); }
            }
            """;

    @Test
    void aSocketReachedOnlyThroughALambdaIsChecked() {
        assertRejected("SJ010", 4, msg(), """
                package demo;
                class User {
                    Runnable run(Api.Source source) {
                        return () -> source.open().close();
                    }
                }
                """, API);
    }

    @Test
    void aSocketReachedOnlyThroughAnAnonymousClassIsChecked() {
        assertRejected("SJ010", 6, msg(), """
                package demo;
                class User {
                    Runnable run(Api.Box box) {
                        return new Runnable() {
                            public void run() {
                                box.get().close();
                            }
                        };
                    }
                }
                """, API);
    }

    @Test
    void aSocketReachedOnlyThroughAFieldInitializerIsChecked() {
        assertRejected("SJ010", 4, msg(), """
                package demo;
                class User {
                    static final Api.Source SOURCE = null;
                    final Object first = SOURCE.open();
                }
                """, API);
    }

    @Test
    void aSocketReachedOnlyThroughAMethodReferenceIsChecked() {
        assertRejected("SJ010", 4, msg(), """
                package demo;
                class User {
                    Runnable run(Api.Box box) {
                        return box.get()::close;
                    }
                }
                """, API);
    }

    /** Nothing in the body names the API: only the method reference's functional method is @NoAlias. */
    @Test
    void aMethodReferenceImplementingANoAliasMethodIsChecked() {
        assertRejected("SJ040", 5, msg(), """
                package demo;
                class User {
                    static final int[] SHARED = new int[1];
                    Api.Maker maker() {
                        return User::shared;
                    }
                    static int[] shared() {
                        return SHARED;
                    }
                }
                """, API);
    }

    /** Nothing in the lambda names the API: only its functional method is @NoAlias. */
    @Test
    void aLambdaImplementingANoAliasMethodIsChecked() {
        assertRejected("SJ040", 5, msg(), """
                package demo;
                class User {
                    static final int[] SHARED = new int[1];
                    Api.Maker maker() {
                        return () -> SHARED;
                    }
                }
                """, API);
    }

    @Test
    void aSocketReachedOnlyThroughAGenericMethodIsChecked() {
        assertRejected("SJ010", 4, msg(), """
                package demo;
                class User {
                    <S extends Api.Typed<?>> void run(S typed) {
                        Object o = typed.take();
                    }
                }
                """, API);
    }

    @Test
    void aSocketReachedOnlyThroughVarIsChecked() {
        assertRejected("SJ010", 4, msg(), """
                package demo;
                class User {
                    void run(Api.Box box) {
                        var s = box.get();
                        Object copy = s;
                    }
                }
                """, API);
    }

    @Test
    void aSocketReachedOnlyThroughARecordComponentIsChecked() {
        assertRejected("SJ010", 4, msg(), """
                package demo;
                class User {
                    void run(Api.Holder holder) {
                        holder.socket().close();
                    }
                }
                """, API);
    }

    @Test
    void aSocketReachedOnlyThroughAnInstanceofPatternIsChecked() {
        assertRejected("SJ010", 4, msg(), """
                package demo;
                class User {
                    void run(Object o) {
                        if (o instanceof Api.Holder(var s)) {
                            s.close();
                        }
                    }
                }
                """, API);
    }

    @Test
    void aSocketReachedOnlyThroughASwitchPatternIsChecked() {
        assertRejected("SJ010", 5, msg(), """
                package demo;
                class User {
                    void run(Object o) {
                        switch (o) {
                            case Api.Holder(var s) -> s.close();
                            default -> { }
                        }
                    }
                }
                """, API);
    }

    @Test
    void aNoAliasValueReachedWithoutTheAnnotationInTheFileIsChecked() {
        assertRejected("SJ040", 5, msg(), """
                package demo;
                class User {
                    void run() {
                        int[] shared = new int[1];
                        Api.Store.keep(shared);
                        shared[0] = 1;
                    }
                }
                """, API);
    }

    /**
     * Nothing in the file names the API and no node of it is typed by it: only the method it overrides
     * promises a unique result. The override is checked (SJ045) all the same.
     */
    @Test
    void anOverrideOfANoAliasResultInAFileThatNamesNoApiIsChecked() {
        assertRejected("SJ045", 5, msg("'make' overrides the method of Maker", "its result is not @NoAlias"), """
                package demo;
                class Cached implements Api.Maker {
                    private final int[] cache = new int[4];
                    @Override
                    public int[] make() {
                        return cache;
                    }
                }
                """, API);
    }

    /** The same through a local class in a method that touches nothing of the API. */
    @Test
    void anOverrideOfANoAliasResultInALocalClassOfASessionFreeMethodIsChecked() {
        assertRejected("SJ045", 7, msg("'make' overrides the method of Maker", "its result is not @NoAlias"), """
                package demo;
                class User {
                    Object run() {
                        int[] cache = new int[4];
                        class Cached implements Api.Maker {
                            @Override
                            public int[] make() {
                                return cache;
                            }
                        }
                        return null;
                    }
                }
                """, API);
    }

    /** An override that takes a parameter as @NoAlias where the overridden method shares it. */
    @Test
    void anOverrideOwningAParameterInAFileThatNamesNoApiIsChecked() {
        assertRejected("SJ045", 4, msg("its parameter 'a' is @NoAlias"), """
                package demo;
                class Owning implements java.util.function.Consumer<int[]> {
                    @Override
                    public void accept(@org.sessionj.api.NoAlias int[] a) {
                    }
                }
                """, API);
    }

    @Test
    void sessionFreeCodeNextToSessionCodeCompiles() {
        assertAccepted("""
                package demo;
                import java.util.*;
                class Stats {
                    record Summary(double mean, int count) {}
                    enum Unit { MS, NS }
                    static Summary summary(double[] samples) {
                        List<Double> kept = new ArrayList<>();
                        for (double v : samples) {
                            kept.add(v);
                        }
                        Runnable r = () -> kept.clear();
                        r.run();
                        java.util.function.Function<Double, Double> twice = v -> v * 2;
                        return new Summary(kept.stream().mapToDouble(twice::apply).sum(), kept.size());
                    }
                }
                """, API);
    }
}
