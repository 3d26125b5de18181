package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12 (adv10 F18, noalias items): values that cannot be shared or are new on every call. A
 * {@code @NoAlias} primitive or {@code void} method owns nothing (SJ047 says so instead of an SJ040 on
 * {@code @NoAlias int x = 5}); {@code pass} of an immutable value (a primitive, a {@code String}, a box)
 * is harmless (no SJ042); a method reference to an array's {@code clone()} or a JDK method returning a
 * new array implements a {@code @NoAlias} result (no SJ040).
 */
class NoAliasValueKindsTest {
    /** {@code body} as members of a class (first line: 5). */
    private static String member(String body) {
        return """
                package demo;
                import java.util.function.*;
                import org.sessionj.api.*;
                class Own {
                %s
                }
                """.formatted(body);
    }

    @Test
    void aPrimitiveFieldOwnsNothing() {
        assertRejected("SJ047", 5, msg("@NoAlias on 'x' of the primitive type int is not checked",
                "a primitive value is copied wherever it goes", "remove @NoAlias"), member("""
                    @NoAlias int x = 5;"""));
    }

    @Test
    void aPrimitiveLocalOrParameterOwnsNothing() {
        assertRejected("SJ047", 5, msg("@NoAlias on 'p' of the primitive type long"), member("""
                    void f(@NoAlias long p) { }"""));
        assertRejected("SJ047", 6, msg("@NoAlias on 'n' of the primitive type double"), member("""
                    void f() {
                        @NoAlias double n = 1.5;
                    }"""));
    }

    @Test
    void aPrimitiveResultOwnsNothing() {
        assertRejected("SJ047", 5, msg("@NoAlias on 'size' of the primitive type int"), member("""
                    @NoAlias int size() { return 3; }"""));
    }

    @Test
    void aVoidMethodOwnsNothing() {
        assertRejected("SJ047", 5, msg("@NoAlias on 'run', which returns void, is not checked",
                "there is no result to own"), member("""
                    @NoAlias void run() { }"""));
    }

    /** The primitive gets SJ047 only: no SJ040 for the shared-looking constant. */
    @Test
    void aPrimitiveIsReportedOnce() {
        org.assertj.core.api.Assertions.assertThat(CompilerHarness.compile(member("""
                    @NoAlias int x = 5;""")).errors()).hasSize(1);
    }

    @Test
    void aBoxedNoAliasIsStillChecked() {
        assertRejected("SJ040", 7, msg("@NoAlias 'n' may only hold a unique value", "found 'shared'"), member("""
                    Integer shared = 1000;
                    void f() {
                        @NoAlias Integer n = shared;
                    }"""));
    }

    private static final String SESSION = """
            package demo;
            import org.sessionj.api.*;
            @Protocol("cbegin.!<String>.!<Integer>.!<int>.!<int[]>") interface Out {}
            class Sender {
                void run(@Session(protocol = Out.class) SJSocket s, String text, Integer n, int[] shared) {
                    s.pass(%s);
                    s.pass(n);
                    s.pass(3);
                    s.pass(%s);
                }
            }
            """;

    @Test
    void passOfAnImmutableValueIsHarmless() {
        assertAccepted(SESSION.formatted("\"literal\"", "new int[] {1}"));
        assertAccepted(SESSION.formatted("text", "shared.clone()"));
    }

    @Test
    void passOfASharedMutableValueIsStillSJ042() {
        assertRejected("SJ042", 9, msg("pass() hands over ownership", "found 'shared'"),
                SESSION.formatted("text", "shared"));
    }

    @Test
    void passOfANoAliasStringStillMovesIt() {
        assertRejected("SJ041", 9, msg("@NoAlias 't' is used after its value was moved"), """
                package demo;
                import org.sessionj.api.*;
                @Protocol("cbegin.!<String>") interface Out {}
                class Sender {
                    void run(@Session(protocol = Out.class) SJSocket s, @NoAlias String t) {
                        s.pass(t);
                        s.close();
                        String u;
                        u = t;
                    }
                }
                """);
    }

    @Test
    void aReferenceToAnArraysCloneIsUnique() {
        assertAccepted(member("""
                    interface Source { @NoAlias int[] make(); }
                    interface Copier { @NoAlias int[] copy(int[] from); }
                    interface Chars { @NoAlias char[] of(String text); }
                    void refs(int[] shared, int[][] rows) {
                        Source a = shared::clone;
                        Source b = rows[0]::clone;
                        Copier c = int[]::clone;
                        Chars d = String::toCharArray;
                    }"""));
    }

    @Test
    void aReferenceToAnotherMethodIsStillSJ040() {
        assertRejected("SJ040", 8, msg("make()'s result (the method reference implements Source.make)",
                "found 'box::get'"), member("""
                    interface Source { @NoAlias int[] make(); }
                    static class Box { int[] v = new int[1]; int[] get() { return v; } }
                    void refs(Box box) {
                        Source a = box::get;
                    }"""));
    }

    @Test
    void aCloneOfANonArrayIsNotUnique() {
        assertRejected("SJ040", 8, msg("found 'box::clone'"), member("""
                    interface Source { @NoAlias Object make(); }
                    static class Box implements Cloneable { public Box clone() { return this; } }
                    void refs(Box box) {
                        Source a = box::clone;
                    }"""));
    }
}
