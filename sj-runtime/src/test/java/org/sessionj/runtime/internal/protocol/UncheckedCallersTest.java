package org.sessionj.runtime.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJException;

/**
 * adv15 A25: a class compiled without sj-processor that creates sessions of a protocol compiled with it (the
 * protocol has a descriptor) is reported once, naming the class, where it was loaded from and the fix; a class
 * from an output sj-processor marked is not. The callers are real classes compiled without the processor into a
 * directory or a jar and loaded from there, as an application module would be.
 */
class UncheckedCallersTest {
    private static final String CALLER = """
            package user;
            public class Caller implements Runnable {
                @Override public void run() {
                    // What SJService.create does first (this module's tests have no transport to create with).
                    try {
                        org.sessionj.runtime.internal.protocol.ProtocolRegistry.forCreate(Class.forName(
                                "org.sessionj.runtime.internal.protocol.ProtocolRegistryTest$Described"));
                    } catch (ClassNotFoundException e) {
                        throw new AssertionError(e);
                    }
                }
                public static class Starts implements Runnable {
                    // What request() and accept() do first, on a service a checked factory or field handed over.
                    @Override public void run() {
                        try {
                            org.sessionj.runtime.internal.protocol.ProtocolRegistry.forSession(
                                    org.sessionj.runtime.internal.protocol.ProtocolRegistry.of(Class.forName(
                                            "org.sessionj.runtime.internal.protocol.ProtocolRegistryTest$Described")));
                        } catch (ClassNotFoundException e) {
                            throw new AssertionError(e);
                        }
                    }
                }
                public static class Nested implements Runnable {
                    @Override public void run() { new Caller().run(); ((Runnable) () -> new Caller().run()).run(); }
                }
            }
            """;

    @TempDir
    Path dir;

    @org.sessionj.api.Protocol("cbegin.!<long>")
    public interface Undescribed {
    }

    /** Compiles the caller without the processor into {@code name}/, marked as checked if {@code marked}. */
    private Path compileCaller(String name, boolean marked) throws IOException {
        Path source = dir.resolve(name + "-src/user/Caller.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, CALLER);
        Path classes = dir.resolve(name);
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-proc:none", "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), source.toString());
        assertThat(status).isZero();
        if (marked) {
            Path marker = classes.resolve(UncheckedCallers.MARKER);
            Files.createDirectories(marker.getParent());
            Files.writeString(marker, "# sj-processor\n");
        }
        return classes;
    }

    /** Marks {@code classes} as sj-processor does now: a marker saying its checked classes have records, and {@code records}. */
    private static Path markPerClass(Path classes, String... records) throws IOException {
        Path marker = classes.resolve(UncheckedCallers.MARKER);
        Files.createDirectories(marker.getParent());
        Files.writeString(marker, "# sj-processor\n" + UncheckedCallers.PER_CLASS + "\n");
        Path directory = Files.createDirectories(classes.resolve(UncheckedCallers.RECORDS));
        for (String record : records) {
            Files.writeString(directory.resolve(record), "");
        }
        return classes;
    }

    private static Path jar(Path classes) throws IOException {
        Path jar = classes.resolveSibling(classes.getFileName() + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    private static List<String> run(Path location, String className) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {location.toUri().toURL()},
                UncheckedCallersTest.class.getClassLoader())) {
            Runnable caller = (Runnable) loader.loadClass(className).getConstructor().newInstance();
            return MissingDescriptorTest.captureWarnings(caller);
        }
    }

    @Test
    void anUncheckedCallerIsReportedOnceNamingItsLocationAndTheFix() throws Exception {
        Path classes = compileCaller("plain", false);
        List<String> warnings = run(classes, "user.Caller$Nested");
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).startsWith("class user.Caller (" + classes.toUri().toURL() + ") opens sessions of "
                        + ProtocolRegistryTest.Described.class.getName() + " but was compiled without sj-processor")
                .contains("annotationProcessorPaths").contains("-Dsessionj.missingDescriptor=error");
    }

    @Test
    void aCallerFromAMarkedOutputIsNotReported() throws Exception {
        assertThat(run(compileCaller("checked", true), "user.Caller")).isEmpty();
    }

    @Test
    void aJarIsReadForTheMarkerToo() throws Exception {
        assertThat(run(jar(compileCaller("plainjar", false)), "user.Caller")).hasSize(1);
        assertThat(run(jar(compileCaller("checkedjar", true)), "user.Caller")).isEmpty();
    }

    /**
     * adv17 A6: a class another compiler wrote into a checked output (several modules sharing one, Kotlin
     * beside Java), or one of an unchecked module merged into a checked module's jar, has no record of its own.
     */
    @Test
    void aClassWithoutItsOwnRecordInACheckedOutputIsReported() throws Exception {
        assertThat(run(markPerClass(compileCaller("shared", false)), "user.Caller")).hasSize(1);
        assertThat(run(markPerClass(compileCaller("own", false), "user.Caller"), "user.Caller$Nested")).isEmpty();
        assertThat(run(jar(markPerClass(compileCaller("sharedjar", false), "other.Checked")), "user.Caller")).hasSize(1);
        assertThat(run(jar(markPerClass(compileCaller("ownjar", false), "user.Caller")), "user.Caller")).isEmpty();
    }

    /** adv17 A6: the class that starts a session is looked at too, not only the one that created the service. */
    @Test
    void theClassThatStartsASessionIsReported() throws Exception {
        Path classes = compileCaller("starts", false);
        List<String> warnings = run(classes, "user.Caller$Starts");
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).startsWith("class user.Caller (");
        assertThat(run(compileCaller("startsmarked", true), "user.Caller$Starts")).isEmpty();
    }

    @Test
    void errorModeRefusesTheCreate() throws Exception {
        Path classes = compileCaller("refused", false);
        String before = System.getProperty("sessionj.missingDescriptor");
        System.setProperty("sessionj.missingDescriptor", "error");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                UncheckedCallersTest.class.getClassLoader())) {
            Runnable caller = (Runnable) loader.loadClass("user.Caller").getConstructor().newInstance();
            assertThatThrownBy(caller::run).isInstanceOf(SJException.class)
                    .hasMessageContaining("class user.Caller (").hasMessageContaining("sessionj.missingDescriptor=error");
        } finally {
            MissingDescriptorTest.restore(before);
        }
    }

    @Test
    void ignoreModeAndUndescribedProtocolsSayNothing() throws Exception {
        Path classes = compileCaller("ignored", false);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                UncheckedCallersTest.class.getClassLoader())) {
            Class<?> caller = loader.loadClass("user.Caller");
            assertThat(MissingDescriptorTest.captureWarnings(
                    () -> UncheckedCallers.check(ProtocolRegistryTest.Described.class.getName(), MissingDescriptor.IGNORE)))
                    .isEmpty();
            assertThat(caller).isNotNull();
        }
        // This test class itself is compiled without the processor, and its protocol has no descriptor:
        // the protocol's own warning covers it, not a second one about the caller.
        assertThat(MissingDescriptorTest.captureWarnings(() -> ProtocolRegistry.forCreate(Undescribed.class)))
                .hasSize(1).noneMatch(w -> w.startsWith("class "));
    }
}
