package org.sessionj.processor.check;

import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import org.junit.jupiter.api.Test;

/**
 * The javac queries {@link SessionApi} answers once per compilation rather than at every use (issue 12,
 * compile time): the {@code close()} a try-with-resources resource of a class is closed with (found with
 * {@code Elements.getAllMembers}, which builds a scope of every inherited member), and the types of the
 * exception classes the checks name. Run inside a real javac with an {@code Elements} that counts the
 * requests; the answers are javac's (the most specific {@code close()}).
 */
class SessionApiLookupsTest {
    private static final String SOURCE = """
            package p;
            class Res implements AutoCloseable { public void close() throws Exception {} }
            class Quiet extends Res { @Override public void close() {} }
            class Inherits extends Quiet {}
            class NoClose {}
            class StaticClose { static void close() {} }
            """;

    /** Asks {@link SessionApi} each lookup twice, counting what it asks javac. */
    private static final class Asking extends AbstractProcessor {
        final List<String> closes = new ArrayList<>();
        int allMembersAsked;
        int typeElementsAsked;
        boolean sameType;

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
                return false;
            }
            Elements real = processingEnv.getElementUtils();
            SessionApi api = new SessionApi((Elements) Proxy.newProxyInstance(Elements.class.getClassLoader(),
                    new Class<?>[] {Elements.class}, (proxy, method, arguments) -> {
                        if (method.getName().equals("getAllMembers")) {
                            allMembersAsked++;
                        } else if (method.getName().equals("getTypeElement")) {
                            typeElementsAsked++;
                        }
                        try {
                            return method.invoke(real, arguments);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }), processingEnv.getTypeUtils());
            typeElementsAsked = 0; // the constructor's look-ups of the API types
            for (String name : List.of("p.Res", "p.Quiet", "p.Inherits", "p.NoClose", "p.StaticClose")) {
                for (int time = 0; time < 2; time++) {
                    ExecutableElement close = api.closeMethod(real.getTypeElement(name));
                    closes.add(name + " " + (close == null ? "none" : close.getEnclosingElement().getSimpleName()));
                }
            }
            TypeMirror first = api.namedType("java.lang.RuntimeException");
            sameType = first == api.namedType("java.lang.RuntimeException");
            api.namedType("java.lang.Error");
            api.namedType("java.lang.Error");
            return false;
        }
    }

    @Test
    void eachClassCloseAndEachNamedTypeIsAskedOfJavacOnce() {
        Asking processor = new Asking();
        Compilation compilation = javac().withProcessors(processor)
                .compile(JavaFileObjects.forSourceString("p.Res", SOURCE));
        assertThat(compilation.status()).as(compilation.diagnostics().toString()).isEqualTo(Compilation.Status.SUCCESS);
        assertThat(processor.closes).containsExactly("p.Res Res", "p.Res Res", "p.Quiet Quiet", "p.Quiet Quiet",
                "p.Inherits Quiet", "p.Inherits Quiet", "p.NoClose none", "p.NoClose none", "p.StaticClose none",
                "p.StaticClose none");
        assertThat(processor.allMembersAsked).as("getAllMembers, once per class").isEqualTo(5);
        assertThat(processor.typeElementsAsked).as("getTypeElement, once per name").isEqualTo(2);
        assertThat(processor.sameType).isTrue();
    }
}
