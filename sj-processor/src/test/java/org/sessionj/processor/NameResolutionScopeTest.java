package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * The processor resolves each simple name once per declaring type (its cost on large programs): these
 * programs would resolve wrongly if that memo were shared between files or types that see the same
 * simple name differently — other imports, other member types, a type named after a message type.
 */
class NameResolutionScopeTest {
    private static final String MESSAGES_A = """
            package a;
            public record Msg(int value) implements java.io.Serializable {}
            """;
    private static final String MESSAGES_B = """
            package b;
            public record Msg(String text) implements java.io.Serializable {}
            """;

    private static String descriptor(Compilation compilation, String binaryName) throws IOException {
        return CompilerHarness.descriptorOf(compilation.generatedFile(StandardLocation.CLASS_OUTPUT,
                "META-INF/sessionj/protocols/" + binaryName + ".sj").orElseThrow().getCharContent(true).toString());
    }

    @Test
    void sameSimpleNameWithOtherImportsResolvesPerFile() throws IOException {
        Compilation compilation = assertAccepted("""
                package demo;
                import a.Msg;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<Msg>.?(Msg)")
                public interface FromA {}
                """, """
                package demo;
                import b.Msg;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<Msg>.?(Msg)")
                public interface FromB {}
                """, """
                package demo;
                import b.*;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<Msg>")
                public interface OnDemandB {}
                """, MESSAGES_A, MESSAGES_B);
        assertThat(descriptor(compilation, "demo.FromA")).isEqualTo("cbegin.!<a.Msg>.?(a.Msg)");
        assertThat(descriptor(compilation, "demo.FromB")).isEqualTo("cbegin.!<b.Msg>.?(b.Msg)");
        assertThat(descriptor(compilation, "demo.OnDemandB")).isEqualTo("cbegin.!<b.Msg>");
    }

    @Test
    void memberTypesOfTwoClassesInOneFileStayApart() throws IOException {
        Compilation compilation = assertAccepted("""
                package demo;
                import org.sessionj.api.Protocol;
                public class Left {
                    public record Msg(int value) implements java.io.Serializable {}
                    @Protocol("!<Msg>")
                    public interface P {}
                }
                class Right {
                    record Msg(String text) implements java.io.Serializable {}
                    @Protocol("!<Msg>")
                    interface P {}
                }
                """, """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("!<Msg>.!<Left>")
                public interface Top {}
                """, """
                package demo;
                public record Msg(long value) implements java.io.Serializable {}
                """);
        assertThat(descriptor(compilation, "demo.Left$P")).isEqualTo("!<demo.Left$Msg>");
        assertThat(descriptor(compilation, "demo.Right$P")).isEqualTo("!<demo.Right$Msg>");
        assertThat(descriptor(compilation, "demo.Top")).isEqualTo("!<demo.Msg>.!<demo.Left>");
    }

    /** {@code @Session} texts are resolved in their method's class: the same text, two types. */
    @Test
    void sessionParameterTextsResolveInTheirOwnFile() {
        assertAccepted("""
                package demo;
                import a.Msg;
                import org.sessionj.api.*;
                class UsesA {
                    static void run(@Session("!<Msg>") SJSocket s) {
                        s.send(new Msg(1));
                    }
                }
                """, """
                package demo;
                import b.Msg;
                import org.sessionj.api.*;
                class UsesB {
                    static void run(@Session("!<Msg>") SJSocket s) {
                        s.send(new Msg("one"));
                    }
                }
                """, MESSAGES_A, MESSAGES_B);
        assertRejected("SJ013", 6, msg("expected !<b.Msg> but the program sends !<a.Msg>"), """
                package demo;
                import b.Msg;
                import org.sessionj.api.*;
                class UsesB {
                    static void run(@Session("!<Msg>") SJSocket s) {
                        s.send(new a.Msg(1));
                    }
                }
                """, """
                package demo;
                import a.Msg;
                import org.sessionj.api.*;
                class UsesA {
                    static void run(@Session("!<Msg>") SJSocket s) {
                        s.send(new Msg(1));
                    }
                }
                """, MESSAGES_A, MESSAGES_B);
    }

    /** A bad {@code @Session} text is reported once, at its declaration, also when a caller resolved it first. */
    @Test
    void badSessionTextIsReportedOnceAtItsDeclaration() {
        assertRejected("SJ007", 0, msg("invalid @Session on parameter 's'", "unknown Java type 'Nowhere'"), """
                package demo;
                import org.sessionj.api.*;
                class Caller {
                    @Protocol("cbegin.!<int>")
                    interface P {}
                    void call() {
                        SJService c = SJService.create(P.class, "h", 1);
                        try (SJSocket s = c.request()) {
                            Callee.run(s);
                        }
                    }
                }
                """, """
                package demo;
                import org.sessionj.api.*;
                class Callee {
                    static void run(@Session("!<Nowhere>") SJSocket s) {
                        s.close();
                    }
                }
                """);
    }
}
