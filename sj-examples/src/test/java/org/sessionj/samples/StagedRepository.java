package org.sessionj.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * This build's artifacts staged into a private local Maven repository, and real Maven (this repository's
 * wrapper) run on a user's project against it: the shared ~/.m2 never receives SJ's snapshots; it serves the
 * third-party artifacts, read-only, as Maven's "tail" repository, and Maven runs offline. Shared by the tests
 * that build a user's project as a user would ({@link KvMavenSampleTest}, {@link JpmsMavenSampleTest}).
 */
final class StagedRepository {
    /** The repository's root directory (the tests run in sj-examples). */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    /** The version every SJ artifact is staged at. */
    static final String VERSION = "0.1.0-SNAPSHOT";
    /** The artifacts a user's project resolves, each a module directory of this build. */
    private static final List<String> JARS = List.of("sj-api", "sj-processor", "sj-runtime", "sj-transport-shm",
            "sj-transport-netty", "sj-transport-http", "sj-all");
    /** How long one Maven run may take on a loaded 2-core machine. */
    private static final Duration BUILD = Duration.ofMinutes(6);

    private final Path repository;

    private StagedRepository(Path repository) {
        this.repository = repository;
    }

    /** What a Maven run printed and how it ended. */
    record Build(int status, String output) {
    }

    /** Stages the parent and BOM poms and every artifact's pom and jar (from its target/classes) into {@code repository}. */
    static StagedRepository stage(Path repository) throws IOException {
        StagedRepository staged = new StagedRepository(repository);
        staged.stagePom("sj-parent", ROOT.resolve("pom.xml"));
        staged.stagePom("sj-bom", ROOT.resolve("sj-bom/pom.xml"));
        for (String module : JARS) {
            Files.copy(ROOT.resolve(module).resolve("pom.xml"), staged.artifactDir(module).resolve(module + "-" + VERSION + ".pom"));
            jar(ROOT.resolve(module).resolve("target/classes"), staged.jar(module));
        }
        return staged;
    }

    /** The staged jar of {@code artifactId}. */
    Path jar(String artifactId) throws IOException {
        return artifactDir(artifactId).resolve(artifactId + "-" + VERSION + ".jar");
    }

    /** {@code mvnw -B -o <arguments>} on {@code project}, with the staged repository in front of the shared one. */
    Build maven(Path project, String... arguments) throws IOException, InterruptedException {
        Path log = project.resolve("maven.log");
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("mvnw").toString(), "-B", "-o",
                "-f", project.resolve("pom.xml").toString(),
                "-Dmaven.repo.local=" + repository,
                "-Dmaven.repo.local.tail=" + sharedRepository()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        if (!process.waitFor(BUILD.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("Maven did not finish within " + BUILD + ":\n" + Files.readString(log));
        }
        return new Build(process.exitValue(), Files.readString(log));
    }

    /** The local repository this build resolved its own dependencies from (where its Netty came from). */
    private static Path sharedRepository() {
        Path jar = Path.of(io.netty.buffer.ByteBuf.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Path dir = jar;
        while (dir != null && !dir.endsWith("io/netty")) {
            dir = dir.getParent();
        }
        assertThat(dir).as("Netty comes from a Maven repository: %s", jar).isNotNull();
        return dir.getParent().getParent();
    }

    private Path artifactDir(String artifactId) throws IOException {
        return Files.createDirectories(repository.resolve("org/sessionj").resolve(artifactId).resolve(VERSION));
    }

    private void stagePom(String artifactId, Path pom) throws IOException {
        Files.copy(pom, artifactDir(artifactId).resolve(artifactId + "-" + VERSION + ".pom"));
    }

    /**
     * A jar of {@code classes} (what the module's own jar holds, its module descriptor included); a module
     * without classes (sj-all) gets an empty one.
     */
    private static void jar(Path classes, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out)) {
            if (!Files.isDirectory(classes)) {
                return;
            }
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    zip.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                    Files.copy(file, zip);
                    zip.closeEntry();
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }
}
