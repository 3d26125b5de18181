package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code ./sj} builds its class path on first use, driven in a scratch copy of the repository's
 * root with a fake {@code mvnw} and a fake JDK that only log how they were called. Invariant: the class
 * path holds what the command line runs with (compile and runtime scope), never the test dependencies,
 * whose jars every JVM would otherwise open on each look-up that searches the whole class path; a class
 * path an older {@code ./sj} wrote with them is built again.
 */
@Timeout(60)
class LauncherBuildTest {
    private static final Path SCRIPT = Path.of("..", "sj").toAbsolutePath().normalize();

    @TempDir
    Path root;

    private Path fake(Path path, String script) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, script);
        assertThat(path.toFile().setExecutable(true)).isTrue();
        return path;
    }

    private String launch() throws IOException, InterruptedException {
        Files.copy(SCRIPT, root.resolve("sj"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(root.resolve("sj").toFile().setExecutable(true)).isTrue();
        fake(root.resolve("mvnw"), """
                #!/bin/sh
                cd "$(dirname "$0")"
                echo "$*" >> mvnw.log
                mkdir -p sj-examples/target
                touch sj-examples/target/sj-examples-0.1.jar
                echo /m2/io/netty/netty-common.jar > sj-examples/target/sj-classpath.txt
                """);
        Path jdk = root.resolve("jdk");
        fake(jdk.resolve("bin/java"), "#!/bin/sh\necho \"$*\" >> \"$(dirname \"$0\")/../java.log\"\n");
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        ProcessBuilder builder = new ProcessBuilder(root.resolve("sj").toString(), "--version");
        builder.environment().put("JAVA_HOME", jdk.toString());
        builder.environment().put("SJ_AOT", "0");
        builder.environment().remove("SJ_CLASSPATH");
        Process process = builder.redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        Path log = root.resolve("mvnw.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Test
    void theClassPathIsBuiltWithoutTheTestDependencies() throws Exception {
        assertThat(launch()).contains("dependency:build-classpath").contains("-DincludeScope=runtime");
        assertThat(Files.readString(root.resolve(".sj/classpath")))
                .isEqualTo(root.resolve("sj-examples/target/sj-examples-0.1.jar") + ":/m2/io/netty/netty-common.jar\n");
    }

    @Test
    void aClassPathWrittenWithTheTestDependenciesIsBuiltAgain() throws Exception {
        Files.createDirectories(root.resolve(".sj"));
        Path classpath = Files.writeString(root.resolve(".sj/classpath"),
                "/x/sj-examples.jar:/m2/org/junit/jupiter/junit-jupiter-api.jar:/m2/io/netty/netty-common.jar\n");
        Files.setLastModifiedTime(classpath, FileTime.from(Instant.now().plusSeconds(3600)));
        assertThat(launch()).contains("-DincludeScope=runtime");
        assertThat(Files.readString(classpath)).doesNotContain("/org/junit/");
    }

    @Test
    void aCurrentClassPathIsNotBuiltAgain() throws Exception {
        Files.createDirectories(root.resolve(".sj"));
        Path classpath = Files.writeString(root.resolve(".sj/classpath"), "/x/sj-examples.jar:/m2/io/netty/netty-common.jar\n");
        Files.setLastModifiedTime(classpath, FileTime.from(Instant.now().plusSeconds(3600)));
        assertThat(launch()).isEmpty();
    }
}
