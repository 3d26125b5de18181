package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code @Session} method of another module (known from its class file only) that ends the socket
 * it is lent ends the caller's session exactly as when its source is compiled with the call: the
 * library's compilation records its endings under {@code META-INF/sessionj/ends/} and the caller's
 * compilation reads them from the class path. Each test compiles the library with javac and the
 * processor into a directory, as a Maven module is built, then the application against it.
 */
class ClassPathEndingsTest {
    @TempDir
    Path project;

    private record Result(int status, String output) {
    }

    /** Compiles {@code sources} ("package x; ... class Name") of {@code module} into {@code module/classes}. */
    private Result compile(String module, boolean processor, List<Path> classPath, String... sources)
            throws IOException {
        Path classes = Files.createDirectories(project.resolve(module + "/classes"));
        StringBuilder path = new StringBuilder(System.getProperty("java.class.path"));
        for (Path entry : classPath) {
            path.insert(0, entry + File.pathSeparator);
        }
        List<String> arguments = new ArrayList<>(processor
                ? List.of("-proc:full", "-processor", SessionProcessor.class.getName())
                : List.of("-proc:none"));
        arguments.addAll(List.of("-d", classes.toString(), "-cp", path.toString()));
        for (String source : sources) {
            java.util.regex.Matcher pkg = java.util.regex.Pattern.compile("package (\\w+);").matcher(source);
            java.util.regex.Matcher type = java.util.regex.Pattern
                    .compile("(?m)^public (?:final |abstract )?(?:class|interface|record) (\\w+)").matcher(source);
            assertThat(pkg.find() && type.find()).isTrue();
            Path file = project.resolve(module + "/src/" + pkg.group(1) + "/" + type.group(1) + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source);
            arguments.add(file.toString());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            int status = compiler.run(null, err, err, arguments.toArray(String[]::new));
            return new Result(status, output.toString(StandardCharsets.UTF_8));
        }
    }

    private Result library(String... sources) throws IOException {
        Result result = compile("api", true, List.of(), sources);
        assertThat(result.status()).as(result.output()).isZero();
        return result;
    }

    private Result app(String... sources) throws IOException {
        return compile("app", true, List.of(project.resolve("api/classes")), sources);
    }

    private static void assertRejected(Result result, String... fragments) {
        assertThat(result.status()).as(result.output()).isNotZero();
        assertThat(result.output()).contains(fragments);
    }

    private static void assertAccepted(Result result) {
        assertThat(result.status()).as(result.output()).isZero();
        assertThat(result.output()).doesNotContain("warning");
    }

    private static final String ITEM = """
            package demo;
            public record Item(String key, int value) {}
            """;

    /** adv10 F14's library: {@code put} ends its socket in a try-with-resources statement. */
    private static final String HELPER = """
            package demo;
            import org.sessionj.api.*;
            public final class Helper {
                public static boolean put(@Session("!<demo.Item>.?(boolean)") SJSocket s, Item it) {
                    try (s) { s.send(it); return s.receiveBoolean(); }
                }
                public static boolean put(@Session("!<demo.Item>.?(boolean)") SJSocket s, String key) {
                    s.send(new Item(key, 0)); return s.receiveBoolean();
                }
            }
            """;

    private static final String CALLER = """
            package app;
            import org.sessionj.api.*;
            import demo.*;
            public final class App {
                static void run(@Session("cbegin.!<demo.Item>.?(boolean)") SJService svc) {
                    SJSocket s = svc.request();
                    Helper.put(s, %s);
                    %s
                }
            }
            """;

    @Test
    void aLibraryMethodThatClosesItsSocketEndsTheCallersSession() throws IOException {
        library(ITEM, HELPER);
        assertThat(project.resolve("api/classes/META-INF/sessionj/ends/demo.Helper.txt")).content()
                .contains("0\t0\tput(org.sessionj.api.SJSocket,demo.Item)\tcloses it (try-with-resources)")
                .doesNotContain("0\t0\tput(org.sessionj.api.SJSocket,java.lang.String)");
        assertRejected(app(CALLER.formatted("new Item(\"k\", 1)", "s.close();")),
                "[SJ025] session 's' is used after it was lent to 'put' on line 7, which closes it (try-with-resources)");
        assertAccepted(app(CALLER.formatted("new Item(\"k\", 1)", "")));
    }

    /**
     * The library as a jar ({@code mvn package}, a repository's jar): its {@code META-INF/sessionj/ends/} is read
     * from the jar the class came from. javac's file manager does not show a jar's {@code META-INF} to the
     * processor: the app compiled with a warning that the library "was compiled without sj-processor", and the
     * SJ025 was missed.
     */
    @Test
    void aLibraryJarsEndingsAreRead() throws IOException {
        library(ITEM, HELPER);
        Path jar = ClassPathExitsTest.jar(project.resolve("api/classes"), project.resolve("api.jar"));
        Result result = compile("app", true, List.of(jar), CALLER.formatted("new Item(\"k\", 1)", "s.close();"));
        assertRejected(result, "[SJ025] session 's' is used after it was lent to 'put' on line 7, which closes it");
        assertThat(result.output()).doesNotContain("compiled without sj-processor");
    }

    @Test
    void theOverloadThatDoesNotEndItLeavesTheSessionToTheCaller() throws IOException {
        library(ITEM, HELPER);
        assertAccepted(app(CALLER.formatted("\"k\"", "s.close();")));
    }

    @Test
    void anEndingThroughAnotherLibraryMethodIsNamedAsInOneModule() throws IOException {
        library("""
                package demo;
                import org.sessionj.api.*;
                public final class Chain {
                    public static void outer(@Session("!<int>") SJSocket s) { inner(s); }
                    static void inner(@Session("!<int>") SJSocket t) { t.send(1); t.close(); }
                }
                """);
        assertRejected(app("""
                package app;
                import org.sessionj.api.*;
                public final class App {
                    static void run(@Session("cbegin.!<int>") SJService svc) {
                        SJSocket s = svc.request();
                        demo.Chain.outer(s);
                        s.close();
                    }
                }
                """), "lent to 'outer' on line 6, which lends it to 'inner', which closes it");
    }

    @Test
    void aLibraryConstructorAndAMemberClassMethodThatEndTheSocketAreRead() throws IOException {
        library("""
                package demo;
                import org.sessionj.api.*;
                public final class Conn {
                    public Conn(@Session("!<int>") SJSocket s) { s.send(1); s.close(); }
                    public static final class Inner {
                        public static <T extends CharSequence> void end(@Session("!<int>") SJSocket s, T tag, int[] xs) {
                            s.send(xs.length); s.close();
                        }
                    }
                }
                """);
        assertThat(project.resolve("api/classes/META-INF/sessionj/ends/demo.Conn$Inner.txt")).content()
                .contains("end(org.sessionj.api.SJSocket,java.lang.CharSequence,int[])");
        String app = """
                package app;
                import org.sessionj.api.*;
                public final class App {
                    static void run(@Session("cbegin.!<int>") SJService svc) {
                        SJSocket s = svc.request();
                        %s;
                        s.close();
                    }
                }
                """;
        assertRejected(app(app.formatted("new demo.Conn(s)")), "lent to 'Conn' on line 6, which closes it");
        assertRejected(app(app.formatted("demo.Conn.Inner.end(s, \"t\", new int[0])")),
                "lent to 'end' on line 6, which closes it");
    }

    @Test
    void aLibraryMethodThatSpawnsItsSocketHandsItOver() throws IOException {
        library("""
                package demo;
                import org.sessionj.api.*;
                public final class Spawner {
                    public static void serve(@Session("!<int>") SJSocket s) {
                        SJ.spawn(s, (@Session("!<int>") SJSocket t) -> t.send(1));
                    }
                }
                """);
        assertThat(project.resolve("api/classes/META-INF/sessionj/ends/demo.Spawner.txt")).content()
                .contains("0\t1\tserve(org.sessionj.api.SJSocket)\t");
        assertRejected(app("""
                package app;
                import org.sessionj.api.*;
                public final class App {
                    static void run(@Session("cbegin.!<int>") SJService svc) {
                        try (SJSocket s = svc.request()) {
                            demo.Spawner.serve(s);
                        }
                    }
                }
                """), "[SJ055]");
    }

    @Test
    void anOverrideInTheApplicationMustEndWhatTheLibraryMethodEnds() throws IOException {
        library("""
                package demo;
                import org.sessionj.api.*;
                public class Base {
                    public void finish(@Session("!<int>") SJSocket s) { s.send(1); s.close(); }
                }
                """);
        assertRejected(app("""
                package app;
                import org.sessionj.api.*;
                public final class Sub extends demo.Base {
                    @Override public void finish(@Session("!<int>") SJSocket s) { s.send(2); }
                }
                """), "[SJ037]");
    }

    @Test
    void aLibraryCompiledWithoutTheProcessorRecordsNothingAndIsTakenNotToEndItWithAWarning() throws IOException {
        Result result = compile("api", false, List.of(), ITEM, HELPER);
        assertThat(result.status()).as(result.output()).isZero();
        assertThat(project.resolve("api/classes/META-INF/sessionj/ends")).doesNotExist();
        Result app = app(CALLER.formatted("new Item(\"k\", 1)", "s.close();"));
        assertThat(app.status()).as(app.output()).isZero();
        assertThat(app.output()).contains("1 warning").containsOnlyOnce("compiled without").contains("sj-processor: demo.Helper was compiled without "
                + "sj-processor (no META-INF/sessionj/ends/demo.Helper.txt in the class path)");
    }

    @Test
    void aRecompiledLibraryThatNoLongerEndsTheSocketLeavesNoStaleRecord() throws IOException {
        library(ITEM, HELPER);
        Path record = project.resolve("api/classes/META-INF/sessionj/ends/demo.Helper.txt");
        assertThat(record).content().contains("put(");
        library(ITEM, HELPER.replace("try (s) { s.send(it); return s.receiveBoolean(); }",
                "s.send(it); return s.receiveBoolean();"));
        assertThat(record).as("the marker and the @Session types: compiled with the processor, ends nothing")
                .hasContent("""
                        # sj-processor: socket parameters these methods end
                        type\t0\tput(org.sessionj.api.SJSocket,demo.Item)\t!<demo.Item>.?(boolean)
                        type\t0\tput(org.sessionj.api.SJSocket,java.lang.String)\t!<demo.Item>.?(boolean)""");
        assertAccepted(app(CALLER.formatted("new Item(\"k\", 1)", "s.close();")));
    }

    @Test
    void aTamperedRecordIsReadAsWrittenAndAMalformedLineIsIgnored() throws IOException {
        library(ITEM, HELPER);
        Path record = project.resolve("api/classes/META-INF/sessionj/ends/demo.Helper.txt");
        Files.writeString(record, "garbage without tabs\n1\t0\tput(org.sessionj.api.SJSocket,java.lang.String)\n");
        assertAccepted(app(CALLER.formatted("new Item(\"k\", 1)", "s.close();")));
    }

    /** adv22 C6: a library's {@code @Session} texts name imported classes and a member type. */
    private static final String IMPORTS = """
            package lib;
            import java.time.LocalDate;
            import java.util.List;
            import org.sessionj.api.*;
            public final class Kv {
                public record Entry(String key, String value) {}
                @Protocol("cbegin.!<lib.Kv.Entry>.!<List<String>>.!<LocalDate>") public interface Client {}
                public static void put(@Session("!<Entry>") SJSocket s, Entry e) { s.send(e); }
                public static void names(@Session("!<List<String>>") SJSocket s, List<String> names) { s.send(names); }
                public static void day(@Session("!<LocalDate>") SJSocket s) { s.send(LocalDate.EPOCH); }
            }
            """;

    private static final String STEP = """
            package lib;
            import java.util.List;
            import org.sessionj.api.*;
            public interface Step {
                void run(@Session("!<List<String>>") SJSocket s);
            }
            """;

    private static final String KV_USER = """
            package app;
            import java.util.List;
            import org.sessionj.api.*;
            import lib.*;
            public final class UseKv {
                static void run() {
                    try (SJSocket s = SJService.create(Kv.Client.class, "localhost", 1).request()) {
                        Kv.put(s, new Kv.Entry("k", "v"));
                        %s
                    }
                }
            }
            """;

    /**
     * adv22 C6: a class file keeps no imports, so {@code @Session("!<List<String>>")} with {@code import
     * java.util.List} did not resolve from it: every call that lent a session to such a method was SJ010
     * ("compile Kv to see why"), and an override of such an interface method SJ036. The library's compilation
     * now records each {@code @Session} text as it resolved it, beside its endings.
     */
    @Test
    void aLibrarysSessionTypesThatNameImportedClassesAreReadFromItsRecord() throws IOException {
        library(IMPORTS, STEP);
        assertThat(project.resolve("api/classes/META-INF/sessionj/ends/lib.Kv.txt")).content()
                .contains("type\t0\tnames(org.sessionj.api.SJSocket,java.util.List)\t!<java.util.List<java.lang.String>>")
                .contains("type\t0\tput(org.sessionj.api.SJSocket,lib.Kv$Entry)\t!<lib.Kv$Entry>");
        assertAccepted(app(KV_USER.formatted("Kv.names(s, List.of(\"a\")); Kv.day(s);")));
        // the recorded type is the one checked: lent out of order, the session is refused
        assertRejected(app(KV_USER.formatted("Kv.day(s); Kv.names(s, List.of(\"a\"));")), "[SJ0");
        assertAccepted(app("""
                package app;
                import java.util.List;
                import org.sessionj.api.*;
                public final class Impl implements lib.Step {
                    @Override public void run(@Session("!<List<String>>") SJSocket s) { s.send(List.of("a")); }
                }
                """));
    }

    /** Without the record (a library compiled by an older sj-processor), the message says why and what to do. */
    @Test
    void withoutTheRecordTheMessageNamesTheMissingImports() throws IOException {
        library(IMPORTS, STEP);
        Path record = project.resolve("api/classes/META-INF/sessionj/ends/lib.Kv.txt");
        StringBuilder kept = new StringBuilder();
        for (String line : Files.readAllLines(record)) {
            if (!line.startsWith("type\t")) {
                kept.append(line).append('\n');
            }
        }
        Files.writeString(record, kept);
        assertRejected(app(KV_USER.formatted("Kv.names(s, List.of(\"a\")); Kv.day(s);")),
                "[SJ010]", "known from its class file, its @Session text is read without Kv's imports");
    }

    /**
     * adv22 C6's soundness side (adv's test): resolved again from the class file, a simple name that a single-type
     * import took to another package resolved to the same-package class of that name, and the call was checked
     * against the wrong type.
     */
    @Test
    void anImportThatShadowsAClassOfThePackageKeepsItsClass() throws IOException {
        library("""
                package demo;
                public record Entry(String key) {}
                """, """
                package other;
                public record Entry(int id) {}
                """, """
                package demo;
                import org.sessionj.api.*;
                import other.Entry;
                public final class Store {
                    private Store() {}
                    public static void put(@Session("!<Entry>") SJSocket s, Entry e) {
                        s.send(e);
                    }
                }
                """);
        String caller = """
                package app;
                import org.sessionj.api.*;
                public final class App {
                    static void run(@Session("cbegin.!<%s.Entry>") SJService svc) {
                        try (SJSocket s = svc.request()) {
                            demo.Store.put(s, new other.Entry(1));
                        }
                    }
                }
                """;
        assertRejected(app(caller.formatted("demo")), "[SJ035]", "'put'");
        assertAccepted(app(caller.formatted("other")));
    }
}
