package org.sessionj.transport.ipc;

import java.nio.file.Files;
import java.nio.file.Path;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * The settings of the cross-process transport, from system properties (docs/ipc-transport.md).
 *
 * @param ringBytes data bytes of each direction's ring, a power of two ({@code sessionj.ipc.ringBytes}, default 1 MiB)
 * @param maxFrameBytes the largest frame either side may send or accept ({@code sessionj.ipc.maxFrame}, default 64 MiB)
 * @param spins polls of an empty ring before a reader sleeps ({@code sessionj.ipc.spins}, default 200)
 * @param yields polls of an empty ring, each after a {@link Thread#yield}, once spinning found nothing and
 *     before the reader sleeps ({@code sessionj.ipc.yields}, default 20)
 * @param socketDirectory where acceptors listen, one Unix socket per port ({@code sessionj.ipc.dir},
 *     default {@code ${java.io.tmpdir}/sessionj-ipc-<user>}); both peers must use the same
 * @param memoryDirectory where the shared ring files are created and unlinked again
 *     ({@code sessionj.ipc.memoryDir}, default {@code /dev/shm} when writable, else {@code java.io.tmpdir})
 * @param backlogBytes bytes written but not yet in the ring (the reader is behind) above which a writer
 *     waits, up to its send timeout, as on TCP ({@code sessionj.ipc.backlogBytes}, default 4 MiB)
 * @param poolSize memories of closed connections a requester keeps for its next connections
 *     ({@code sessionj.ipc.pool}, default 4; 0: none, every file is unlinked once both ends mapped it)
 * @param cpus the CPUs this JVM may run on ({@link Runtime#availableProcessors()}): a reader spins only
 *     with more than one (a core may be free for the writer) and yields only with one (the writer
 *     certainly shares its core)
 * @param spinNanos how long, at most, a reader whose recent frames came that quickly goes on polling
 *     once its spins found nothing, while a core is free ({@code sessionj.ipc.spinMicros}, default 100 µs;
 *     0: never; docs/ipc-transport.md)
 * @param cores whether a core is free now (this machine's run queue; a fake in tests)
 */
record IpcSettings(int ringBytes, int maxFrameBytes, int spins, int yields, Path socketDirectory, Path memoryDirectory,
        int backlogBytes, int poolSize, int cpus, long spinNanos, FreeCores cores) {
    static final int MIN_RING = 4096;

    IpcSettings {
        if (ringBytes < MIN_RING || Integer.bitCount(ringBytes) != 1) {
            throw new IllegalArgumentException("sessionj.ipc.ringBytes must be a power of two of at least " + MIN_RING
                    + ", found " + ringBytes);
        }
        if (maxFrameBytes <= 0) {
            throw new IllegalArgumentException("sessionj.ipc.maxFrame must be positive, found " + maxFrameBytes);
        }
        if (backlogBytes <= 0) {
            throw new IllegalArgumentException("sessionj.ipc.backlogBytes must be positive, found " + backlogBytes);
        }
        if (poolSize < 0) {
            throw new IllegalArgumentException("sessionj.ipc.pool must not be negative, found " + poolSize);
        }
        if (spins < 0) {
            throw new IllegalArgumentException("sessionj.ipc.spins must not be negative, found " + spins);
        }
        if (yields < 0) {
            throw new IllegalArgumentException("sessionj.ipc.yields must not be negative, found " + yields);
        }
        java.util.Objects.requireNonNull(cores, "cores");
        if (spinNanos < 0) {
            throw new IllegalArgumentException("sessionj.ipc.spinMicros must not be negative, found " + spinNanos / 1000);
        }
    }

    /** The settings the system properties give. */
    static IpcSettings fromSystemProperties() {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        SystemSettings settings = SystemSettings.system();
        Path shm = Path.of("/dev/shm");
        return new IpcSettings(
                settings.integer("ipc.ringBytes", 1 << 20),
                settings.integer("ipc.maxFrame", 64 << 20),
                settings.integer("ipc.spins", 200),
                settings.integer("ipc.yields", 20),
                settings.value("ipc.dir").map(Path::of).orElseGet(() -> tmp.resolve("sessionj-ipc-" + user)),
                settings.value("ipc.memoryDir").map(Path::of)
                        .orElseGet(() -> Files.isDirectory(shm) && Files.isWritable(shm) ? shm : tmp),
                settings.integer("ipc.backlogBytes", 4 << 20),
                settings.integer("ipc.pool", 4),
                Runtime.getRuntime().availableProcessors(),
                settings.integer("ipc.spinMicros", 100) * 1000L,
                FreeCores.SYSTEM);
    }

    /** The same settings with {@code spins} polls before sleeping. */
    IpcSettings withSpins(int spins) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, memoryDirectory, backlogBytes, poolSize, cpus,
                spinNanos, cores);
    }

    /** The same settings with {@code yields} polls after a yield before sleeping. */
    IpcSettings withYields(int yields) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, memoryDirectory, backlogBytes, poolSize, cpus,
                spinNanos, cores);
    }

    /** The same settings as seen by a JVM that may run on {@code cpus} CPUs. */
    IpcSettings withCpus(int cpus) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, memoryDirectory, backlogBytes, poolSize, cpus,
                spinNanos, cores);
    }

    /** The same settings polling at most {@code micros} µs longer while a core is free. */
    IpcSettings withSpinMicros(int micros) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, memoryDirectory, backlogBytes, poolSize, cpus,
                micros * 1000L, cores);
    }

    /** The same settings asking {@code cores} whether a core is free. */
    IpcSettings withCores(FreeCores cores) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, memoryDirectory, backlogBytes, poolSize, cpus,
                spinNanos, cores);
    }

    /** The same settings with rings of {@code ringBytes}. */
    IpcSettings withRingBytes(int ringBytes) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, memoryDirectory, backlogBytes, poolSize, cpus,
                spinNanos, cores);
    }

    /** The same settings with a backlog bound of {@code bytes}. */
    IpcSettings withBacklogBytes(int bytes) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, memoryDirectory, bytes, poolSize, cpus,
                spinNanos, cores);
    }

    /** The same settings keeping {@code size} memories of closed connections. */
    IpcSettings withPoolSize(int size) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, memoryDirectory, backlogBytes, size, cpus,
                spinNanos, cores);
    }

    /** The same settings with memory files in {@code directory}. */
    IpcSettings withMemoryDirectory(Path directory) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, socketDirectory, directory, backlogBytes, poolSize, cpus,
                spinNanos, cores);
    }

    /** The same settings with Unix sockets in {@code directory}. */
    IpcSettings withSocketDirectory(Path directory) {
        return new IpcSettings(ringBytes, maxFrameBytes, spins, yields, directory, memoryDirectory, backlogBytes, poolSize, cpus,
                spinNanos, cores);
    }
}
