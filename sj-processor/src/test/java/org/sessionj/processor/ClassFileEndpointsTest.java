package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.processor.StepwiseBuild.Result;

/**
 * A service's protocol crosses a compilation boundary with the class that holds it (adv13 A12): a record
 * component declared {@code @Session(protocol = P.class) SJService svc} and a {@code final} service field
 * initialised by {@code SJService.create(P.class, …)} give a P endpoint to code compiled later against the
 * class file (another Maven module, a library jar), as they do in one compilation. The provider is
 * compiled first, the user alone against its output; the unsafe forms (a compact constructor that
 * reassigns the component, an accessor written out) stay unknown (SJ010), as in one compilation.
 */
class ClassFileEndpointsTest {
    @TempDir
    Path project;

    private static final String LIB = """
            package demo;
            import org.sessionj.api.*;
            public final class Lib {
                @Protocol("cbegin.!<int>") public interface C1 {}
                public record Plain(@Session(protocol = C1.class) SJService svc) {}
                public record Reassigned(@Session(protocol = C1.class) SJService svc) {
                    public Reassigned { svc = SJService.create(C1.class, "localhost", 7001); }
                }
                public record Written(@Session(protocol = C1.class) SJService svc) {
                    @Override public SJService svc() { return SJService.create(C1.class, "localhost", 7002); }
                }
                public static final SJService SVC = SJService.create(C1.class, "localhost", 7000);
            }
            """;

    private Result build(String use) throws IOException {
        return build(use, true);
    }

    /** Lib compiled (with the processor or, {@code processed} false, with {@code -proc:none}), then User alone. */
    private Result build(String use, boolean processed) throws IOException {
        StepwiseBuild build = new StepwiseBuild(project);
        build.write("Lib", LIB);
        Result lib = processed ? build.compile("Lib") : build.compileWithoutProcessor("Lib");
        assertThat(lib.status()).as(lib.output()).isZero();
        build.write("User", """
                package demo;
                import org.sessionj.api.*;
                final class User {
                    static void use(Lib.Plain plain, Lib.Reassigned reassigned, Lib.Written written) {
                        %s
                    }
                }
                """.formatted(use));
        return build.compile("User");
    }

    @Test
    void aRecordComponentsProtocolIsReadFromTheClassFile() throws IOException {
        Result user = build("try (SJSocket s = plain.svc().request()) { s.send(1); }");
        assertThat(user.status()).as(user.output()).isZero();
    }

    @Test
    void aRecordComponentFromTheClassFileIsCheckedAgainstItsProtocol() throws IOException {
        Result user = build("try (SJSocket s = plain.svc().request()) { s.send(\"one\"); }");
        assertThat(user.status()).isNotZero();
        assertThat(user.output()).contains("SJ013").doesNotContain("SJ010");
    }

    @Test
    void aFinalServiceFieldsProtocolIsReadFromTheClassFile() throws IOException {
        Result user = build("try (SJSocket s = Lib.SVC.request()) { s.send(1); }");
        assertThat(user.status()).as(user.output()).isZero();
        Result wrong = build("try (SJSocket s = Lib.SVC.request()) { s.send(\"one\"); }");
        assertThat(wrong.output()).contains("SJ013").doesNotContain("SJ010");
    }

    @Test
    void aReassigningCompactConstructorOrAWrittenAccessorStaysUnknown() throws IOException {
        assertThat(build("try (SJSocket s = reassigned.svc().request()) { s.send(1); }").output()).contains("SJ010")
                .as("the record was compiled with the processor: its (empty) record says so")
                .doesNotContain("compiled without sj-processor");
        assertThat(build("try (SJSocket s = written.svc().request()) { s.send(1); }").output()).contains("SJ010")
                .doesNotContain("compiled without sj-processor");
    }

    /**
     * jpms report14: SJ010 for a field or record accessor of a class compiled without the processor says so
     * and how to fix it, not "declare the parameter as @Session(protocol = P.class)".
     */
    @Test
    void aFieldOrRecordOfAClassCompiledWithoutTheProcessorIsSJ010NamingTheClassAndTheFix() throws IOException {
        String fix = "which was compiled without sj-processor (no "
                + "META-INF/sessionj/fields/demo.Lib.txt in the class path), so the checker cannot read which protocol it holds: "
                + "compile demo.Lib with sj-processor";
        assertThat(build("try (SJSocket s = Lib.SVC.request()) { s.send(1); }", false).output())
                .contains("[SJ010] session 's': its protocol is not known at compile time; field 'SVC' is declared in "
                        + "demo.Lib, " + fix)
                .doesNotContain("create the service with");
        assertThat(new StepwiseBuild(project).classes().resolve("META-INF/sessionj/fields")).doesNotExist();
        String record = build("try (SJSocket s = plain.svc().request()) { s.send(1); }", false).output();
        assertThat(record).contains("record component 'Plain.svc' is declared in demo.Lib$Plain, which was compiled "
                + "without sj-processor (no META-INF/sessionj/fields/demo.Lib$Plain.txt in the class path)");
    }
}
