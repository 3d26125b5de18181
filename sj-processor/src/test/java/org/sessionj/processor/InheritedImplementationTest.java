package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A class may declare nothing and still implement a method: the implementation it inherits from its
 * superclass (or a default method) implements, as a member of this class, a method of another supertype
 * ({@code class Impl extends Lib implements H {}}). A call through {@code H} runs {@code Lib}'s body, so
 * that body must keep {@code H}'s contract: the same {@code @Session} types (SJ036) and the same
 * {@code @NoAlias} promises (SJ045), reported at the class that pairs them. Found by the eighth
 * session's adversarial pass (each of these compiled before).
 */
class InheritedImplementationTest {

    @Test
    void anInheritedImplementationWithAnotherSessionTypeIsRejected() {
        assertRejected("SJ036", 5, msg("parameter 's' of 'Lib.on' as inherited by 'Impl'", "@Session(\"!<java.lang.String>\")",
                "overrides in H declares it @Session(\"!<int>\")"), """
                import org.sessionj.api.*;
                class A {
                  interface H { void on(@Session("!<int>") SJSocket s); }
                  static class Lib { public void on(@Session("!<String>") SJSocket s) { s.send("x"); } }
                  static class Impl extends Lib implements H {}
                }
                """);
    }

    /** Base.on(T) implements H.on only in Impl, not in its own class. */
    @Test
    void anInheritedGenericImplementationWithAnotherSessionTypeIsRejected() {
        assertRejected("SJ036", 7, msg("'Base.on' as inherited by 'Impl'"), """
                import org.sessionj.api.*;
                class A {
                  interface H { void on(@Session("!<int>") SJSocket s); }
                  static abstract class Base<T extends SJSocket> {
                    public void on(@Session("!<String>") T s) { s.send("x"); }
                  }
                  static class Impl extends Base<SJSocket> implements H {}
                }
                """);
    }

    @Test
    void anInheritedImplementationOfANoAliasResultThatSharesIsRejected() {
        assertRejected("SJ045", 5, msg("'Lib.make' as inherited by 'Impl' overrides the method of Api",
                "its result is not @NoAlias"), """
                import org.sessionj.api.*;
                class A {
                  interface Api { @NoAlias int[] make(); }
                  static class Lib { final int[] cache = new int[4]; public int[] make() { return cache; } }
                  static class Impl extends Lib implements Api {}
                }
                """);
    }

    @Test
    void anInheritedImplementationOwningAParameterTheInterfaceSharesIsRejected() {
        assertRejected("SJ045", 5, msg("'Lib.take' as inherited by 'Impl'", "its parameter 'p' is @NoAlias"), """
                import org.sessionj.api.*;
                class A {
                  interface Api { void take(int[] p); }
                  static class Lib { @NoAlias int[] mine; public void take(@NoAlias int[] p) { mine = p; } }
                  static class Impl extends Lib implements Api {}
                }
                """);
    }

    /** The pre-scan must not skip the class: its file names nothing of the API. */
    @Test
    void anInheritedImplementationInAFileThatNamesNoApiIsChecked() {
        assertRejected("SJ045", 2, msg("'Lib.make' as inherited by 'Impl'"), """
                package demo;
                class Impl extends Lib implements Api.Maker {
                }
                """, """
                package demo;
                class Lib {
                    final int[] cache = new int[4];
                    public int[] make() { return cache; }
                }
                """, PreScanTest.API);
    }

    @Test
    void inheritedImplementationsThatKeepTheContractCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                class A {
                  interface H { void on(@Session("!<int>") SJSocket s); }
                  static class Lib { public void on(@Session("!<int>") SJSocket s) { s.send(1); } }
                  static class Impl extends Lib implements H {}
                  interface Api { @NoAlias int[] make(); void take(int[] p); }
                  static class Maker { public @NoAlias int[] make() { return new int[4]; } public void take(int[] p) { } }
                  static class Made extends Maker implements Api {}
                  static class Plain extends Lib {}
                }
                """);
    }
}
