package org.sessionj.transport.ipc;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Removes what killed processes left in an ipc socket directory: a {@code <port>.lock} whose lock
 * nobody holds (locks die with their process) and its {@code <port>.sock}. Done once per directory
 * and JVM, when the first acceptor there opens; a live acceptor's files are never touched (it holds
 * its lock, in this JVM or another).
 */
final class StaleFiles {
    private static final System.Logger LOG = System.getLogger(StaleFiles.class.getName());
    private static final Set<Path> SWEPT = ConcurrentHashMap.newKeySet();
    /**
     * The lock files some code of this JVM has open. A JVM's locks on a file are POSIX record locks of the
     * process, and closing <em>any</em> channel of the process to that file drops them all: so no
     * second channel may ever open a lock file this JVM holds (a sweep or a bind that merely looked at
     * it would hand a live acceptor's port to the next process). Whoever opens one reserves it first.
     */
    private static final Set<Path> OPEN_LOCKS = ConcurrentHashMap.newKeySet();

    private StaleFiles() {
    }

    /** Sweeps {@code dir} if this JVM has not yet; returns how many ports' files it removed. */
    static int sweepOnce(Path dir) {
        return SWEPT.add(dir.toAbsolutePath().normalize()) ? sweep(dir) : 0;
    }

    /** Removes the files of every port in {@code dir} whose lock nobody holds. */
    static int sweep(Path dir) {
        int removed = 0;
        try (DirectoryStream<Path> locks = Files.newDirectoryStream(dir, "*.lock")) {
            for (Path lockPath : locks) {
                String name = lockPath.getFileName().toString();
                String port = name.substring(0, name.length() - ".lock".length());
                if (!port.chars().allMatch(Character::isDigit) || port.isEmpty()) {
                    continue; // not ours
                }
                if (removeIfUnlocked(lockPath, dir.resolve(port + ".sock"))) {
                    removed++;
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot sweep stale ipc files in {0}: {1}", dir, e.getMessage());
        }
        if (removed > 0) {
            LOG.log(System.Logger.Level.INFO, "removed the ipc socket and lock files of {0} port(s) in {1} left by"
                    + " processes that ended without closing them", removed, dir);
        }
        return removed;
    }

    /**
     * Reserves {@code lockPath} for the caller, who may then open it; false if code of this JVM has
     * it open (then its port is this JVM's, and not free).
     */
    static boolean reserve(Path lockPath) {
        return OPEN_LOCKS.add(lockPath.toAbsolutePath().normalize());
    }

    /** Gives {@code lockPath} up, after closing every channel the caller opened to it. */
    static void unreserve(Path lockPath) {
        OPEN_LOCKS.remove(lockPath.toAbsolutePath().normalize());
    }

    private static boolean removeIfUnlocked(Path lockPath, Path socketPath) {
        if (!reserve(lockPath)) {
            return false; // this JVM's own port
        }
        try {
            return removeIfUnlockedReserved(lockPath, socketPath);
        } finally {
            unreserve(lockPath);
        }
    }

    private static boolean removeIfUnlockedReserved(Path lockPath, Path socketPath) {
        try (FileChannel file = FileChannel.open(lockPath, StandardOpenOption.WRITE)) {
            FileLock lock;
            try {
                lock = file.tryLock();
            } catch (OverlappingFileLockException e) {
                return false; // an acceptor of this JVM holds it
            }
            if (lock == null) {
                return false; // a live process holds it
            }
            try {
                // Nobody owns the port: whatever is there was left by a process that died.
                Files.deleteIfExists(socketPath);
                Files.deleteIfExists(lockPath);
                return true;
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            return false; // gone meanwhile, or not ours to touch
        }
    }
}
