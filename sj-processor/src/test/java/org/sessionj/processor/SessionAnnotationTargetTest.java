package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * {@code @Session} types a session socket, service or server socket parameter and nothing else: on a
 * parameter of any other type it is rejected where it is written (SJ007), naming the parameter and its
 * type. Before, it was ignored there, and a socket passed to that parameter was reported at the call
 * as escaping into a plain parameter (SJ031), pointing away from the mistake.
 */
class SessionAnnotationTargetTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>") interface P {}
            """;

    @Test
    void aSessionAnnotationOnAStringParameterIsRejectedAtTheDeclaration() {
        assertRejected("SJ007", 4, msg("invalid @Session on parameter 'text'", "its type String is not"),
                HEAD + """
                  static void f(@Session("!<int>") String text) { }
                }
                """);
    }

    @Test
    void aSessionAnnotationOnAnAbstractMethodsObjectParameterIsRejected() {
        assertRejected("SJ007", 4, msg("parameter 'o'", "its type Object is not"), HEAD + """
                  interface H { void on(@Session("!<int>") Object o); }
                }
                """);
    }

    @Test
    void aSessionAnnotationOnAnArrayOfSocketsIsRejected() {
        assertRejected("SJ007", 4, msg("parameter 'all'", "its type SJSocket[] is not"), HEAD + """
                  static void f(@Session("!<int>") SJSocket[] all) { }
                }
                """);
    }

    @Test
    void aSessionAnnotationOnAnExplicitlyTypedLambdaParameterIsRejected() {
        assertRejected("SJ007", 5, msg("parameter 'n'", "its type int is not"), HEAD + """
                  interface F { void on(int n); }
                  F f = (@Session("!<int>") int n) -> { };
                }
                """);
    }

    @Test
    void aSessionAnnotationOnARecordComponentOfAnotherTypeIsRejected() {
        assertRejected("SJ007", 4, msg("parameter 'n'", "its type int is not"), HEAD + """
                  record R(@Session("!<int>") int n) { }
                }
                """);
    }

    @Test
    void theDeclarationIsReportedAndACallGivingItASocketIsAnEscape() {
        com.google.testing.compile.Compilation compilation = CompilerHarness.compile(HEAD + """
                  static void f(@Session("!<int>") Object o) { }
                  void run() {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      f(s);
                    }
                  }
                }
                """);
        org.assertj.core.api.Assertions.assertThat(compilation.errors())
                .extracting(d -> d.getMessage(null).substring(1, 6) + "@" + d.getLineNumber())
                .containsExactly("SJ007@4", "SJ031@7");
    }

    @Test
    void sessionOnSocketsServicesServerSocketsAndSocketTypeVariablesCompiles() {
        assertAccepted(HEAD + """
                  static void f(@Session("!<int>") SJSocket s) { s.send(1); }
                  static <S extends SJSocket> void g(@Session("!<int>") S s) { s.send(1); }
                  static void h(@Session(protocol = P.class) SJService service) { }
                  static void k(@Session(protocol = P.class) SJServerSocket server) { }
                  interface H { void on(@Session("!<int>") SJSocket s); }
                  H l = (@Session("!<int>") SJSocket s) -> s.send(1);
                }
                """);
    }

    /**
     * adv15 A24: the protocol's name given as the session type ({@code @Session("P")}, the newcomer's guess)
     * names the fix, and the request on the service is not a second error (it was SJ001's "syntax error …
     * found 'P'", then SJ010 advising the very annotation already written).
     */
    @Test
    void aProtocolsNameAsTheSessionTypeNamesTheFixOnce() {
        assertRejected("SJ007", 4, msg("invalid @Session on parameter 'svc'",
                "'P' names a @Protocol interface, not a session type: write @Session(protocol = P.class)"),
                HEAD + """
                  static void f(@Session("P") SJService svc) { try (SJSocket s = svc.request()) { s.send(1); } }
                }
                """);
        assertRejected("SJ007", 5, msg("'A.Part' names a @Protocol interface", "@Session(protocol = A.Part.class)"),
                HEAD + """
                  @Protocol("!<int>") interface Part {}
                  static void g(@Session("A.Part") SJSocket s) { s.send(1); }
                }
                """);
    }

    @Test
    void aNameThatIsNoProtocolIsStillReadAsASessionType() {
        assertRejected("SJ007", 4, msg("parameter 's'", "syntax error", "found 'String'"), HEAD + """
                  static void f(@Session("String") SJSocket s) { }
                }
                """);
        assertAccepted(HEAD + """
                  @Protocol("!<int>") interface Part {}
                  static void g(@Session("@(Part)") SJSocket s) { s.send(1); }
                  static void h(@Session(protocol = Part.class) SJSocket s) { s.send(1); }
                }
                """);
    }
}
