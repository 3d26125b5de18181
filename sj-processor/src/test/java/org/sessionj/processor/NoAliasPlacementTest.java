package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 6 (adversarial pass 11): {@code @NoAlias} is a type annotation too, so Java accepts it
 * on any type, where no rule would check it (a type argument, an array's component type, a cast, …):
 * SJ047. Only a variable's, parameter's, field's or method's declaration or own declared type may
 * carry it.
 */
class NoAliasPlacementTest {
    /** {@code member} as a member of a class (line 5). */
    private static String member(String member) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Own {
                %s
                }
                """.formatted(member);
    }

    @Test
    void aTypeArgument() {
        assertRejected("SJ047", 5, msg("@NoAlias on a type argument", "is not checked"), member("""
                    List<@NoAlias int[]> batches = new ArrayList<>();"""));
    }

    @Test
    void aWildcardBound() {
        assertRejected("SJ047", 5, msg("@NoAlias on a type argument"), member("""
                    List<? extends @NoAlias Object> batches = null;"""));
    }

    @Test
    void anArraysComponentType() {
        assertRejected("SJ047", 5, msg("@NoAlias on an array's component type"), member("""
                    int[] @NoAlias [] rows = new int[2][];"""));
    }

    @Test
    void aCast() {
        assertRejected("SJ047", 5, msg("@NoAlias on the type of a cast (a cast does not make a value unique)"), member("""
                    int[] copy(int[] shared) { return (int @NoAlias []) shared; }"""));
    }

    @Test
    void aNewArraysDimension() {
        assertRejected("SJ047", 5, msg("@NoAlias on the type of a 'new'"), member("""
                    int[] make() { return new int @NoAlias [3]; }"""));
    }

    @Test
    void anInstanceofType() {
        assertRejected("SJ047", 5, msg("@NoAlias on the type of an instanceof test"), member("""
                    boolean test(Object o) { return o instanceof @NoAlias String; }"""));
    }

    @Test
    void aTypeParametersBound() {
        assertRejected("SJ047", 5, msg("@NoAlias on a type parameter's bound"), member("""
                    static <T extends @NoAlias Object> void take(T t) { }"""));
    }

    @Test
    void aSupertype() {
        assertRejected("SJ047", 5, msg("@NoAlias on a supertype"), member("""
                    static class Box extends @NoAlias Object { }"""));
    }

    @Test
    void aClassDeclaration() {
        assertRejected("SJ047", 5, msg("@NoAlias on a class declaration"), member("""
                    @NoAlias static class Box { }"""));
    }

    /** The declaration, or its own declared type (the outermost array type, a qualified type), is checked. */
    @Test
    void theDeclarationOrItsOwnTypeIsLegal() {
        assertAccepted(member("""
                    @NoAlias int[] a = new int[1];
                    int @NoAlias [] b = new int[1];
                    java.util.@NoAlias List<String> c = new ArrayList<>();
                    @NoAlias int[] make() { return new int[1]; }
                    int @NoAlias [] make2(@NoAlias int[] p, int @NoAlias [] q) { return p; }
                    void run() {
                        @NoAlias int[] x = new int[2];
                        int @NoAlias [][] grid = new int[2][];
                        java.util.function.Consumer<int[]> sink = (var v) -> { };
                        sink.accept(new int[1]);
                    }"""));
    }
}
