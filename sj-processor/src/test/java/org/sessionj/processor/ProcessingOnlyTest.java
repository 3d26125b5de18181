package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.compileWith;

import com.google.testing.compile.Compilation;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import org.junit.jupiter.api.Test;
import org.sessionj.processor.check.SessionChecker;

/**
 * adv15 A19: the checks run when javac analyses the classes, which a {@code -proc:only} run (the
 * maven-processor-plugin way, or a compiler-plugin execution with {@code <proc>only</proc>}) never does,
 * while the descriptors are written during processing: the runtime then cannot tell that nothing was
 * checked. Such a run warns; an ordinary one, right or wrong, and one that stops on an error, do not.
 */
class ProcessingOnlyTest {
    private static final String WRONG = """
            import org.sessionj.api.*;
            class P {
              @Protocol("cbegin.!<int>.?(String)") interface C {}
              static void run(@Session(protocol = C.class) SJService svc) {
                try (SJSocket s = svc.request()) { s.send("wrong"); }
              }
            }
            """;

    private static List<String> warnings(Compilation compilation) {
        return compilation.diagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.WARNING
                || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING).map(d -> d.getMessage(Locale.ROOT)).toList();
    }

    @Test
    void aProcessingOnlyRunWarnsThatNothingWasChecked() {
        Compilation compilation = compileWith(List.of("-proc:only"), WRONG);
        assertThat(compilation.status()).isEqualTo(Compilation.Status.SUCCESS);
        assertThat(warnings(compilation)).contains(SessionChecker.PROCESSING_ONLY);
    }

    @Test
    void anOrdinaryRunOrOneThatStopsOnAnErrorDoesNotWarn() {
        Compilation wrong = compileWith(List.of(), WRONG);
        assertThat(wrong.status()).isEqualTo(Compilation.Status.FAILURE);
        assertThat(warnings(wrong)).doesNotContain(SessionChecker.PROCESSING_ONLY);
        Compilation right = compileWith(List.of(), WRONG.replace("s.send(\"wrong\");", "s.send(1); String r = s.receive();"));
        assertThat(right.status()).isEqualTo(Compilation.Status.SUCCESS);
        assertThat(warnings(right)).doesNotContain(SessionChecker.PROCESSING_ONLY);
        Compilation protocolError = compileWith(List.of("-proc:only"), WRONG.replace("cbegin.!<int>", "cbegin.!<Number>"));
        assertThat(protocolError.status()).isEqualTo(Compilation.Status.FAILURE);
        assertThat(warnings(protocolError)).doesNotContain(SessionChecker.PROCESSING_ONLY);
    }
}
