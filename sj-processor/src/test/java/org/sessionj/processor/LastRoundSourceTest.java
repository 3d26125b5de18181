package org.sessionj.processor;

import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * The processor keeps the names it resolved through the last processing round into the checks (issue 12,
 * compile time: the checks need not ask javac again), since that round enters no new type. Another
 * processor may still generate a source in the last round (javac warns, and compiles it): the checks
 * must then see its types as javac does. Here it declares {@code p.Msg}, which from then on wins over the
 * on-demand import {@code q.*} that the protocol's {@code Msg} resolved to in the first round.
 */
class LastRoundSourceTest {
    private static final String PROTOCOL = """
            package p;
            import org.sessionj.api.Protocol;
            import q.*;
            @Protocol("cbegin.!<Msg>")
            public interface Proto {}
            """;
    private static final String CLIENT = """
            package p;
            import org.sessionj.api.*;
            import q.*;
            final class Client {
                static void run(@Session("!<Msg>") SJSocket s) {
                    s.send(new Msg(1));
                }
            }
            """;
    private static final String IMPORTED = """
            package q;
            public record Msg(String text) implements java.io.Serializable {}
            """;

    /** Generates {@code p.Msg} in the last round (given to javac first: the session processor claims the annotations). */
    private static final class LastRoundGenerator extends AbstractProcessor {
        @Override
        public Set<String> getSupportedAnnotationTypes() {
            return Set.of("*");
        }

        @Override
        public SourceVersion getSupportedSourceVersion() {
            return SourceVersion.latestSupported();
        }

        @Override
        public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
            if (round.processingOver()) {
                try {
                    JavaFileObject file = processingEnv.getFiler().createSourceFile("p.Msg");
                    try (Writer out = file.openWriter()) {
                        out.write("package p;\npublic record Msg(int value) implements java.io.Serializable {}\n");
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return false;
        }
    }

    @Test
    void aTypeGeneratedInTheLastRoundIsWhatTheChecksResolveTo() {
        Compilation compilation = javac().withProcessors(new LastRoundGenerator(), new SessionProcessor())
                .compile(JavaFileObjects.forSourceString("p.Proto", PROTOCOL),
                        JavaFileObjects.forSourceString("p.Client", CLIENT),
                        JavaFileObjects.forSourceString("q.Msg", IMPORTED));
        assertThat(compilation.errors()).as(compilation.diagnostics().toString()).isEmpty();
        assertThat(compilation.generatedFile(StandardLocation.CLASS_OUTPUT, "p/Msg.class"))
                .as("the generated type was compiled").isPresent();
    }
}
