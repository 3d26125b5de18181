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
 * ipc session must then fall back to another transport, or, where ipc is the only session transport,
 * fail cleanly with an {@link SJIOException} naming the cause — within {@code faults.fullMemoryBoundMillis}
 * (default 5000) per session, never crashing either JVM (a shared mapping whose pages cannot be backed
 * raises SIGBUS) — and leave no file of its own in the directory and no threads, descriptors or direct
 * memory in this JVM. Needs root (mount); skipped otherwise.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SharedMemoryFaultTest {
    private static final long FULL_BOUND_MILLIS = Long.getLong("faults.fullMemoryBoundMillis", 5_000);

    @ParameterizedTest(name = "{0} tmpfs")
    @ValueSource(strings = {"full", "too small", "full, ipc only"})
    void anIpcSessionOnAFullOrTooSmallMemoryDirectoryFailsCleanlyOrFallsBack(String kind) throws Exception {
        boolean full = kind.startsWith("full");
        boolean ipcOnly = kind.endsWith("ipc only");
        String sessionTransports = ipcOnly ? "ipc" : "ipc,tcp";
        Path mount = Files.createDirectories(Path.of("target/faults/shm-" + kind.replaceAll("[ ,]+", "-")).toAbsolutePath());
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + (full ? "256k" : "64k"), "tmpfs",
                mount.toString()) == 0, "mounting a tmpfs needs root");
        try {
            if (full) {
                fill(mount.resolve("filler"));
            }
            Set<String> before = list(mount);
            List<String> options = List.of("-Dsessionj.ipc.memoryDir=" + mount, "-Dsessionj.sessionTransports=" + sessionTransports);
            SJRuntime runtime;
            // FaultSupport reads the suite's directories from these properties when its class is
            // initialised: that must happen before the property points at this tmpfs (else, when this
            // class runs first, every later test of the suite used the tmpfs path as its memory
            // directory after it was unmounted, and every ipc session failed with NoSuchFileException).
            assertThat(FaultSupport.MEMORY_DIR).isNotEqualTo(mount);
            String previous = System.setProperty("sessionj.ipc.memoryDir", mount.toString());
            try {
                runtime = FaultSupport.runtime("ipc,tcp", "sessionj.sessionTransports", sessionTransports);
            } finally {
                if (previous == null) {
                    System.clearProperty("sessionj.ipc.memoryDir");
                } else {
                    System.setProperty("sessionj.ipc.memoryDir", previous);
                }
            }
            FaultSupport.Snapshot leaks = null;
            try (FaultSupport.Peer peer = FaultSupport.start(options, "ipc,tcp", ipcOnly ? "serve" : "ping", "4")) {
                int port = peer.port();
                for (int i = 0; i < 4; i++) {
                    if (i == 1) {
                        leaks = FaultSupport.Snapshot.take(); // after the first, which starts what starts once
                    }
                    long start = System.nanoTime();
                    try (SJSocket s = runtime.service(FaultProtocols.Ping.class, "localhost", port).request()) {
                        s.send(i);
                        assertThat(s.receiveInt()).isEqualTo(i + 1);
                        System.out.printf("FAULTS %s memory directory: session %d over %s in %d ms%n", kind, i,
                                SJRuntime.transportOf(s), FaultSupport.millisSince(start));
                        assertThat(ipcOnly).as("a session with ipc the only session transport").isFalse();
                        assertThat(SJRuntime.transportOf(s)).isEqualTo("tcp");
                    } catch (SJIOException e) {
                        System.out.printf("FAULTS %s memory directory: session %d refused in %d ms: %s%n", kind, i,
                                FaultSupport.millisSince(start), e.getMessage());
                        assertThat(ipcOnly).as("refused (%s) although tcp could carry it", e.getMessage()).isTrue();
                        assertThat(e.getMessage()).as("names the cause").containsIgnoringCase("space");
                    }
                    assertThat(FaultSupport.millisSince(start)).as("session %d", i).isLessThan(FULL_BOUND_MILLIS);
                }
                if (ipcOnly) {
                    peer.kill();
                }
                peer.process.waitFor(10, TimeUnit.SECONDS);
                assertThat(peer.output.toString()).as("the peer did not crash")
                        .doesNotContain("SIGBUS", "hs_err", "InternalError", "fatal error");
                assertThat(list(mount)).as("files left in the memory directory").isSubsetOf(before);
            }
            FaultSupport.Snapshot.take().assertNothingLeakedSince(leaks, 8);
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
