package org.sessionj.transport.ipc;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The requester's memories of closed connections, kept for the next connection (docs/ipc-transport.md,
 * "Reusing memory"). A fresh memory costs a file written through (2 MiB by default, about a
 * millisecond) and a mapping; a reused one only the clean-up of what its rings still hold, and the
 * accepter's mapping of a file that is already there.
 *
 * <p>A memory is reused only once both ends said they are done with it ({@link IpcMemory#isDone}),
 * so no stale end can write into a new connection; one whose peer has not said so yet stays in the
 * pool until it does or until newer memories push it out. Its file therefore stays at its path while
 * the memory lives in this JVM (an accepter maps it by path), and goes when it is pushed out, when the
 * JVM exits (a shutdown hook), or, after a crash, when a later JVM sweeps the directory for files of
 * processes that no longer run ({@link #sweepOnce}: on its first ipc connection or acceptor there,
 * and again once files that were too young to be swept then have aged).
 *
 * <p>One pool per memory directory and ring size in a JVM; {@code capacity} 0 keeps nothing, and the
 * requester then unlinks every file as soon as the accepter has mapped it. So the files a JVM keeps in
 * the directory once its connections are closed are at most {@code capacity} per pool; while
 * connections are open, one more per open connection.
 */
final class MemoryPool {
    private static final System.Logger LOG = System.getLogger(MemoryPool.class.getName());
    private static final Map<String, MemoryPool> POOLS = new ConcurrentHashMap<>();
    /** Every file this JVM keeps at its path, deleted at exit. */
    private static final Set<Path> LINKED = ConcurrentHashMap.newKeySet();
    private static final Set<Path> SWEPT = ConcurrentHashMap.newKeySet();
    /**
     * Per directory, when ({@code System.nanoTime()}) to sweep again: a sweep that found files of ended
     * processes too young to be removed (below) comes back for them once they are old enough.
     */
    private static final Map<Path, Long> SWEEP_AGAIN_AT = new ConcurrentHashMap<>();
    /** Files younger than this are never swept: twice the longest a set-up exchange may take. */
    private static final long SWEEP_AGE_MILLIS = 20_000;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(MemoryPool::deleteLinked, "sj-ipc-memory-cleanup"));
    }

    private final Path directory;
    private final int ringBytes;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    /** Memories of closed connections, oldest first; guarded by {@link #lock}. */
    private final ArrayDeque<IpcMemory> idle = new ArrayDeque<>();
    private volatile long reused;

    private MemoryPool(Path directory, int ringBytes, int capacity) {
        this.directory = directory;
        this.ringBytes = ringBytes;
        this.capacity = capacity;
    }

    /** The JVM's pool for {@code settings}' memory directory and ring size. */
    static MemoryPool of(IpcSettings settings) {
        Path directory = settings.memoryDirectory().toAbsolutePath().normalize();
        return POOLS.computeIfAbsent(directory + "|" + settings.ringBytes() + "|" + settings.poolSize(),
                key -> new MemoryPool(directory, settings.ringBytes(), settings.poolSize()));
    }

    /** Whether this pool keeps memories (else files are unlinked as soon as both ends mapped them). */
    boolean enabled() {
        return capacity > 0;
    }

    /** How many memories were handed out again (for tests and benchmarks). */
    long reused() {
        return reused;
    }

    /**
     * A memory for a new connection: the oldest idle one both of whose ends are done, made clean, or
     * else a fresh one (its file at its path).
     */
    IpcMemory take() throws IOException {
        sweepOnce(directory);
        if (enabled()) {
            IpcMemory memory = reusable();
            if (memory != null) {
                reused++;
                return memory;
            }
        }
        IpcMemory.Created created = IpcMemory.create(directory, ringBytes);
        if (enabled()) {
            LINKED.add(created.file());
        }
        return created.memory();
    }

    private IpcMemory reusable() {
        lock.lock();
        try {
            for (Iterator<IpcMemory> it = idle.iterator(); it.hasNext(); ) {
                IpcMemory memory = it.next();
                try {
                    if (memory.isDone(0) && memory.isDone(1)) {
                        it.remove();
                        if (memory.reset() && Files.exists(memory.file())) {
                            return memory;
                        }
                        drop(memory); // damaged, or its file was removed under us
                    }
                } catch (InternalError e) { // its file was truncated under us (MemoryFault)
                    it.remove();
                    drop(memory);
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The requester's end of a connection over {@code memory} is done with it: keep it for a later
     * connection, unless its peer ended without saying it is done (its process died), which would leave
     * the memory in an unknown state.
     */
    void release(IpcMemory memory, boolean peerVanished) {
        if (!enabled() || memory.file() == null) {
            memory.unmap();
            return;
        }
        try {
            if (peerVanished && !memory.isDone(0)) {
                drop(memory);
                return;
            }
        } catch (InternalError e) { // its file was truncated under us (MemoryFault)
            drop(memory);
            return;
        }
        IpcMemory oldest = null;
        lock.lock();
        try {
            idle.addLast(memory);
            if (idle.size() > capacity) {
                oldest = idle.pollFirst();
            }
        } finally {
            lock.unlock();
        }
        if (oldest != null) {
            drop(oldest);
        }
    }

    /**
     * Forgets {@code memory}, which no connection uses any more: its file goes, and its mapping
     * ({@link IpcMemory#unmap}: at once on JDK 22+, else when the garbage collector frees it).
     */
    void drop(IpcMemory memory) {
        memory.unmap();
        unlink(memory);
    }

    /** Removes {@code memory}'s file from its path; the memory lives on while it is mapped (both ends mapped it). */
    void unlink(IpcMemory memory) {
        Path file = memory.file();
        if (file == null) {
            return;
        }
        LINKED.remove(file);
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot delete ipc memory file {0}: {1}", file, e.getMessage());
        }
    }

    private static void deleteLinked() {
        for (Path file : LINKED) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // exiting: nothing more to do; the next JVM's sweep finds it
            }
        }
    }

    /**
     * Removes the memory files of processes that no longer run from {@code directory}: on this JVM's
     * first call for it, and again on a later call once files that were too young to be removed have
     * aged (a JVM started right after another was killed finds the dead one's files a few seconds old).
     */
    static int sweepOnce(Path directory) {
        Path dir = directory; // absolute and normal (as the pools' and the acceptors' directories are)
        if (SWEPT.add(dir)) {
            return sweepAndSchedule(dir);
        }
        Long again = SWEEP_AGAIN_AT.get(dir);
        if (again != null && System.nanoTime() - again >= 0 && SWEEP_AGAIN_AT.remove(dir, again)) {
            return sweepAndSchedule(dir);
        }
        return 0;
    }

    private static int sweepAndSchedule(Path directory) {
        long[] youngest = {Long.MAX_VALUE};
        int removed = sweep(directory, youngest);
        if (youngest[0] != Long.MAX_VALUE) {
            long wait = Math.max(0, SWEEP_AGE_MILLIS - youngest[0]) + 100;
            SWEEP_AGAIN_AT.put(directory, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(wait));
        }
        return removed;
    }

    /** Removes the memory files in {@code directory} whose creating process no longer runs. */
    static int sweep(Path directory) {
        return sweep(directory, new long[] {Long.MAX_VALUE});
    }

    /**
     * As {@link #sweep(Path)}; {@code oldestYoung[0]} becomes the age in milliseconds of the oldest file of
     * an ended process that was too young to be removed, if any (then a later sweep may remove it).
     */
    private static int sweep(Path directory, long[] oldestYoung) {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory,
                IpcMemory.FILE_PREFIX + "*" + IpcMemory.FILE_SUFFIX)) {
            for (Path file : files) {
                long pid = pidOf(file.getFileName().toString());
                if (pid <= 0 || ProcessHandle.of(pid).isPresent()) {
                    continue;
                }
                long age = ageMillis(file);
                if (age <= SWEEP_AGE_MILLIS) {
                    oldestYoung[0] = oldestYoung[0] == Long.MAX_VALUE ? age : Math.max(oldestYoung[0], age);
                    continue;
                }
                try {
                    Files.deleteIfExists(file);
                    removed++;
                } catch (IOException e) {
                    // another user's, or gone meanwhile
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot sweep ipc memory files in {0}: {1}", directory, e.getMessage());
        }
        if (removed > 0) {
            LOG.log(System.Logger.Level.INFO, "removed {0} ipc memory file(s) in {1} left by processes that ended"
                    + " without deleting them", removed, directory);
        }
        return removed;
    }

    /**
     * How long ago {@code file} was last changed (0 if that cannot be read): a file changed within
     * {@link #SWEEP_AGE_MILLIS} may be being handed over right now (its creator may live in another
     * process id namespace, where its id means nothing here), so it is not swept yet.
     */
    private static long ageMillis(Path file) {
        try {
            return Math.max(0, System.currentTimeMillis() - Files.getLastModifiedTime(file).toMillis());
        } catch (IOException e) {
            return 0;
        }
    }

    /** The process id in {@code sessionj-ipc-<pid>-<random>.ring}, or -1 if the name is not of that form. */
    static long pidOf(String name) {
        int start = IpcMemory.FILE_PREFIX.length();
        int end = name.indexOf('-', start);
        if (!name.startsWith(IpcMemory.FILE_PREFIX) || end <= start) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(start, end));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
