package org.sessionj.processor.internal.protocol;

import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import com.sun.source.util.Trees;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import org.junit.jupiter.api.Test;

/**
 * How {@link TypeNameResolver} finds member types, inherited ones included, as javac does: a name in a
 * protocol text written in a class denotes a member type of that class or of a supertype at any depth
 * (not a private one of a supertype, nor a package-private one from another package, nor one the class
 * hides), before anything of the package or the imports. And what it costs: javac's list of all members of
 * a class ({@code Elements.getAllMembers}, which checks every inherited method for overriding) is never
 * asked for (issue 12, compile time); the resolver runs inside a real javac with an {@code Elements} that
 * counts those requests.
 */
class MemberTypeNamesTest {
    private static final String SOURCE = """
            package p;
            class Base { record Msg(int v) {} private record Hidden() {} }
            class Sub extends Base {}
            class Deeper extends Sub {}
            interface Shape { record Corner(int x) {} }
            class Square implements Shape {}
            class Shadowing extends Base { record Msg(String s) {} }
            class DeeperShadowing extends Shadowing {}
            class Plain { record Own() {} }
            class Empty {}
            """;
    private static final String PUBLIC_BASE = """
            package p;
            public class PubBase {
                record Near() {}
                protected record Kin() {}
                public interface Face { record Inner() {} }
            }
            """;
    private static final String OTHER_PACKAGE = """
            package q;
            public class Far extends p.PubBase implements p.PubBase.Face {}
            """;

    /** Resolves each {@code "p.Class:name"} as seen from that class; the answers' qualified names ("" if none). */
    private static final class Resolving extends AbstractProcessor {
        private final String[] queries;
        final Map<String, String> answers = new LinkedHashMap<>();
        int allMembersAsked;

        Resolving(String... queries) {
            this.queries = queries;
        }

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
            Elements counting = (Elements) Proxy.newProxyInstance(Elements.class.getClassLoader(),
                    new Class<?>[] {Elements.class}, (proxy, method, arguments) -> {
                        if (method.getName().equals("getAllMembers")) {
                            allMembersAsked++;
                        }
                        try {
                            return method.invoke(real, arguments);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            TypeNameResolver resolver = new TypeNameResolver(counting, Trees.instance(processingEnv));
            for (String query : queries) {
                String[] parts = query.split(":");
                Optional<TypeElement> found = resolver.resolve(parts[1], real.getTypeElement(parts[0]));
                answers.put(query, found.isPresent() ? found.get().getQualifiedName().toString() : "");
            }
            return false;
        }
    }

    private static Resolving resolve(String... queries) {
        Resolving processor = new Resolving(queries);
        Compilation compilation = javac().withProcessors(processor)
                .compile(JavaFileObjects.forSourceString("p.Base", SOURCE),
                        JavaFileObjects.forSourceString("p.PubBase", PUBLIC_BASE),
                        JavaFileObjects.forSourceString("q.Far", OTHER_PACKAGE));
        assertThat(compilation.status()).as(compilation.diagnostics().toString()).isEqualTo(Compilation.Status.SUCCESS);
        return processor;
    }

    @Test
    void inheritedMemberTypesAreFoundAtAnyDepthAndThroughInterfaces() {
        Resolving run = resolve("p.Sub:Msg", "p.Deeper:Msg", "p.Square:Corner", "p.Sub:Hidden", "p.Base:Hidden",
                "q.Far:Kin", "q.Far:Inner", "q.Far:Near");
        assertThat(run.answers).containsExactly(
                Map.entry("p.Sub:Msg", "p.Base.Msg"),
                Map.entry("p.Deeper:Msg", "p.Base.Msg"),
                Map.entry("p.Square:Corner", "p.Shape.Corner"),
                Map.entry("p.Sub:Hidden", ""), // a private member type is not inherited
                Map.entry("p.Base:Hidden", "p.Base.Hidden"),
                Map.entry("q.Far:Kin", "p.PubBase.Kin"), // protected: inherited in another package
                Map.entry("q.Far:Inner", "p.PubBase.Face.Inner"), // an interface's member types are public
                Map.entry("q.Far:Near", "")); // package-private: not inherited in another package
    }

    /** javac's rule (JLS 8.5): a member type declared in a class hides an inherited one of the same name. */
    @Test
    void aDeclaredMemberTypeHidesAnInheritedOneOfTheSameName() {
        Resolving run = resolve("p.Shadowing:Msg", "p.DeeperShadowing:Msg");
        assertThat(run.answers).containsExactly(
                Map.entry("p.Shadowing:Msg", "p.Shadowing.Msg"),
                Map.entry("p.DeeperShadowing:Msg", "p.Shadowing.Msg"));
    }

    @Test
    void noClassIsListedWithAllItsInheritedMembers() {
        Resolving run = resolve("p.Plain:Own", "p.Plain:String", "p.Empty:String", "p.Empty:Own", "p.Deeper:Msg");
        assertThat(run.answers).containsExactly(
                Map.entry("p.Plain:Own", "p.Plain.Own"),
                Map.entry("p.Plain:String", "java.lang.String"),
                Map.entry("p.Empty:String", "java.lang.String"),
                Map.entry("p.Empty:Own", ""),
                Map.entry("p.Deeper:Msg", "p.Base.Msg"));
        assertThat(run.allMembersAsked).isZero();
    }
}
