package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import com.google.testing.compile.Compilation;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * adv10 F18's session items: Java's constant expressions where the checker reads a constant (labels,
 * a recursion loop's {@code while (true)}), the never-taken arm of an enum constant a choice lacks,
 * the accessor of a record's {@code @Session(protocol)} service, and no SJ diagnostics on top of
 * javac's own "cannot find symbol".
 */
class RoughEdgesTest {
    /** The body of run starts on line 13. */
    private static String cls(String body) {
        return """
                import org.sessionj.api.*;
                class A {
                  static final String PREFIX = "";
                  static final String SUFFIX = "B";
                  static final boolean FOREVER = true;
                  static boolean running = true;
                  enum L { A, B, X }
                  @Protocol("cbegin.!{A: !<int>, B: }") interface Out {}
                  @Protocol("cbegin.?{A: !<int>, B: }") interface In {}
                  @Protocol("cbegin.rec X[!<int>.#X]") interface Forever {}
                  void run(@Session(protocol = Out.class) SJService out, @Session(protocol = In.class) SJService in,
                      @Session(protocol = Forever.class) SJService forever) {
                %s
                  }
                }
                """.formatted(body);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PREFIX + \"A\"", "\"\" + 'A'", "(\"A\")", "PREFIX + (\"A\" + PREFIX)",
        "FOREVER ? \"A\" : SUFFIX", "(String) \"A\"", "PREFIX + \"A\" + PREFIX"})
    void aConstantExpressionIsALabel(String label) {
        assertAccepted(cls("""
                    SJSocket s = out.request();
                    s.outbranch(%s);
                    s.send(1);
                    s.close();
                """.formatted(label)));
    }

    @Test
    void aConstantExpressionCaseLabelIsALabel() {
        assertAccepted(cls("""
                    SJSocket s = in.request();
                    switch (s.inbranch()) {
                      case PREFIX + "A" -> s.send(1);
                      case "" + SUFFIX -> { }
                      default -> throw new IllegalStateException();
                    }
                    s.close();
                """));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PREFIX + String.valueOf('A')", "running ? \"A\" : \"B\"", "\"A\".trim()"})
    void anExpressionThatIsNoConstantIsStillRejected(String label) {
        assertRejected("SJ015", 14, msg("the label of outbranch must be a string constant"), cls("""
                    SJSocket s = out.request();
                    s.outbranch(%s);
                    s.send(1);
                    s.close();
                """.formatted(label)));
    }

    /** JLS 15.29: a constant true condition is while (true); the loop never ends, as the recursion. */
    @Test
    void aConstantTrueConditionIsARecursionLoop() {
        assertAccepted(cls("""
                    SJSocket s = forever.request();
                    while (FOREVER) {
                      s.send(1);
                    }
                """));
        assertRejected("SJ024", 13, msg("session 's' is not complete", "rec X[!<int>.#X]"), cls("""
                    SJSocket s = forever.request();
                    while (running) {
                      s.send(1);
                    }
                """));
    }

    /** The peer never sends a label the choice lacks (the runtime fails the session if it did). */
    @Test
    void anEnumConstantTheChoiceLacksIsANeverTakenArm() {
        assertAccepted(cls("""
                    SJSocket s = in.request();
                    switch (s.inbranch(L.class)) {
                      case A -> s.send(1);
                      case B -> { }
                      case X -> { }
                    }
                    s.close();
                    SJSocket t = in.request();
                    switch (t.inbranch(L.class)) {
                      case A: t.send(1); break;
                      case X:
                      case B: break;
                    }
                    t.close();
                """));
    }

    @Test
    void aStringLabelTheChoiceLacksIsStillATypo() {
        assertRejected("SJ014", 17, msg("label 'X' is not one of the labels A, B"), cls("""
                    SJSocket s = in.request();
                    switch (s.inbranch()) {
                      case "A" -> s.send(1);
                      case "B" -> { }
                      case "X" -> { }
                      default -> throw new IllegalStateException();
                    }
                    s.close();
                """));
    }

    @Test
    void anEnumCaseThatAlsoNamesALabelOfTheChoiceIsChecked() {
        assertRejected("SJ013", 15, msg("expected !<int>"), cls("""
                    SJSocket s = in.request();
                    switch (s.inbranch(L.class)) {
                      case A, X -> s.send("a");
                      case B -> { }
                    }
                    s.close();
                """));
    }

    private static final String RECORDS = """
            import org.sessionj.api.*;
            class R {
              @Protocol("cbegin.!<int>") interface C1 {}
              @Protocol("cbegin.!<String>") interface C2 {}
              record Cfg(@Session(protocol = C1.class) SJService svc, int n) {}
              record Reset(@Session(protocol = C1.class) SJService svc) {
                Reset {
                  svc = SJService.create(C2.class, "h", 1);
                }
              }
              record Own(@Session(protocol = C1.class) SJService svc) {
                public SJService svc() {
                  return SJService.create(C2.class, "h", 1);
                }
              }
              void run(Cfg cfg, Reset reset, Own own) {
            %s
              }
            }
            """;

    @Test
    void aRecordAccessorHasItsComponentsProtocol() {
        assertAccepted(RECORDS.formatted("""
                    SJSocket s = cfg.svc().request();
                    s.send(1);
                    s.close();
                    SJService again = cfg.svc();
                    SJSocket t = again.request();
                    t.send(cfg.n());
                    t.close();
                """));
        assertRejected("SJ013", 18, msg("expected !<int> but the program sends !<java.lang.String>"), RECORDS.formatted("""
                    SJSocket s = cfg.svc().request();
                    s.send("x");
                    s.close();
                """));
    }

    /** A constructor or accessor the record declares may give something else: not typed. */
    @ParameterizedTest
    @ValueSource(strings = {"reset", "own"})
    void aWrittenOutConstructorOrAccessorIsNotTrusted(String record) {
        assertRejected("SJ010", 17, msg("its protocol is not known at compile time"), RECORDS.formatted("""
                    SJSocket s = %s.svc().request();
                    s.send(1);
                    s.close();
                """.formatted(record)));
    }

    /**
     * adv16 A13: inside the record, its component's field has the component's protocol, as the accessor has
     * (SJ010 before, while {@code svc().request()} was accepted); not when a compact constructor reassigns it.
     */
    @Test
    void aRecordsOwnMethodsUseTheComponentFieldWithItsProtocol() {
        String records = """
                import org.sessionj.api.*;
                class R {
                  @Protocol("cbegin.!<int>") interface C1 {}
                  record Client(@Session(protocol = C1.class) SJService svc) {
                    void go() { try (SJSocket s = svc.request()) { s.send(1); } }
                    void go2() { try (SJSocket s = this.svc.request()) { s.send(2); } }
                  }
                  record Checked(@Session(protocol = C1.class) SJService svc) {
                    Checked { java.util.Objects.requireNonNull(svc); }
                    void go() { try (SJSocket s = svc.request()) { s.send(3); } }
                  }
                %s
                }
                """;
        assertAccepted(records.formatted(""));
        assertRejected("SJ013", 13, msg("expected !<int> but the program sends !<java.lang.String>"), records.formatted("""
                  record Wrong(@Session(protocol = C1.class) SJService svc) {
                    void go() { try (SJSocket s = svc.request()) { s.send("x"); } }
                  }
                """));
        assertRejected("SJ010", 14, msg("field 'svc' is final, but not assigned in one of the forms"),
                records.formatted("""
                  record Reset(@Session(protocol = C1.class) SJService svc) {
                    Reset { svc = SJService.create(C1.class, "h", 1); }
                    void go() { try (SJSocket s = svc.request()) { s.send(1); } }
                  }
                """));
    }

    /** javac's "cannot find symbol" alone: the checker adds nothing about the body it could not attribute. */
    @ParameterizedTest
    @ValueSource(strings = {
        "try (Nope s = out.request()) { }",
        "Nope s = out.request();",
        "SJSocket s = out.request(); s.outbranch(\"A\"); int x = s.receiveIntt(); s.close();",
        "SJSocket s = out.request(); helper(s);",
        "SJSocket s = out.request(); s.foo(); s.outbranch(\"A\"); s.send(1); s.close();",
    })
    void brokenCodeGetsNoSessionDiagnostics(String body) {
        Compilation compilation = CompilerHarness.compile(cls(body));
        assertThat(compilation.errors()).isNotEmpty();
        assertThat(compilation.errors()).allSatisfy(error ->
                assertThat(error.getMessage(Locale.ROOT)).doesNotContain("[SJ").contains("cannot find symbol"));
    }
}
