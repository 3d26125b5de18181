package org.sessionj.transport.ipc;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * One mapping of a connection's memory file, and its deterministic unmapping. A {@code MappedByteBuffer}
 * is unmapped only by the garbage collector, so a server with a large heap and little allocation kept
 * every closed connection's 2 MiB of shared memory for as long as it ran without a GC (410 MB after
 * 200 sessions at a 12 MB heap). On JDK 22 and newer the file is mapped as a memory segment of a shared
 * arena instead ({@code FileChannel.map(mode, offset, size, Arena)}), whose {@code close()} unmaps at
 * promptly (on the JVM's unmapping thread, right after the close): {@link #unmap} is called once
 * neither end of this JVM can touch the memory any more.
 *
 * <p>Why an unmap cannot crash the JVM: the ring's every access goes through the {@link ByteBuffer}
 * the segment gives ({@code asByteBuffer()}), its view {@code VarHandle}s and bulk copies, which the
 * JVM checks against the arena; closing a shared arena waits for every thread to be outside such an
 * access (a handshake), and any later one throws {@link IllegalStateException} instead of touching
 * unmapped memory. The one kind of access that does not go through that check is Netty copying a
 * record between the ring and a frame by the buffer's raw address, and those happen only inside a
 * read (under {@link IpcInbound}'s read state) or an append (under {@link IpcOutbound}'s producer
 * lock with the writer open), both of which end for good before {@link IpcConnection} unmaps.
 *
 * <p>JDK 21, where the foreign memory API is a preview, keeps the old mapping (the garbage collector
 * unmaps it): the API is reached through method handles so that this code compiles for release 21.
 */
final class Mapping {
    /** {@code Arena.ofShared()}, or null on a JDK without the final foreign memory API. */
    private static final MethodHandle OF_SHARED;
    /** {@code FileChannel.map(MapMode, long, long, Arena)}, as (FileChannel, MapMode, long, long, Object) Object. */
    private static final MethodHandle MAP;
    /** {@code MemorySegment.asByteBuffer()}, as (Object) ByteBuffer. */
    private static final MethodHandle AS_BYTE_BUFFER;
    /** {@code arena.scope().isAlive()}, as (Object) boolean. */
    private static final MethodHandle IS_ALIVE;

    static {
        MethodHandle ofShared = null;
        MethodHandle map = null;
        MethodHandle asByteBuffer = null;
        MethodHandle isAlive = null;
        if (Runtime.version().feature() >= 22
                && !org.sessionj.runtime.spi.support.SystemSettings.system().flag("ipc.gcUnmap", false)) {
            try {
                Class<?> arena = Class.forName("java.lang.foreign.Arena");
                Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                ofShared = lookup.findStatic(arena, "ofShared", MethodType.methodType(arena))
                        .asType(MethodType.methodType(AutoCloseable.class));
                map = lookup.findVirtual(FileChannel.class, "map", MethodType.methodType(segment,
                                FileChannel.MapMode.class, long.class, long.class, arena))
                        .asType(MethodType.methodType(Object.class, FileChannel.class, FileChannel.MapMode.class,
                                long.class, long.class, Object.class));
                asByteBuffer = lookup.findVirtual(segment, "asByteBuffer", MethodType.methodType(ByteBuffer.class))
                        .asType(MethodType.methodType(ByteBuffer.class, Object.class));
                Class<?> scope = Class.forName("java.lang.foreign.MemorySegment$Scope");
                isAlive = MethodHandles.filterReturnValue(
                        lookup.findVirtual(arena, "scope", MethodType.methodType(scope)),
                        lookup.findVirtual(scope, "isAlive", MethodType.methodType(boolean.class)))
                        .asType(MethodType.methodType(boolean.class, Object.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                ofShared = null;
            }
        }
        OF_SHARED = ofShared;
        MAP = map;
        AS_BYTE_BUFFER = asByteBuffer;
        IS_ALIVE = isAlive;
    }

    /**
     * Closes the arenas, one after another, off the closing connection's thread: closing a shared arena
     * is a handshake with every thread of the JVM (measured on JDK 25, 2 MiB mappings, load ~30: median
     * 22-33 µs, 99th percentile ~8 ms, waiting for a thread that is not on a CPU), which a session's close
     * need not wait for. The unmap still comes right after the close, not at a garbage collection.
     */
    private static final java.util.concurrent.ExecutorService UNMAPPER =
            java.util.concurrent.Executors.newSingleThreadExecutor(Thread.ofVirtual().name("sj-ipc-unmap").factory());

    /** The memory, as the ring's accesses see it. */
    private final ByteBuffer buffer;
    /** The arena whose close unmaps it, or null where the garbage collector does. */
    private final AutoCloseable arena;
    private final java.util.concurrent.atomic.AtomicBoolean unmapped = new java.util.concurrent.atomic.AtomicBoolean();

    private Mapping(ByteBuffer buffer, AutoCloseable arena) {
        this.buffer = buffer;
        this.arena = arena;
    }

    /** Whether {@link #unmap} unmaps at once here (JDK 22 and newer), rather than leaving it to the garbage collector. */
    static boolean deterministic() {
        return OF_SHARED != null;
    }

    /** Maps {@code size} bytes of {@code channel} for reading and writing; the channel may be closed afterwards. */
    static Mapping map(FileChannel channel, long size) throws IOException {
        if (OF_SHARED == null) {
            return new Mapping(channel.map(FileChannel.MapMode.READ_WRITE, 0, size), null);
        }
        AutoCloseable arena;
        try {
            arena = (AutoCloseable) OF_SHARED.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e); // Arena.ofShared() throws nothing checked
        }
        try {
            Object segment = MAP.invokeExact(channel, FileChannel.MapMode.READ_WRITE, 0L, size, (Object) arena);
            return new Mapping((ByteBuffer) AS_BYTE_BUFFER.invokeExact(segment), arena);
        } catch (IOException | RuntimeException | Error e) {
            close(arena);
            throw e;
        } catch (Throwable e) {
            close(arena);
            throw new IOException(e);
        }
    }

    /** The whole mapping (a fresh view: position 0, limit its size). */
    ByteBuffer buffer() {
        return buffer.duplicate();
    }

    /**
     * Unmaps the memory now (JDK 22+; on JDK 21 the garbage collector does once it is unreachable). Only
     * once nothing of this JVM reads or writes the ring by raw address any more (see the class comment);
     * a checked access after it throws {@link IllegalStateException}. Idempotent.
     */
    void unmap() {
        if (arena != null && unmapped.compareAndSet(false, true)) {
            UNMAPPER.execute(() -> close(arena));
        }
    }

    /**
     * Waits until every unmap asked for so far is done (tests: the unmapper runs them in order, so a task
     * queued now runs after them).
     */
    static void awaitUnmaps() throws InterruptedException {
        try {
            UNMAPPER.submit(() -> { }).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isAlive(AutoCloseable arena) {
        try {
            return (boolean) IS_ALIVE.invokeExact((Object) arena);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@link #unmap} ran. */
    boolean isUnmapped() {
        return unmapped.get();
    }

    /**
     * Closes {@code arena}. JDK 22 refuses the close ({@link IllegalStateException}) while another thread is
     * inside an access of it at that very moment (a doorbell thread looking at a flag), where later JDKs
     * make that access fail instead: then it is tried again, a few times at once and then from a virtual
     * thread with growing pauses, since an arena never closed would keep its mapping for ever.
     */
    private static void close(AutoCloseable arena) {
        for (int attempt = 0; attempt < 100; attempt++) {
            if (tryClose(arena)) {
                return;
            }
            Thread.yield();
        }
        Thread.ofVirtual().name("sj-ipc-unmap").start(() -> {
            for (long pause = 1_000_000; !tryClose(arena); pause = Math.min(pause * 2, 1_000_000_000L)) {
                java.util.concurrent.locks.LockSupport.parkNanos(pause);
            }
        });
    }

    /** Whether {@code arena} is closed now (by this call or before). */
    private static boolean tryClose(AutoCloseable arena) {
        try {
            arena.close();
            return true;
        } catch (IllegalStateException e) {
            return !isAlive(arena);
        } catch (Exception e) {
            throw new IllegalStateException(e); // Arena.close() throws nothing checked
        }
    }
}
