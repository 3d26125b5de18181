package org.sessionj.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJException;

/**
 * adv14 A7: a library's {@code public static final SJService SVC = SJService.create(P.class, …)} changes
 * protocol in a rebuilt library jar, and the application compiled against the earlier jar is not rebuilt.
 * No compiler sees that; with {@code -Dsessionj.checkUsers=true} the runtime refuses the field's protocol
 * at its load, naming the field, the protocol the application was checked against and the one the field
 * holds now. Real javac compilations with sj-processor (library v1, the application against it, library
 * v2 into a jar) and runs in a class loader of their outputs: v1 talks a session, v2 is refused before any.
 */
class StaleLibraryFieldTest {
    private static final String PORT = "sessionj.test.staleLibraryField.port";
    private static final String LIBRARY = """
            package lib;

            import org.sessionj.api.*;

            public final class Lib {
                @Protocol("cbegin.!<int>.?(String)") public interface P {}
                @Protocol("^(P)") public interface PS {}
                @Protocol("cbegin.!<String>.?(String)") public interface Q {}
                @Protocol("^(Q)") public interface QS {}

                public static final SJService SVC = SJService.create(%s.class, "localhost", Integer.getInteger("%s", 1));
            }
            """;
    private static final String APP = """
            package app;

            import lib.Lib;
            import org.sessionj.api.*;

            public final class App {
                public static String ask() {
                    try (SJSocket s = Lib.SVC.request()) {
                        s.send(5);
                        return s.receive();
                    }
                }
            }
            """;
    /** The application's server side, for the run against the library it was compiled with. */
    private static final String SERVER = """
            package app;

            import lib.Lib;
            import org.sessionj.api.*;

            public final class Server implements Runnable, AutoCloseable {
                private final SJServerSocket server = SJServerSocket.create(Lib.PS.class, 0);

                public int port() {
                    return server.port();
                }

                @Override
                public void run() {
                    try (SJSocket s = server.accept()) {
                        int n = s.receive();
                        s.send("got " + n);
                    }
                }

                @Override
                public void close() {
                    server.close();
                }
            }
            """;

    @TempDir
    Path root;

    @Test
    @Timeout(300)
    void anApplicationCheckedAgainstAnEarlierProtocolOfALibrarysServiceFieldIsRefusedAtTheFieldsLoad() throws Throwable {
        Path v1 = compile("lib1", "", LIBRARY.formatted("P", PORT));
        Path app = compile("app", v1.toString(), APP, SERVER);
        assertThat(app.resolve("META-INF/sessionj/users/lib.Lib.txt")).content()
                .as("the application records the fact of Lib.SVC it was checked against")
                .contains("app.App ").contains(" field.SVC=endpoint%20cbegin.!<int>.?(java.lang.String)");

        System.setProperty("sessionj.checkUsers", "true");
        try {
            try (URLClassLoader loader = loader(app, v1)) {
                assertThat(ask(loader, true)).as("the consistent build talks").isEqualTo("got 5");
            }

            Path v2 = jar(compile("lib2", "", LIBRARY.formatted("Q", PORT)), root.resolve("lib-2.jar"));
            try (URLClassLoader loader = loader(app, v2)) {
                assertThatThrownBy(() -> ask(loader, false))
                        .isInstanceOf(ExceptionInInitializerError.class) // Lib's static initializer creates SVC
                        .cause().isInstanceOf(SJException.class)
                        .hasMessageContaining("field lib.Lib.SVC is not what app.App was checked against at compile time")
                        .hasMessageContaining("app/META-INF/sessionj/users/lib.Lib.txt")
                        .hasMessageContaining("it was an endpoint of protocol cbegin.!<int>.?(java.lang.String), it is "
                                + "now an endpoint of protocol cbegin.!<java.lang.String>.?(java.lang.String)")
                        .hasMessageContaining("loading protocol lib.Lib$Q")
                        .hasMessageContaining("recompile the module that contains app.App against this version of lib.Lib");
            }
        } finally {
            System.clearProperty("sessionj.checkUsers");
            System.clearProperty(PORT);
        }
    }

    /** adv16 A10: the same for a library record that holds the service its factory made. */
    private static final String RECORD_LIBRARY = """
            package lib;

            import org.sessionj.api.*;

            public final class Lib {
                @Protocol("cbegin.!<int>.?(String)") public interface P {}
                @Protocol("^(P)") public interface PS {}
                @Protocol("cbegin.!<String>.?(String)") public interface Q {}
                @Protocol("^(Q)") public interface QS {}

                public record Cfg(@Session(protocol = %1$s.class) SJService svc) {}

                public static Cfg make() {
                    return new Cfg(SJService.create(%1$s.class, "localhost", Integer.getInteger("%2$s", 1)));
                }
            }
            """;
    private static final String RECORD_APP = """
            package app;

            import lib.Lib;
            import org.sessionj.api.*;

            public final class App {
                public static String ask() {
                    return ask(Lib.make());
                }

                static String ask(Lib.Cfg cfg) {
                    try (SJSocket s = cfg.svc().request()) {
                        s.send(5);
                        return s.receive();
                    }
                }
            }
            """;

    @Test
    @Timeout(300)
    void anApplicationCheckedAgainstAnEarlierProtocolOfALibraryRecordsServiceIsRefused() throws Throwable {
        Path v1 = compile("lib1", "", RECORD_LIBRARY.formatted("P", PORT));
        Path app = compile("app", v1.toString(), RECORD_APP, SERVER);
        assertThat(app.resolve("META-INF/sessionj/users/lib.Lib$Cfg.txt")).content()
                .as("the application records the fact of Cfg.svc() it was checked against, with its protocol")
                .contains("app.App ").contains("field.svc()=accessor%20keeps%20its%20constructor%20argument%20as%20"
                        + "protocol=lib.Lib$P");

        System.setProperty("sessionj.checkUsers", "true");
        try {
            try (URLClassLoader loader = loader(app, v1)) {
                assertThat(ask(loader, true)).as("the consistent build talks").isEqualTo("got 5");
            }

            Path v2 = jar(compile("lib2", "", RECORD_LIBRARY.formatted("Q", PORT)), root.resolve("lib-2.jar"));
            try (URLClassLoader loader = loader(app, v2)) {
                assertThatThrownBy(() -> ask(loader, false)).isInstanceOf(SJException.class)
                        // the component's field (read inside the record) or its accessor: whichever fact comes first
                        .hasMessageContaining("field lib.Lib$Cfg.svc")
                        .hasMessageContaining("is not what app.App was checked against at compile time")
                        .hasMessageContaining("cbegin.!<int>.?(java.lang.String), it is now")
                        .hasMessageContaining("loading protocol lib.Lib$Q");
            }
        } finally {
            System.clearProperty("sessionj.checkUsers");
            System.clearProperty(PORT);
        }
    }

    private static URLClassLoader loader(Path app, Path library) throws IOException {
        return new URLClassLoader(new URL[] {app.toUri().toURL(), library.toUri().toURL()},
                StaleLibraryFieldTest.class.getClassLoader());
    }

    /**
     * Runs {@code App.ask()} from {@code loader}; with {@code serve}, against the application's server
     * ({@code app.Server}) on an ephemeral port, whose reply it returns.
     */
    private static String ask(ClassLoader loader, boolean serve) throws Throwable {
        CompletableFuture<Void> served = CompletableFuture.completedFuture(null);
        AutoCloseable server = null;
        try {
            if (serve) {
                server = (AutoCloseable) Class.forName("app.Server", true, loader).getConstructor().newInstance();
                System.setProperty(PORT, server.getClass().getMethod("port").invoke(server).toString());
                served = CompletableFuture.runAsync((Runnable) server);
            }
            Method ask = Class.forName("app.App", true, loader).getMethod("ask");
            String reply = (String) ask.invoke(null);
            served.get(60, TimeUnit.SECONDS);
            return reply;
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /** javac with sj-processor, {@code sources} on the class path {@code classPath} plus sj-api, into {@code <name>}. */
    private Path compile(String name, String classPath, String... sources) throws IOException {
        Path out = root.resolve(name);
        Files.createDirectories(out);
        String test = System.getProperty("java.class.path");
        List<String> arguments = new ArrayList<>(List.of("-proc:full", "-processorpath", test,
                "-cp", classPath.isEmpty() ? test : classPath + File.pathSeparator + test, "-d", out.toString()));
        for (String source : sources) {
            String type = source.substring(source.indexOf("public final class ") + "public final class ".length());
            String pkg = source.substring("package ".length(), source.indexOf(';'));
            Path file = root.resolve(name + "-src").resolve(pkg.replace('.', '/'))
                    .resolve(type.substring(0, type.indexOf(' ')) + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source);
            arguments.add(file.toString());
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            int status = ToolProvider.getSystemJavaCompiler().run(null, err, err, arguments.toArray(String[]::new));
            assertThat(status).as("javac of %s:%n%s", name, output.toString(StandardCharsets.UTF_8)).isZero();
        }
        return out;
    }

    /** A jar of the directory {@code classes}, as the rebuilt library is shipped. */
    private static Path jar(Path classes, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> files = Files.walk(classes)) {
            for (Path path : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace(File.separatorChar, '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
