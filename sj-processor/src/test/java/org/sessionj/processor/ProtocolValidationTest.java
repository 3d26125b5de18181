package org.sessionj.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

class ProtocolValidationTest {

    private static String descriptor(Compilation compilation, String binaryName) throws IOException {
        JavaFileObject file = compilation.generatedFile(StandardLocation.CLASS_OUTPUT,
                "META-INF/sessionj/protocols/" + binaryName + ".sj").orElseThrow();
        return CompilerHarness.descriptorOf(file.getCharContent(true).toString());
    }

    @Test
    void validProtocolsGetResolvedExpandedDescriptors() throws IOException {
        Compilation compilation = assertAccepted("""
                package demo;
                import org.sessionj.api.Protocol;
                import java.util.List;
                @Protocol("cbegin.!<int>.![!<double[]>.?(double[]).?(double)]*.?(double[][])")
                public interface MasterToWorker {}
                """, """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("^(MasterToWorker)")
                public interface WorkerToMaster {}
                """, """
                package demo;
                import org.sessionj.api.Protocol;
                import java.util.List;
                public class Outer {
                    public record Event(String text) {}
                    @Protocol("!<String>.?(List<Event>).!<Outer.Event[]>.@(Inner)")
                    public interface Stream {}
                    @Protocol("?(java.math.BigInteger)")
                    interface Inner {}
                }
                """);
        assertThat(descriptor(compilation, "demo.MasterToWorker"))
                .isEqualTo("cbegin.!<int>.![!<double[]>.?(double[]).?(double)]*.?(double[][])");
        assertThat(descriptor(compilation, "demo.WorkerToMaster"))
                .isEqualTo("sbegin.?(int).?[?(double[]).!<double[]>.!<double>]*.!<double[][]>");
        assertThat(descriptor(compilation, "demo.Outer$Stream")).isEqualTo(
                "!<java.lang.String>.?(java.util.List<demo.Outer$Event>).!<demo.Outer$Event[]>.?(java.math.BigInteger)");
    }

    @Test
    void syntaxErrorIsReportedAtTheAnnotationWithPositionAndCaret() {
        var error = assertRejected("SJ001", 3, msg("line 1, column 15", "expected", "!<int>.?(int).foo"),
                """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("!<int>.?(int).foo")
                interface Broken {}
                """);
        // javac indents continuation lines by two spaces; the caret stays under column 15.
        assertThat(error.getMessage(java.util.Locale.ROOT)).endsWith("  !<int>.?(int).foo\n  " + " ".repeat(14) + "^");
    }

    @Test
    void unknownMessageTypeIsReported() {
        assertRejected("SJ002", 3, msg("unknown Java type 'Particle'", "line 1, column 10",
                "  sbegin.?(Particle[])\n           ^"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("sbegin.?(Particle[])")
                interface Ring {}
                """);
    }

    @Test
    void unknownProtocolReferenceIsReported() {
        assertRejected("SJ003", 3, msg("@(Missing)", "no type named 'Missing'"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.@(Missing)")
                interface Client {}
                """);
    }

    @Test
    void referenceToANonProtocolTypeIsReported() {
        assertRejected("SJ003", 3, msg("^(String)", "has no @Protocol annotation"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.^(String)")
                interface Client {}
                """);
    }

    @Test
    void unboundRecursionVariableIsReported() {
        assertRejected("SJ005", 3, msg("#Y is not bound", "line 1, column 14", "  rec X[!<int>.#Y]\n               ^"),
                """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("rec X[!<int>.#Y]")
                interface Loop {}
                """);
    }

    @Test
    void duplicateLabelsAreReported() {
        Compilation compilation = CompilerHarness.compile("""
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("!{QUIT: , MSG: !<String>, QUIT: !<int>}")
                interface Choice {}
                """);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("duplicate label 'QUIT'").inFile(compilation.sourceFiles().get(0))
                .onLine(3);
    }

    @Test
    void cyclicReferencesAreReported() {
        Compilation compilation = CompilerHarness.compile("""
                package demo;
                import org.sessionj.api.Protocol;
                public class Cycle {
                    @Protocol("!<int>.@(B)") interface A {}
                    @Protocol("?(int).@(A)") interface B {}
                }
                """);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("[SJ004]");
        assertThat(compilation).hadErrorContaining("refers to itself: demo.Cycle$A -> demo.Cycle$B -> demo.Cycle$A");
    }

    @Test
    void protocolOnAClassIsReported() {
        assertRejected("SJ006", 3, msg("'NotAnInterface' is a class"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("!<int>")
                class NotAnInterface {}
                """);
    }

    /** A class named like a protocol's descriptor would replace it in the output: SJ006 at the protocol (adv12 A11). */
    @Test
    void aClassNamedLikeAProtocolsDescriptorIsReported() {
        assertRejected("SJ006", 3, msg("the protocol descriptor class of 'P' would be demo.P$$SJProtocol, but the "
                + "program declares a class of that name"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<int>") interface P {}
                class P$$SJProtocol {}
                """);
    }

    @Test
    void aMemberClassNamedLikeAMemberProtocolsDescriptorIsReported() {
        assertRejected("SJ006", 4, msg("would be demo.Protocols$P$$SJProtocol", "(demo.Protocols.P$$SJProtocol)"), """
                package demo;
                import org.sessionj.api.Protocol;
                interface Protocols {
                    @Protocol("cbegin.!<int>") interface P {}
                    class P$$SJProtocol {}
                }
                """);
    }

    @Test
    void aClassNamedLikeAnotherProtocolsDescriptorIsFine() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.Protocol;
                interface Protocols {
                    @Protocol("cbegin.!<int>") interface P {}
                    class Q$$SJProtocol {}
                }
                """);
    }
}
