package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.testing.ProcessLines;
import org.sessionj.transport.tls.Certificates;

/**
 * What the fault tests share: peer JVMs (started with this JVM's class path, killed or stopped by
 * signal), the ipc directories of this suite (private, under target/, never the machine's shared
 * /dev/shm), TLS key material, and snapshots of what this JVM holds (threads, file descriptors,
 * direct memory, ipc files) to compare before and after a fault.
 */
final class FaultSupport {
    /** One ping session with the peer's ping server: 7 out, 8 back. */
    static void ping(SJService service) {
        try (SJSocket s = service.request()) {
            s.send(7);
            assertThat(s.receiveInt()).isEqualTo(8);
        }
    }

    /** How long any single wait of the suite may take before it fails. */
    static final long PATIENCE_SECONDS = 120;
    static final Path IPC_DIR = Path.of(System.getProperty("sessionj.ipc.dir", "target/faults/ipc-sockets"));
    static final Path MEMORY_DIR = Path.of(System.getProperty("sessionj.ipc.memoryDir", "target/faults/ipc-memory"));
    /**
     * The documented bound of an ipc requester's pool of memories of closed connections
     * ({@code sessionj.ipc.pool}, docs/ipc-transport.md "Reusing memory"): the ring files a JVM may keep
     * in the memory directory once its connections are closed.
     */
    static final int POOL_BOUND = Integer.getInteger("sessionj.ipc.pool", 4);
    private static Path tlsDir;

    static {
        // The peers inherit this JVM's sessionj.* properties (inheritedProperties): the directories this suite
        // looks in must be among them, also when it runs outside the faults profile (which sets them), as with
        // -Dtest=IpcFilesFaultTest. Before, such a run's peers made their files in the machine's default
        // directory (/dev/shm) while this JVM counted those in target/faults: "0 pooled files after 200 sessions".
        System.setProperty("sessionj.ipc.dir", IPC_DIR.toAbsolutePath().toString());
        System.setProperty("sessionj.ipc.memoryDir", MEMORY_DIR.toAbsolutePath().toString());
        try {
            // The ipc transport expects its directories to exist, and its socket directory to be closed to
            // other users (rwx------): it refuses to listen in one that is not.
            for (Path dir : List.of(IPC_DIR, MEMORY_DIR)) {
                Files.createDirectories(dir);
                Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private FaultSupport() {
    }

    /** The sessionj.* and sj.* system properties a peer JVM inherits (ipc directories, TLS files, timeouts). */
    static List<String> inheritedProperties() {
        List<String> options = new ArrayList<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("sessionj.") || name.startsWith("sj.")) {
                options.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        return options;
    }

    /** Makes self-signed TLS material once and points the sessionj.tls.* properties of this JVM (and peers) at it. */
    static synchronized void configureTls() throws IOException {
        if (tlsDir == null) {
            tlsDir = Files.createDirectories(Path.of("target/faults/tls"));
            List<Path> files = Certificates.write(Certificates.selfSigned("localhost", Certificates.localhostNames()), tlsDir);
            System.setProperty("sessionj.tls.cert", files.get(0).toString());
            System.setProperty("sessionj.tls.key", files.get(1).toString());
            System.setProperty("sessionj.tls.trust", files.get(0).toString());
        }
    }

    /** A runtime of this JVM on {@code transports}, configured like the peers (sessionj.* properties). */
    static SJRuntime runtime(String transports, String... extra) {
        Properties properties = new Properties();
        properties.putAll(System.getProperties());
        properties.setProperty("sessionj.transports", transports);
        for (int i = 0; i + 1 < extra.length; i += 2) {
            properties.setProperty(extra[i], extra[i + 1]);
        }
        return SJRuntime.create(SJRuntimeConfig.fromProperties(properties));
    }

    /** A peer JVM running {@link FaultPeer} with {@code args}; its output is collected line by line. */
    static Peer start(List<String> jvmOptions, String... args) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xmx256m", "--enable-native-access=ALL-UNNAMED"));
        command.addAll(inheritedProperties());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), FaultPeer.class.getName()));
        command.addAll(List.of(args));
        Peer peer = new Peer(new ProcessBuilder(command).redirectErrorStream(true).start());
        PEERS.add(peer.process);
        return peer;
    }

    /** Every peer started, killed when this JVM exits (a test stopped by its timeout must not leave one). */
    private static final List<Process> PEERS = new java.util.concurrent.CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> PEERS.forEach(Process::destroyForcibly)));
    }

    /** A peer JVM. */
    static final class Peer implements AutoCloseable {
        final Process process;
        final ProcessLines output;

        Peer(Process process) {
            this.process = process;
            this.output = new ProcessLines(process, "the peer");
        }

        /** The rest of the next line starting with {@code prefix}; fails with the peer's output. */
        String next(String prefix) throws InterruptedException {
            return output.next(prefix, PATIENCE_SECONDS);
        }

        int port() throws InterruptedException {
            return Integer.parseInt(next("PORT ").strip());
        }

        /** kill -9. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(PATIENCE_SECONDS, TimeUnit.SECONDS);
        }

        /** Sends {@code signal} (STOP, CONT) with kill(1). */
        void signal(String signal) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
            assertThat(kill.waitFor()).as("kill -%s", signal).isZero();
        }

        /** Threads of the peer, from /proc. */
        int threads() throws IOException {
            return Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status")).stream()
                    .filter(l -> l.startsWith("Threads:")).mapToInt(l -> Integer.parseInt(l.substring(8).strip()))
                    .findFirst().orElse(-1);
        }

        /** Resident memory of the peer in KiB, from /proc. */
        long rssKib() throws IOException {
            return Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status")).stream()
                    .filter(l -> l.startsWith("VmRSS:")).mapToLong(l -> Long.parseLong(l.substring(6).replace("kB", "").strip()))
                    .findFirst().orElse(-1);
        }

        /** Open file descriptors of the peer, from /proc. */
        long fds() throws IOException {
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(process.pid()), "fd"))) {
                return fds.count();
            }
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                try {
                    signal("CONT");
                } catch (IOException e) {
                    // kill -9 below works on a stopped process too
                }
                kill();
            }
        }
    }

    /** What this JVM holds: live threads (by name), open file descriptors, direct memory, ipc files. */
    record Snapshot(Set<String> threads, long fds, long directBytes, long nettyDirectBytes, Set<String> ipcFiles) {

        static Snapshot take() {
            Set<String> threads = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                    .map(Thread::getName).collect(Collectors.toCollection(TreeSet::new));
            long direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                    .filter(pool -> pool.getName().equals("direct")).mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
            return new Snapshot(threads, openFds(), direct, PlatformDependent.usedDirectMemory(), listIpcFiles());
        }

        /**
         * Asserts that nothing leaked since {@code before}: no more threads (named as before, so a pool that
         * merely started is allowed once, not per session), file descriptors within {@code slack}, direct
         * memory within 16 MiB, no ipc files left behind. Closes that finish asynchronously (a buffer freed by
         * its cleaner, a thread ending) get up to 10 s: between looks it waits for a garbage collection to
         * have run (the event that frees direct buffers), not for a fixed time.
         */
        void assertNothingLeakedSince(Snapshot before, int fdSlack) throws InterruptedException {
            Snapshot now = this;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!now.leakFree(before, fdSlack) && System.nanoTime() - deadline < 0) {
                awaitGarbageCollection(deadline);
                now = take();
            }
            assertThat(now.threads().size()).as("threads now %s, before %s", now.threads(), before.threads())
                    .isLessThanOrEqualTo(before.threads().size() + 2);
            assertThat(now.fds()).as("open file descriptors").isLessThanOrEqualTo(before.fds() + fdSlack);
            assertThat(now.directBytes() - before.directBytes()).as("JDK direct buffers").isLessThan(16L << 20);
            assertThat(now.nettyDirectBytes() - before.nettyDirectBytes()).as("Netty direct memory")
                    .isLessThan(16L << 20);
            assertThat(now.unexplainedIpcFiles(before)).as("ipc files left behind (%s)", describeIpcFiles(now.ipcFiles()))
                    .isEmpty();
            assertThat(ringFilesOf(ProcessHandle.current().pid())).as("this JVM's ring files (the pool's bound %d)",
                    POOL_BOUND).hasSizeLessThanOrEqualTo(POOL_BOUND);
        }

        /**
         * Asks for a garbage collection and waits (until {@code deadline} at most) for it to have cleared a
         * weak reference to an object dropped here: by then the collector has found what was unreachable, and
         * the cleaners of direct buffers run on the same reference processing.
         */
        private static void awaitGarbageCollection(long deadline) throws InterruptedException {
            java.lang.ref.ReferenceQueue<Object> cleared = new java.lang.ref.ReferenceQueue<>();
            java.lang.ref.WeakReference<Object> probe = new java.lang.ref.WeakReference<>(new Object(), cleared);
            System.gc();
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left > 0) {
                cleared.remove(left);
            }
            java.lang.ref.Reference.reachabilityFence(probe);
        }

        private boolean leakFree(Snapshot before, int fdSlack) {
            return threads.size() <= before.threads.size() + 2 && fds <= before.fds + fdSlack
                    && directBytes - before.directBytes < (16L << 20) && unexplainedIpcFiles(before).isEmpty();
        }

        /**
         * The ipc files now there that were not before and are not memories this JVM's pool keeps for
         * reuse (a ring file of this process that it still maps: the pool turns its files over as it
         * reuses and replaces memories, within its bound, which the caller checks).
         */
        Set<String> unexplainedIpcFiles(Snapshot before) {
            long pid = ProcessHandle.current().pid();
            Set<String> mapped = mappedFiles(pid);
            return ipcFiles.stream().filter(f -> !before.ipcFiles.contains(f))
                    .filter(f -> !(isRingFileOf(Path.of(f), pid) && mapped.contains(canonical(Path.of(f)))))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** Whether {@code file} is an ipc memory file of process {@code pid} ({@code sessionj-ipc-<pid>-*.ring}). */
    static boolean isRingFileOf(Path file, long pid) {
        String name = file.getFileName().toString();
        return name.startsWith("sessionj-ipc-" + pid + "-") && name.endsWith(".ring");
    }

    /** The ring files of process {@code pid} in this suite's memory directory. */
    static List<Path> ringFilesOf(long pid) {
        if (!Files.isDirectory(MEMORY_DIR)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(MEMORY_DIR)) {
            return list.filter(p -> isRingFileOf(p, pid)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files process {@code pid} maps, from /proc/<pid>/maps (empty if it is gone). */
    static Set<String> mappedFiles(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps")).stream()
                    .map(line -> line.indexOf('/') < 0 ? "" : line.substring(line.indexOf('/')))
                    .filter(name -> !name.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            return Set.of();
        }
    }

    /** The path as /proc/<pid>/maps names it. */
    private static String canonical(Path file) {
        try {
            return file.toRealPath().toString();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize().toString();
        }
    }

    /** Each of {@code files} with its size, age and whether this JVM maps it: what a leftover file is. */
    static String describeIpcFiles(Set<String> files) {
        Set<String> mapped = mappedFiles(ProcessHandle.current().pid());
        List<String> described = new ArrayList<>();
        for (String f : files) {
            Path p = Path.of(f);
            try {
                described.add(p.getFileName() + " (" + Files.size(p) + " bytes, changed "
                        + (System.currentTimeMillis() - Files.getLastModifiedTime(p).toMillis()) + " ms ago, "
                        + (mapped.contains(canonical(p)) ? "mapped" : "not mapped")
                        + " by this JVM " + ProcessHandle.current().pid() + ")");
            } catch (IOException e) {
                described.add(p.getFileName() + " (gone)");
            }
        }
        return String.join(", ", described);
    }

    static long openFds() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files in this suite's ipc socket and memory directories. */
    static Set<String> listIpcFiles() {
        Set<String> files = new TreeSet<>();
        for (Path dir : List.of(IPC_DIR, MEMORY_DIR)) {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> list = Files.list(dir)) {
                    list.forEach(p -> files.add(p.toString()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return files;
    }

    /** Milliseconds since {@code startNanos}. */
    static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
