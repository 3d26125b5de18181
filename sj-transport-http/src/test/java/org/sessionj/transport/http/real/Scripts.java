package org.sessionj.transport.http.real;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the project's scripts (scripts/http-*.sh) for the real-component tests. */
final class Scripts {
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private Scripts() {
    }

    /** Runs {@code scripts/NAME args...}, fails the test with its output if it fails; returns the output. */
    static String run(String name, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("scripts").resolve(name).toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean done = process.waitFor(180, TimeUnit.SECONDS);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!done) {
            process.destroyForcibly();
        }
        assertThat(done && process.exitValue() == 0).as("%s %s:%n%s", name, String.join(" ", args), output).isTrue();
        return output;
    }

    /** A TCP port free on loopback now. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A fresh directory under target/ for one nginx instance. */
    static Path workDirectory(String name) throws IOException {
        Path dir = ROOT.resolve("sj-transport-http/target").resolve(name);
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return Files.createDirectories(dir);
    }

    /** The java launcher of this JVM. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
