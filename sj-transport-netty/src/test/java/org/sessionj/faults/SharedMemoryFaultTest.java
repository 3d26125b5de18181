package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;

/**
 * The ipc transport's memory directory runs out of space: a small tmpfs this test mounts itself
 * (never the machine's shared /dev/shm), either completely full or too small for a ring. Opening an
 * ipc session must then fail cleanly with an {@link SJIOException} or fall back to another transport —
 * never crash either JVM (a shared mapping whose pages cannot be backed raises SIGBUS) — and leave no
 * file of its own in the directory. Needs root (mount); skipped otherwise.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SharedMemoryFaultTest {

    @ParameterizedTest(name = "{0} tmpfs")
    @ValueSource(strings = {"full", "too small"})
    void anIpcSessionOnAFullOrTooSmallMemoryDirectoryFailsCleanlyOrFallsBack(String kind) throws Exception {
        Path mount = Files.createDirectories(Path.of("target/faults/shm-" + kind.replace(' ', '-')).toAbsolutePath());
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + (kind.equals("full") ? "256k" : "64k"), "tmpfs",
                mount.toString()) == 0, "mounting a tmpfs needs root");
        try {
            if (kind.equals("full")) {
                fill(mount.resolve("filler"));
            }
            Set<String> before = list(mount);
            List<String> options = List.of("-Dsessionj.ipc.memoryDir=" + mount, "-Dsessionj.sessionTransports=ipc,tcp");
            SJRuntime runtime;
            String previous = System.setProperty("sessionj.ipc.memoryDir", mount.toString());
            try {
                runtime = FaultSupport.runtime("ipc,tcp", "sessionj.sessionTransports", "ipc,tcp");
            } finally {
                if (previous == null) {
                    System.clearProperty("sessionj.ipc.memoryDir");
                } else {
                    System.setProperty("sessionj.ipc.memoryDir", previous);
                }
            }
            try (FaultSupport.Peer peer = FaultSupport.start(options, "ipc,tcp", "ping", "3")) {
                int port = peer.port();
                for (int i = 0; i < 3; i++) {
                    try (SJSocket s = runtime.service(FaultProtocols.Ping.class, "localhost", port).request()) {
                        s.send(i);
                        assertThat(s.receiveInt()).isEqualTo(i + 1);
                        System.out.printf("FAULTS %s memory directory: session %d over %s%n", kind, i,
                                SJRuntime.transportOf(s));
                    } catch (SJIOException e) {
                        System.out.printf("FAULTS %s memory directory: session %d refused: %s%n", kind, i, e.getMessage());
                    }
                }
                peer.process.waitFor(10, TimeUnit.SECONDS);
                assertThat(peer.output.toString()).as("the peer did not crash")
                        .doesNotContain("SIGBUS", "hs_err", "InternalError", "fatal error");
                assertThat(list(mount)).as("files left in the memory directory").isSubsetOf(before);
            }
        } finally {
            run("umount", "-l", mount.toString());
        }
    }

    private static void fill(Path file) throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < 1 << 16; i++) {
                out.write(block);
                out.flush();
            }
        } catch (IOException e) {
            // full
        }
    }

    private static Set<String> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor();
    }
}
