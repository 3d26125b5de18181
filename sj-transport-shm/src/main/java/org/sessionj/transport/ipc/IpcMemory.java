package org.sessionj.transport.ipc;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The memory two processes share for one connection: a header and one ring per direction, mapped
 * from a file (docs/ipc-transport.md has the layout). The requester creates and initialises it, the
 * accepter maps and checks it, and the requester unlinks the file once both have mapped it: the
 * memory lives on until both have unmapped it. Each end unmaps as soon as it is done with the memory
 * ({@link #unmap}: at once on JDK 22 and newer, {@link Mapping}; by the garbage collector on JDK 21).
 */
final class IpcMemory {
    /** 'SJIP'. */
    static final int MAGIC = 0x534A4950;
    static final int VERSION = 1;
    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int RING_BYTES_OFFSET = 8;
    /** The sleeping flag of the reader of ring {@code d} (0: requester → accepter, 1: accepter → requester), a cache line each. */
    static final int SLEEPING_OFFSET = 64;
    /**
     * The done flag of the end that reads ring {@code d} (at {@code DONE_OFFSET + 4 d}): set once that end
     * will never touch the memory again (its writer closed, its reader quiet). A requester reuses a
     * memory only when both are set ({@link MemoryPool}); an end of an older runtime never sets it.
     */
    static final int DONE_OFFSET = 192;
    static final int HEADER_BYTES = 256;

    private static final java.nio.file.attribute.FileAttribute<?> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final ByteBuffer header;
    private final int ringBytes;
    private final Mapping mapping;
    private final ByteBuffer mapped;
    /** The file mapped, while it may still be at its path (the requester's end), else null. */
    private final Path file;
    /** The accepter's end: the path the peer named and the identity of the file mapped there, else null. */
    private final Path peerFile;
    private final Object peerFileKey;

    private IpcMemory(Mapping mapping, int ringBytes, Path file, Path peerFile, Object peerFileKey) {
        this.mapping = mapping;
        this.mapped = mapping.buffer();
        this.ringBytes = ringBytes;
        this.file = file;
        this.peerFile = peerFile;
        this.peerFileKey = peerFileKey;
        this.header = mapped.slice(0, HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
    }

    /** The size of the file for rings of {@code ringBytes}. */
    static long fileBytes(int ringBytes) {
        return HEADER_BYTES + 2L * (ringBytes + SharedRing.TRAILER);
    }

    /** The name of every memory file this process creates: {@code sessionj-ipc-<pid>-<random>.ring}. */
    static final String FILE_PREFIX = "sessionj-ipc-";
    static final String FILE_SUFFIX = ".ring";

    /** Creates, sizes, maps and initialises a fresh file in {@code directory}. */
    static Created create(Path directory, int ringBytes) throws IOException {
        // Not Files.createTempFile: its SecureRandom costs tens of milliseconds on first use in each JVM.
        Path file = directory.resolve(FILE_PREFIX + ProcessHandle.current().pid() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + FILE_SUFFIX);
        try {
            long size = fileBytes(ringBytes);
            Mapping mapped;
            try (FileChannel channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE), OWNER_ONLY)) {
                allocate(channel, size);
                mapped = Mapping.map(channel, size);
            }
            IpcMemory memory = new IpcMemory(mapped, ringBytes, file, null, null);
            memory.header.putInt(RING_BYTES_OFFSET, ringBytes);
            memory.header.putInt(VERSION_OFFSET, VERSION);
            memory.header.putInt(MAGIC_OFFSET, MAGIC);
            return new Created(file, memory);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw e; // not ours to delete
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * Writes zeros through the whole file instead of only setting its length: a sparse file in a full
     * {@code /dev/shm} would kill the process with SIGBUS on first touch of a page; a write fails
     * with an {@link IOException} (no space left) instead.
     */
    private static void allocate(FileChannel channel, long size) throws IOException {
        java.nio.ByteBuffer zeros = java.nio.ByteBuffer.allocateDirect(64 * 1024);
        for (long position = 0; position < size; ) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), size - position));
            position += channel.write(zeros, position);
        }
    }

    /** A fresh memory and its file (to unlink once the peer has mapped it). */
    record Created(Path file, IpcMemory memory) {
    }

    /**
     * Maps the file a requester created and checks its header.
     *
     * @throws IOException naming what is wrong if it is not the memory of an SJ ipc connection
     */
    static IpcMemory map(Path file, int maxRingBytes) throws IOException {
        // The path is the peer's word: never create a file, follow a link, or map anything but a regular file.
        if (!file.isAbsolute()) {
            throw new IOException("not SJ ipc shared memory: " + file + " is not an absolute path");
        }
        if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("not SJ ipc shared memory: " + file + (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    ? " is not a regular file" : " does not exist"));
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            long size = channel.size();
            if (size < HEADER_BYTES) {
                throw new IOException("not SJ ipc shared memory: " + file + " has " + size + " bytes, less than the "
                        + HEADER_BYTES + "-byte header");
            }
            long largest = fileBytes(maxRingBytes);
            if (size > largest || size > Integer.MAX_VALUE) {
                throw new IOException("not SJ ipc shared memory: " + file + " has " + size + " bytes, more than the "
                        + Math.min(largest, Integer.MAX_VALUE) + " of the largest rings this side takes");
            }
            Mapping mapping = Mapping.map(channel, size);
            try {
                return checked(mapping, file, size, maxRingBytes);
            } catch (IOException | RuntimeException e) {
                mapping.unmap();
                throw e;
            }
        }
    }

    /** The accepter's memory over {@code mapping} of {@code file}, once its header says it is one. */
    private static IpcMemory checked(Mapping mapping, Path file, long size, int maxRingBytes) throws IOException {
        ByteBuffer header = mapping.buffer().slice(0, HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
        int magic = header.getInt(MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw new IOException(String.format("not SJ ipc shared memory: %s has magic 0x%08X, expected 0x%08X",
                    file, magic, MAGIC));
        }
        int version = header.getInt(VERSION_OFFSET);
        if (version != VERSION) {
            throw new IOException("unsupported SJ ipc shared memory version " + version + " in " + file
                    + "; this runtime speaks " + VERSION);
        }
        int ringBytes = header.getInt(RING_BYTES_OFFSET);
        if (ringBytes < IpcSettings.MIN_RING || Integer.bitCount(ringBytes) != 1 || ringBytes > maxRingBytes
                || size != fileBytes(ringBytes)) {
            throw new IOException("bad SJ ipc shared memory header in " + file + ": rings of " + ringBytes
                    + " bytes (a power of two from " + IpcSettings.MIN_RING + " to " + maxRingBytes
                    + ") in a file of " + size + " bytes");
        }
        Object key = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS).fileKey();
        IpcMemory memory = new IpcMemory(mapping, ringBytes, null, file, key);
        for (int direction = 0; direction < 2; direction++) {
            try {
                memory.ring(direction);
            } catch (SharedRing.CorruptRingException e) {
                throw new IOException("bad SJ ipc shared memory in " + file + ": ring " + direction + " has "
                        + e.getMessage());
            }
        }
        return memory;
    }

    /**
     * This end is done with the memory: unmaps it now (JDK 22+). Only once nothing of this JVM reads or
     * writes its rings any more ({@link IpcConnection}'s close, {@link MemoryPool}); an access of it
     * afterwards throws {@link IllegalStateException}, never touches unmapped memory.
     */
    void unmap() {
        mapping.unmap();
    }

    /** Whether {@link #unmap} ran (tests). */
    boolean isUnmapped() {
        return mapping.isUnmapped();
    }

    /**
     * The accepter's end, once its peer vanished without closing: removes the memory file the peer named
     * if the process that created it (the id in its name) no longer runs and it is still the file this end
     * mapped, so that its RAM goes now rather than at the next sweep of a later JVM (a requester that keeps
     * its memories for reuse leaves the file at its path while it lives).
     */
    void unlinkIfCreatorEnded() {
        if (peerFile == null || peerFileKey == null) {
            return;
        }
        long pid = MemoryPool.pidOf(peerFile.getFileName().toString());
        if (pid <= 0 || ProcessHandle.of(pid).isPresent()) {
            return;
        }
        try {
            Object key = Files.readAttributes(peerFile, java.nio.file.attribute.BasicFileAttributes.class,
                    java.nio.file.LinkOption.NOFOLLOW_LINKS).fileKey();
            if (peerFileKey.equals(key)) {
                Files.deleteIfExists(peerFile);
            }
        } catch (IOException e) {
            // gone already (the requester unlinked it, or a sweep did), or not ours to remove
        }
    }

    int ringBytes() {
        return ringBytes;
    }

    /** The file of a memory this end created, or null for one it mapped. */
    Path file() {
        return file;
    }

    /** The end reading ring {@code direction} will not touch this memory again. */
    void done(int direction) {
        INT.setVolatile(header, DONE_OFFSET + 4 * direction, 1);
    }

    /** Whether the end reading ring {@code direction} said it is done with this memory. */
    boolean isDone(int direction) {
        return (int) INT.getVolatile(header, DONE_OFFSET + 4 * direction) != 0;
    }

    /**
     * Makes a memory both ends are done with as good as fresh, for a new connection: discards what
     * either ring still holds (records neither end read: a close record, frames left unread), which
     * leaves every data byte zero, and clears the flags. The ring positions go on from where they were.
     *
     * @return false if a ring is damaged (the memory is then not to be reused)
     */
    boolean reset() {
        for (int direction = 0; direction < 2; direction++) {
            try {
                if (!ring(direction).discardAll()) {
                    return false;
                }
            } catch (SharedRing.CorruptRingException e) { // a position the peer left that is no record boundary
                return false;
            }
        }
        for (int direction = 0; direction < 2; direction++) {
            INT.setVolatile(header, sleepingFlag(direction), 0);
            INT.setVolatile(header, DONE_OFFSET + 4 * direction, 0);
        }
        VarHandle.fullFence();
        return true;
    }

    /**
     * Ring {@code direction}'s reader says it sleeps: the next append must ring the doorbell. A full
     * fence follows, so the reader's next look at the ring comes after the flag is visible.
     */
    void sleeping(int direction) {
        INT.setVolatile(header, sleepingFlag(direction), 1);
        VarHandle.fullFence();
    }

    /** Clears the sleeping flag of ring {@code direction}'s reader; true if this call cleared it (then ring once). */
    boolean wake(int direction) {
        return (int) INT.getVolatile(header, sleepingFlag(direction)) != 0
                && INT.compareAndSet(header, sleepingFlag(direction), 1, 0);
    }

    private static int sleepingFlag(int direction) {
        return SLEEPING_OFFSET + 64 * direction;
    }

    /** Ring {@code direction} (0: requester → accepter, 1: accepter → requester), as one end's own view. */
    SharedRing ring(int direction) {
        int length = ringBytes + SharedRing.TRAILER;
        return new SharedRing(mapped.slice(HEADER_BYTES + direction * length, length).order(ByteOrder.BIG_ENDIAN),
                ringBytes);
    }
}
