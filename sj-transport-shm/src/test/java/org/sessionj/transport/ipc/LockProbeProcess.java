package org.sessionj.transport.ipc;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A second JVM that tries to lock the file {@code args[0]} and prints {@code free} or {@code held}. */
public final class LockProbeProcess {
    private LockProbeProcess() {
    }

    public static void main(String[] args) throws Exception {
        try (FileChannel file = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE)) {
            FileLock lock = file.tryLock();
            System.out.println(lock == null ? "held" : "free");
        }
    }
}
