package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJSocket;

/**
 * What a library's compilation recorded (which methods end a lent socket, its protocols' descriptors) is
 * read from the module path as from the class path (adv13 A1): two named modules, each compiled by javac
 * with the processor, the library on the application's {@code --module-path}.
 */
class ModulePathFactsTest {
    private static final String LIBRARY_MODULE = """
            module com.lib {
                requires org.sessionj.api;
                exports com.lib;
            }
            """;
    private static final String HELPERS = """
            package com.lib;

            import org.sessionj.api.*;

            public final class Helpers {
                public static void finish(@Session("!<int>") SJSocket s) {
                    s.send(1);
                    s.close();
                }
            }
            """;
    private static final String PROTOCOLS = """
            package com.lib;

            import org.sessionj.api.Protocol;

            public final class Protos {
                @Protocol("cbegin.!<int>.?(String)") public interface C {}
                @Protocol("cbegin.!<int>") public interface One {}
            }
            """;
    private static final String APP_MODULE = """
            module com.app {
                requires com.lib;
                requires org.sessionj.api;
            }
            """;

    private static String app(String protocol, String afterFinish) {
        return """
                package com.app;

                import com.lib.Helpers;
                import com.lib.Protos;
                import org.sessionj.api.*;

                final class App {
                    static void client(@Session(protocol = Protos.%s.class) SJService svc) {
                        SJSocket s = svc.request();
                        Helpers.finish(s);
                %s
                    }
                }
                """.formatted(protocol, afterFinish);
    }

    @TempDir
    Path root;

    @Test
    void aLibraryHelperThatClosesItsLentSocketIsSeenOnTheModulePath() throws IOException {
        Path api = apiModule();
        Path lib = compile("lib", api.toString(), LIBRARY_MODULE, HELPERS, PROTOCOLS);
        assertThat(lib.resolve("META-INF/sessionj/ends/com.lib.Helpers.txt")).exists();

        String modulePath = api + File.pathSeparator + lib;
        Result wrong = javac("app", modulePath, APP_MODULE, app("C", "        String r = s.receive();"));
        assertThat(wrong.status()).as(wrong.output()).isNotZero();
        assertThat(wrong.output()).contains("SJ024", "session 's' is not complete when it is lent to 'finish', which "
                + "closes it after !<int>: ?(java.lang.String) remains");

        Result right = javac("app2", modulePath, APP_MODULE, app("One", ""));
        assertThat(right.status()).as(right.output()).isZero();
    }

    @Test
    void aProtocolOfALibraryOnTheModulePathTypesTheApplicationsSessions() throws IOException {
        Path api = apiModule();
        Path lib = compile("lib", api.toString(), LIBRARY_MODULE, HELPERS, PROTOCOLS);
        Result wrong = javac("app", api + File.pathSeparator + lib, APP_MODULE, """
                package com.app;

                import com.lib.Protos;
                import org.sessionj.api.*;

                final class App {
                    static void client(@Session(protocol = Protos.C.class) SJService svc) {
                        try (SJSocket s = svc.request()) {
                            s.send("one");
                            s.receive();
                        }
                    }
                }
                """);
        assertThat(wrong.output()).contains("SJ013", "expected !<int> but the program sends !<java.lang.String>");
    }

    /**
     * adv20 A9 on the module path: a library module's method that may leave its plain local session half done by
     * the JDK's undeclared failure is followed into the application module, whose catch names that failure and goes
     * on (the record {@code META-INF/sessionj/exits/} is read from the library's module, as the endings are).
     */
    @Test
    void aLibraryMethodsUncheckedExitIsFollowedIntoTheApplicationModule() throws IOException {
        Path api = apiModule();
        Path lib = compile("lib", api.toString(), LIBRARY_MODULE, """
                package com.lib;

                import org.sessionj.api.*;

                public final class Booker {
                    @Protocol("cbegin.!<int>.!<java.time.LocalDate>") public interface Booking {}
                    public static void book(String input) {
                        SJSocket s = SJService.create(Booking.class, "localhost", 4000).request();
                        s.send(1);
                        s.send(java.time.LocalDate.parse(input));
                        s.close();
                    }
                }
                """);
        assertThat(lib.resolve("META-INF/sessionj/exits/com.lib.Booker.txt")).content().contains("book(java.lang.String)");
        Result wrong = javac("app", api + File.pathSeparator + lib, APP_MODULE,
                """
                package com.app;

                final class App {
                    static void run(String input) {
                        try {
                            com.lib.Booker.book(input);
                        } catch (java.time.format.DateTimeParseException e) {
                            System.out.println("bad date, next");
                        }
                    }
                }
                """);
        assertThat(wrong.status()).as(wrong.output()).isNotZero();
        assertThat(wrong.output()).contains("App.java:6: error: [SJ024] session 's' is not complete if, in 'book', the"
                + " call of 'parse' on line 10 throws an unchecked exception");
    }

    /**
     * jpms report14 / adv13 A1 "fail closed": a library class with {@code @Session} socket parameters
     * compiled without the processor (here {@code -proc:none}) has no record of which of its methods end
     * the socket they are lent, which the checker cannot tell from "ends nothing" unless the processor marks
     * every class with socket parameters. A caller is warned, naming the class, the method and where it
     * looked — on the class path and on the module path — while a library compiled with the processor whose
     * method ends nothing (its record holds the header alone) gives no warning.
     */
    @Test
    void aLibraryCompiledWithoutTheProcessorIsNamedInAWarningOnTheClassPathAndTheModulePath() throws IOException {
        Path api = apiModule();
        Result plain = javac("plainlib", List.of("-proc:none", "--module-path", api.toString()), LIBRARY_MODULE,
                HELPERS, PROTOCOLS);
        assertThat(plain.status()).as(plain.output()).isZero();
        Path lib = root.resolve("plainlib-classes");
        assertThat(lib.resolve("META-INF/sessionj")).doesNotExist();
        String unrecorded = "sj-processor: com.lib.Helpers was compiled without sj-processor (no "
                + "META-INF/sessionj/ends/com.lib.Helpers.txt in %s), so whether finish(org.sessionj.api.SJSocket) ends the "
                + "session it is lent is not known and it is taken not to";

        String closes = app("One", "        s.close();"); // finish is taken not to close s
        Result modular = javac("app", api + File.pathSeparator + lib, APP_MODULE, closes);
        assertThat(modular.status()).as(modular.output()).isZero();
        assertThat(modular.output()).contains("App.java:7: warning: " + unrecorded.formatted(
                "module com.lib on the module path or the class path"));

        Result classPath = javac("app2", List.of("-cp", api + File.pathSeparator + lib), closes);
        assertThat(classPath.status()).as(classPath.output()).isZero();
        assertThat(classPath.output()).contains(unrecorded.formatted("the class path"))
                .containsOnlyOnce("compiled without sj-processor");

        String sendsOnly = HELPERS.replace("        s.close();\n", "");
        Path recorded = compile("lib", api.toString(), LIBRARY_MODULE, sendsOnly, PROTOCOLS);
        assertThat(recorded.resolve("META-INF/sessionj/ends/com.lib.Helpers.txt")).as("the marker, no ending")
                .content().startsWith("# sj-processor: socket parameters these methods end\n")
                .doesNotContainPattern("(?m)^\\d");
        Result marked = javac("app3", api + File.pathSeparator + recorded, APP_MODULE, closes);
        assertThat(marked.status()).as(marked.output()).isZero();
        assertThat(marked.output()).doesNotContain("compiled without sj-processor");
    }

    /**
     * adv15 A13: the library as a module on the module path (javac takes {@code com.lib.Helpers} from there)
     * and a stale copy of its package on the class path, whose record says {@code finish} does not close:
     * the module's own record is read, and lending the incomplete session to {@code finish} is SJ024 as with
     * the module alone.
     */
    @Test
    void aStaleCopyOfAModulesPackageOnTheClassPathDoesNotHideTheModulesFacts() throws IOException {
        Path api = apiModule();
        Path current = compile("lib2", api.toString(), LIBRARY_MODULE, HELPERS, PROTOCOLS);
        String stale = HELPERS.replace("        s.close();\n", "") .replace("    }\n}", """
                    }
                    public static void other(@Session("!<int>") SJSocket s) {
                        s.send(1);
                        s.close();
                    }
                }""");
        Result old = javac("lib1", List.of("-cp", api.toString()), stale, PROTOCOLS);
        assertThat(old.status()).as(old.output()).isZero();
        assertThat(root.resolve("lib1-classes/META-INF/sessionj/ends/com.lib.Helpers.txt")).content()
                .contains("0\t0\tother(").doesNotContain("0\t0\tfinish(");

        Result app = javac("app", List.of("--module-path", api + File.pathSeparator + current, "--add-modules",
                "com.lib", "-cp", root.resolve("lib1-classes").toString()), """
                package com.app;

                import com.lib.Helpers;
                import org.sessionj.api.*;

                final class App {
                    static void client(@Session("cbegin.!<int>.!<int>") SJService svc) {
                        SJSocket s = svc.request();
                        Helpers.finish(s);
                        s.send(2);
                        s.close();
                    }
                }
                """);
        assertThat(app.status()).as(app.output()).isNotZero();
        assertThat(app.output()).contains("[SJ024] session 's' is not complete when it is lent to 'finish', which closes it");
    }

    /**
     * adv15 A7: javac's multi-module mode ({@code --module-source-path}) with several modules splits the
     * class output by module, where the processor's resources (written beside each class) have no place:
     * one clear error that says so and what to do, not javac's Filer wording on each protocol. (With one
     * module javac writes them into that module's output, and all works.)
     */
    @Test
    void javacsMultiModuleModeIsOneClearError() throws IOException {
        Path api = apiModule();
        List<String> arguments = new ArrayList<>(List.of("-proc:full", "-processor", SessionProcessor.class.getName(),
                "-processorpath", System.getProperty("java.class.path"), "--module-path", api.toString(),
                "--module-source-path", root.resolve("modules").toString(), "-d", root.resolve("out").toString()));
        String[][] modules = {{"com.lib", LIBRARY_MODULE, HELPERS, PROTOCOLS}, {"com.app", APP_MODULE, app("One", "")}};
        for (String[] module : modules) {
            for (int i = 1; i < module.length; i++) {
                Path file = root.resolve("modules").resolve(module[0]).resolve(fileOf(module[i]));
                Files.createDirectories(file.getParent());
                Files.writeString(file, module[i]);
                arguments.add(file.toString());
            }
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int status;
        try (PrintStream err = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            status = ToolProvider.getSystemJavaCompiler().run(null, err, err, arguments.toArray(String[]::new));
        }
        String printed = output.toString(StandardCharsets.UTF_8);
        assertThat(status).as(printed).isNotZero();
        assertThat(printed).containsOnlyOnce("error: sj-processor: javac's multi-module mode "
                + "(--module-source-path) is not supported").contains("Compile each module in a javac run of its own")
                .doesNotContain("No module specified");
    }

    /** sj-api as a module: its jar (whose manifest names it) or, from a classes directory, a jar made of it. */
    private Path apiModule() throws IOException {
        Path location;
        try {
            location = Path.of(SJSocket.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        if (Files.isRegularFile(location)) {
            return location;
        }
        Path jar = root.resolve("sj-api.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Automatic-Module-Name", "org.sessionj.api");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
                Stream<Path> files = Files.walk(location)) {
            for (Path path : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String name = location.relativize(path).toString().replace(File.separatorChar, '/');
                if (name.equals("META-INF/MANIFEST.MF") || name.equals("module-info.class")) {
                    continue;
                }
                out.putNextEntry(new JarEntry(name));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    private Path compile(String name, String modulePath, String... sources) throws IOException {
        Result result = javac(name, modulePath, sources);
        assertThat(result.status()).as(result.output()).isZero();
        return root.resolve(name + "-classes");
    }

    private record Result(int status, String output) {
    }

    /** javac with the processor on the processor path, a named module of {@code sources}, into {@code <name>-classes}. */
    private Result javac(String name, String modulePath, String... sources) throws IOException {
        return javac(name, List.of("--module-path", modulePath), sources);
    }

    /**
     * javac of {@code sources} into {@code <name>-classes} with {@code options} ({@code --module-path} or
     * {@code -cp}), with the processor unless they hold {@code -proc:none}.
     */
    private Result javac(String name, List<String> options, String... sources) throws IOException {
        Path out = root.resolve(name + "-classes");
        Files.createDirectories(out);
        List<String> arguments = new ArrayList<>(options.contains("-proc:none") ? List.of()
                : List.of("-proc:full", "-processor", SessionProcessor.class.getName(),
                        "-processorpath", System.getProperty("java.class.path")));
        arguments.addAll(options);
        arguments.addAll(List.of("-d", out.toString()));
        for (String source : sources) {
            Path file = root.resolve(name + "-src").resolve(fileOf(source));
            Files.createDirectories(file.getParent());
            Files.writeString(file, source);
            arguments.add(file.toString());
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            int status = ToolProvider.getSystemJavaCompiler().run(null, err, err, arguments.toArray(String[]::new));
            return new Result(status, output.toString(StandardCharsets.UTF_8));
        }
    }

    /** {@code module-info.java}, or the file of the source's first public or top-level class in its package. */
    private static String fileOf(String source) {
        if (source.strip().startsWith("module ")) {
            return "module-info.java";
        }
        String pkg = source.lines().filter(line -> line.startsWith("package ")).findFirst().orElseThrow()
                .replace("package ", "").replace(";", "").strip();
        java.util.regex.Matcher type = java.util.regex.Pattern.compile("(?:class|interface|record|enum) (\\w+)")
                .matcher(source);
        if (!type.find()) {
            throw new IllegalArgumentException("no type in " + source);
        }
        return pkg.replace('.', '/') + "/" + type.group(1) + ".java";
    }
}
