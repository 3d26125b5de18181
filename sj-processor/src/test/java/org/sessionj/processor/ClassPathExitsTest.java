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
 * adv20 A9: an unchecked exception that may leave a library method with a plain local session live is
 * followed to a caller compiled later against the library's class files (another Maven module, a jar), as
 * it is within one compilation: the library's compilation records its methods' exits under
 * {@code META-INF/sessionj/exits/} and the caller's reads them from the class path. Each test compiles the
 * library with javac and the processor into a directory, then the application against it (two javac runs).
 */
class ClassPathExitsTest {
    @TempDir
    Path project;

    private record Result(int status, String output) {
    }

    /** Compiles {@code sources} ("package x; ... public class Name") of {@code module} into {@code module/classes}. */
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

    private void library(String... sources) throws IOException {
        Result result = compile("lib", true, List.of(), sources);
        assertThat(result.status()).as(result.output()).isZero();
        assertThat(result.output()).doesNotContain("warning");
    }

    private Result app(String... sources) throws IOException {
        return compile("app", true, List.of(project.resolve("lib/classes")), sources);
    }

    private static void assertRejected(Result result, String... fragments) {
        assertThat(result.status()).as(result.output()).isNotZero();
        assertThat(result.output()).contains(fragments);
    }

    private static void assertAccepted(Result result) {
        assertThat(result.status()).as(result.output()).isZero();
        assertThat(result.output()).doesNotContain("warning");
    }

    /** adv20 A9's library: adv18 A3's {@code book}, a plain local session with a JDK call between two sends. */
    private static final String BOOKER = """
            package lib;
            import org.sessionj.api.*;
            import java.time.LocalDate;
            public final class Booker {
                @Protocol("cbegin.!<int>.!<java.time.LocalDate>") public interface Booking {}
                public static void book(String input) {
                    SJSocket s = SJService.create(Booking.class, "localhost", 4000).request();
                    s.send(1);
                    s.send(LocalDate.parse(input));
                    s.close();
                }
                public static void bookSafely(String input) {
                    try (SJSocket s = SJService.create(Booking.class, "localhost", 4000).request()) {
                        s.send(1);
                        s.send(LocalDate.parse(input));
                    }
                }
            }
            """;

    private static final String MAIN = """
            package app;
            import java.time.format.DateTimeParseException;
            public final class Main {
                public static void main(String[] args) {
                    for (String input : args) {
                        try {
                            lib.Booker.%s(input);
                        } catch (%s e) {
                            System.out.println("bad date, next");
                        }
                    }
                }
            }
            """;

    @Test
    void aLibraryMethodsJdkFailureMeetsTheAppsCatchThatNamesIt() throws IOException {
        library(BOOKER);
        assertThat(project.resolve("lib/classes/META-INF/sessionj/exits/lib.Booker.txt")).content()
                .contains("lib.Booker\tbook(java.lang.String)\t").doesNotContain("bookSafely");
        assertRejected(app(MAIN.formatted("book", "DateTimeParseException")),
                "Main.java:7: error: [SJ024] session 's' is not complete if, in 'book', the call of 'parse' on line 9"
                        + " throws an unchecked exception, which leaves 'book' (as the compilation of lib.Booker recorded"
                        + " in META-INF/sessionj/exits/lib.Booker.txt)",
                "comes out of the call on line 7, where the catch on line 8 takes it and goes on");
    }

    @Test
    void theSameCatchAroundTheMethodThatDeclaresItsSessionInTryWithResourcesCompiles() throws IOException {
        library(BOOKER);
        assertAccepted(app(MAIN.formatted("bookSafely", "DateTimeParseException")));
    }

    /** A catch of the program's own exception names none of the JDK's failures, in one compilation as across two. */
    @Test
    void aCatchThatNamesNoJdkFailureDoesNotTakeIt() throws IOException {
        library(BOOKER);
        assertAccepted(app(MAIN.formatted("book", "Skip").replace("public final class Main {",
                "public final class Main {\n    static final class Skip extends RuntimeException {}")));
    }

    /** The program's own exception, thrown while the session is live: any catch that takes it counts. */
    @Test
    void aLibraryMethodsOwnExceptionMeetsABroadCatchInTheApp() throws IOException {
        library("""
                package lib;
                import org.sessionj.api.*;
                public final class Sender {
                    @Protocol("cbegin.!<int>.!<int>") public interface Pair {}
                    public static class Refused extends RuntimeException {
                        public Refused(String why) { super(why); }
                    }
                    public void pair(int value) {
                        SJSocket s = SJService.create(Pair.class, "localhost", 4000).request();
                        s.send(1);
                        s.send(checked(value));
                        s.close();
                    }
                    static int checked(int value) {
                        if (value < 0) {
                            throw new Refused("negative");
                        }
                        return value;
                    }
                }
                """);
        String caller = """
                package app;
                public final class Main {
                    static void run(lib.Sender sender) {
                        try {
                            sender.pair(-1);
                        } catch (%s e) {
                            System.out.println("refused, next");
                        }
                    }
                }
                """;
        assertRejected(app(caller.formatted("RuntimeException")),
                "Main.java:5: error: [SJ024] session 's' is not complete if, in 'pair', the call of 'checked' on line 11");
        assertRejected(app(caller.formatted("lib.Sender.Refused")), "Main.java:5: error: [SJ024]");
        assertAccepted(app(caller.formatted("RuntimeException").replace("System.out.println(\"refused, next\");",
                "throw e;")));
    }

    /** adv20 A10 across modules: a library method that only calls {@code book} passes its exit on. */
    @Test
    void anExitThroughALibraryPassThroughMethodIsFollowed() throws IOException {
        library(BOOKER, """
                package lib;
                public final class Front {
                    public static void go(String input) {
                        Booker.book(input);
                    }
                }
                """);
        assertThat(project.resolve("lib/classes/META-INF/sessionj/exits/lib.Front.txt")).content()
                .contains("lib.Front\tgo(java.lang.String)\t");
        assertRejected(app(MAIN.replace("lib.Booker.%s", "lib.Front.%s").formatted("go", "Exception")),
                "Main.java:7: error: [SJ024] session 's' is not complete if, in 'book', the call of 'parse' on line 9"
                        + " throws an unchecked exception, which leaves 'book' and then 'go' (through its call on line 4) (as"
                        + " the compilation of lib.Front recorded in META-INF/sessionj/exits/lib.Front.txt)");
    }

    /** adv19 A2 across modules: the exit of an implementation comes out of a call through the library's interface. */
    @Test
    void anImplementationsExitComesOutOfTheLibraryInterfacesCall() throws IOException {
        library(BOOKER, """
                package lib;
                public interface Service {
                    void handle(String input);
                }
                """, """
                package lib;
                public final class BookingService implements Service {
                    @Override
                    public void handle(String input) {
                        Booker.book(input);
                    }
                }
                """);
        assertRejected(app("""
                package app;
                public final class Main {
                    static void run(lib.Service service) {
                        try {
                            service.handle("x");
                        } catch (java.time.format.DateTimeParseException e) {
                            System.out.println("bad date, next");
                        }
                    }
                }
                """), "Main.java:5: error: [SJ024]");
    }

    /** A library method of the app's own session type: the app's exit through a call of it is its own. */
    @Test
    void aClassCompiledWithTheProcessorAndNoExitsRecordsItsClassAlone() throws IOException {
        library(BOOKER.replace("    public static void book(String input) {\n"
                + "        SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request();\n"
                + "        s.send(1);\n        s.send(LocalDate.parse(input));\n        s.close();\n    }\n", ""));
        assertThat(project.resolve("lib/classes/META-INF/sessionj/exits/lib.Booker.txt")).content()
                .startsWith("# sj-processor").doesNotContain("bookSafely");
    }

    /**
     * A class checked by an earlier sj-processor has a record under checked-classes/ and no exits file: its exits
     * are not known, and the compilation says so once (the conservative side is the rebuild it asks for).
     */
    @Test
    void aClassCheckedByAnEarlierProcessorWithoutTheRecordIsWarnedAbout() throws IOException {
        library(BOOKER);
        Files.delete(project.resolve("lib/classes/META-INF/sessionj/exits/lib.Booker.txt"));
        Result result = app(MAIN.formatted("book", "DateTimeParseException"));
        assertThat(result.status()).as(result.output()).isZero();
        assertThat(result.output()).containsOnlyOnce("warning: sj-processor: lib.Booker was compiled by an earlier"
                + " sj-processor (no META-INF/sessionj/exits/lib.Booker.txt in the class path)");
    }

    /** A class compiled without the processor at all: never checked, no record, no word (the runtime warns). */
    @Test
    void aClassCompiledWithoutTheProcessorIsTakenToLetNoExitOut() throws IOException {
        Result plain = compile("lib", false, List.of(), BOOKER);
        assertThat(plain.status()).as(plain.output()).isZero();
        assertAccepted(app(MAIN.formatted("book", "DateTimeParseException")));
    }

    /** An incremental build into the same output: a method that no longer lets an exit out loses its line. */
    @Test
    void aRebuildWithoutTheExitRewritesOrRemovesTheRecord() throws IOException {
        String front = """
                package lib;
                public final class Front {
                    public static void go(String input) {
                        %s
                    }
                }
                """;
        library(BOOKER, front.formatted("Booker.book(input);"));
        Path record = project.resolve("lib/classes/META-INF/sessionj/exits/lib.Front.txt");
        assertThat(record).content().contains("go(java.lang.String)");
        library(BOOKER, front.formatted("Booker.bookSafely(input);"));
        assertThat(record).doesNotExist(); // Front touches no session: not checked, no file
        assertThat(project.resolve("lib/classes/META-INF/sessionj/exits/lib.Booker.txt")).content()
                .contains("book(java.lang.String)");
        assertAccepted(app(MAIN.replace("lib.Booker.%s", "lib.Front.%s").formatted("go", "Exception")));
    }

    /**
     * The library as a jar (what {@code mvn package} gives the next module, and every library from a repository):
     * javac's file manager does not show a jar's {@code META-INF} to the processor, so the record is read from the
     * jar the class came from; before, the library's classes were taken as compiled without the processor.
     */
    @Test
    void aLibraryJarsRecordIsRead() throws IOException {
        library(BOOKER);
        Path jar = jar(project.resolve("lib/classes"), project.resolve("lib.jar"));
        Result result = compile("app", true, List.of(jar), MAIN.formatted("book", "DateTimeParseException"));
        assertRejected(result, "Main.java:7: error: [SJ024] session 's' is not complete if, in 'book', the call of"
                + " 'parse' on line 9");
        assertThat(result.output()).doesNotContain("warning");
    }

    /** A jar of every file of {@code classes}. */
    static Path jar(Path classes, Path jar) throws IOException {
        try (java.io.OutputStream file = Files.newOutputStream(jar);
                java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(file);
                java.util.stream.Stream<Path> files = Files.walk(classes)) {
            for (Path path : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(path).toString()
                        .replace(File.separatorChar, '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
