package org.sessionj.examples.deploy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.sessionj.api.SJServerSocket;

/**
 * Rank 0 in this process, every other rank in a child JVM started with this JVM's {@code java},
 * options and class path. The children are started each on a thread of their own while this thread
 * starts the SJ runtime for the rendezvous, and learn the rendezvous address on their standard input
 * once rank 0 listens: starting the SJ runtime here and starting the child JVMs (the largest part of
 * a run's wall time on a busy machine) overlap instead of following each other.
 * Sessions between processes use the transport the runtime picks for them (cross-process shared
 * memory, {@code ipc}, on this host; TCP on loopback where ipc is not listed).
 */
public final class ProcessesDeployment {
    /** The address the ranks advertise: this host's loopback. */
    public static final String HOST = "127.0.0.1";
    /**
     * What a child is given as the rendezvous address: it reads the real one, one {@code HOST:PORT}
     * line, from its standard input ({@link #readAddress}).
     */
    public static final String ADDRESS_ON_STDIN = "-";

    private ProcessesDeployment() {
    }

    /** A child's end or rank 0's: the rank, and its failure if it failed. */
    private record Finished(int rank, String failure, Throwable cause) {
    }

    /**
     * Runs {@code program}: rank 0 here, rank {@code r} as {@code java … mainClass childArgs(r, "-")},
     * which reads the rendezvous address from its standard input ({@link #ADDRESS_ON_STDIN}). A child
     * that exits with a non-zero status fails the run at once, naming the rank.
     */
    public static <R extends RankProgram.Outcome> RankRunner.Timed<R> run(RankProgram<R> program, String mainClass,
            BiFunction<Integer, String, List<String>> childArgs, Duration timeout, Progress progress)
            throws InterruptedException {
        return run(program, mainClass, childArgs, timeout, progress, timed -> timed);
    }

    /**
     * As {@link #run(RankProgram, String, BiFunction, Duration, Progress)}, and once rank 0 has its result
     * applies {@code then} to it while the child ranks exit (their JVMs' shutdown overlaps it: the demos
     * print and verify their result there). Its value is returned once every child has exited with
     * status 0; a child that fails, before or meanwhile, still fails the run.
     */
    public static <R extends RankProgram.Outcome, V> V run(RankProgram<R> program, String mainClass,
            BiFunction<Integer, String, List<String>> childArgs, Duration timeout, Progress progress,
            Function<RankRunner.Timed<R>, V> then) throws InterruptedException {
        LinkedBlockingQueue<Finished> finished = new LinkedBlockingQueue<>();
        List<Process> children = new ArrayList<>();
        List<RankRunner.Timed<R>> rankZero = new ArrayList<>(1);
        Thread zero = null;
        boolean succeeded = false;
        List<Supplier<Process>> starts = new ArrayList<>();
        for (int rank = 1; rank < program.ranks(); rank++) {
            int r = rank;
            starts.add(() -> {
                Process child = start(mainClass, childArgs.apply(r, ADDRESS_ON_STDIN), r);
                ChildErrors errors = ChildErrors.forward(child, r);
                child.onExit().thenAccept(p -> finished.add(p.exitValue() == 0 ? new Finished(r, null, null)
                        : new Finished(r, "exited with status " + p.exitValue() + " (pid " + p.pid() + ")"
                                + errors.lastLine().map(line -> ": " + line).orElse(""), null)));
                return child;
            });
        }
        // The children's JVMs start while this one starts its runtime for the rendezvous.
        Alongside<Process, SJServerSocket> opened = startAlongside(starts, () -> {
            SJServerSocket server = SJServerSocket.create(RendezvousToRank.class, 0);
            Phases.mark(0, "rendezvous-open");
            return server;
        });
        children.addAll(opened.started());
        Phases.mark(0, "children-started");
        try (SJServerSocket rendezvous = opened.value()) {
            if (opened.failure() != null) {
                throw opened.failure();
            }
            announce(rendezvous, children);
            zero = new Thread(() -> {
                try {
                    rankZero.add(RankRunner.runRankZero(program, rendezvous, HOST, timeout, progress));
                    finished.add(new Finished(0, null, null));
                } catch (Throwable failure) {
                    finished.add(new Finished(0, ThreadsDeployment.describe(failure), failure));
                }
            }, "rank-0");
            zero.setDaemon(true);
            zero.start();
            V value = null;
            for (int done = 0; done < program.ranks(); done++) {
                Finished end = finished.take();
                if (end.failure() != null) {
                    zero.interrupt();
                    StringBuilder message = new StringBuilder(describe(end));
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                    for (int others = done + 1; others < program.ranks(); others++) {
                        Finished next = finished.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                        if (next == null) {
                            break;
                        }
                        if (next.failure() != null) {
                            message.append("; ").append(describe(next));
                        }
                    }
                    throw new DeploymentException(message.toString(), end.cause());
                }
                if (end.rank() == 0) {
                    value = then.apply(rankZero.get(0));
                }
            }
            succeeded = true;
            Phases.mark(0, "children-exited");
            return value;
        } finally {
            for (Process child : children) {
                if (!succeeded) {
                    child.destroyForcibly();
                }
                if (!child.waitFor(5, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                }
            }
            if (zero != null) {
                zero.join(TimeUnit.SECONDS.toMillis(5));
            }
        }
    }

    /** {@code rendezvous}'s address, written on every child's standard input. */
    private static void announce(SJServerSocket rendezvous, List<Process> children) {
        byte[] line = (HOST + ":" + rendezvous.port() + "\n").getBytes(StandardCharsets.US_ASCII);
        for (Process child : children) {
            try (OutputStream in = child.getOutputStream()) {
                in.write(line);
            } catch (IOException e) {
                // The child is gone already: its exit fails the run, naming it.
            }
        }
    }

    /**
     * What {@link #startAlongside} did: the processes that started (whatever else failed), the value
     * of the work done meanwhile (null if it failed), and the first failure, if any.
     *
     * @param <P> a started process
     * @param <T> the value of the work done meanwhile
     * @param started the processes that started, in the order of their starts
     * @param value the value of the work done meanwhile, null if it failed
     * @param failure the first failure among the work done meanwhile and the starts, null if none
     */
    record Alongside<P, T>(List<P> started, T value, RuntimeException failure) {
    }

    /**
     * Runs each of {@code starts} on a thread of its own and {@code meanwhile} on this one, then waits
     * for every start. Starting a JVM blocks its caller until the new process runs ({@code posix_spawn}
     * and the JDK's spawn helper: 20-200 ms each on a loaded machine); one start after another, and then
     * the runtime's start for the rendezvous, put all of that on the job's critical path.
     */
    static <P, T> Alongside<P, T> startAlongside(List<Supplier<P>> starts, Supplier<T> meanwhile) {
        List<CompletableFuture<P>> pending = new ArrayList<>();
        for (Supplier<P> start : starts) {
            CompletableFuture<P> started = new CompletableFuture<>();
            Thread.ofPlatform().daemon().name("start-rank-" + (pending.size() + 1)).start(() -> {
                try {
                    started.complete(start.get());
                } catch (Throwable e) {
                    started.completeExceptionally(e);
                }
            });
            pending.add(started);
        }
        T value = null;
        RuntimeException failure = null;
        try {
            value = meanwhile.get();
        } catch (RuntimeException e) {
            failure = e;
        }
        List<P> started = new ArrayList<>();
        for (CompletableFuture<P> start : pending) {
            try {
                started.add(start.join());
            } catch (CompletionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException r ? r
                            : new DeploymentException("cannot start a rank: " + e.getCause(), e.getCause());
                }
            }
        }
        return new Alongside<>(List.copyOf(started), value, failure);
    }

    /**
     * A child's rendezvous address, the one {@code HOST:PORT} line rank 0 writes to its standard input.
     *
     * @throws DeploymentException when the input ends first (rank 0 is gone) or is not an address
     */
    public static HostPort readAddress(BufferedReader in) {
        String line;
        try {
            line = in.readLine();
        } catch (IOException e) {
            throw new DeploymentException("cannot read the rendezvous address from standard input: " + e.getMessage(), e);
        }
        if (line == null) {
            throw new DeploymentException("expected the rendezvous address (HOST:PORT) on standard input but it ended"
                    + " first: rank 0 is gone");
        }
        return HostPort.parse(line.strip(), "the rendezvous address on standard input");
    }

    private static String describe(Finished end) {
        return "rank " + end.rank() + (end.rank() == 0 ? " failed: " : " ") + end.failure();
    }

    private static Process start(String mainClass, List<String> args, int rank) {
        List<String> command = childCommand(javaExecutable(), ManagementFactory.getRuntimeMXBean().getInputArguments(),
                Runtime.version().feature(), System.getProperty("java.class.path"), mainClass, args);
        try {
            return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.PIPE).start();
        } catch (IOException e) {
            throw new DeploymentException("cannot start rank " + rank + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    /**
     * A child rank's command line: {@code java}, the parent's options ({@link #childJvmOptions}), and
     * those {@code ./sj} gives every JVM when the parent's lack them: on JDK 22+ native access for
     * Netty's transport, on 23+ JCTools' and Netty's {@code Unsafe} (newer JDKs warn on every start
     * otherwise), on 25+ no wait at exit for threads in native code
     * ({@code -XX:UserThreadWaitAttemptsAtExit=0}: a JVM otherwise waits 300 ms for its event loops,
     * blocked in epoll, before it exits, and rank 0 waits for every child's exit).
     */
    static List<String> childCommand(String java, List<String> parentOptions, int feature, String classPath,
            String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(java);
        List<String> jvmOptions = childJvmOptions(parentOptions);
        command.addAll(jvmOptions);
        if (feature >= 22 && jvmOptions.stream().noneMatch(o -> o.startsWith("--enable-native-access"))) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        if (feature >= 23 && jvmOptions.stream().noneMatch(o -> o.startsWith("--sun-misc-unsafe-memory-access"))) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        if (feature >= 25 && jvmOptions.stream().noneMatch(o -> o.startsWith("-XX:UserThreadWaitAttemptsAtExit="))) {
            command.add("-XX:UserThreadWaitAttemptsAtExit=0");
        }
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * The options a child JVM gets: this JVM's, except those that make a JVM write an AOT cache or
     * class-data archive ({@code -XX:AOTCacheOutput}, {@code -XX:AOTConfiguration}, {@code -XX:AOTMode},
     * {@code -XX:ArchiveClassesAtExit}). A run that trains a cache ({@code scripts/compare.sh} does, with
     * rank 0's JVM) would otherwise have every rank write the same file at exit. A cache to read,
     * {@code -XX:AOTCache} or {@code -XX:SharedArchiveFile}, is passed on: every rank starts from it.
     */
    static List<String> childJvmOptions(List<String> parent) {
        return parent.stream().filter(option -> !option.startsWith("-XX:AOTCacheOutput=")
                && !option.startsWith("-XX:AOTConfiguration=") && !option.startsWith("-XX:AOTMode=")
                && !option.startsWith("-XX:ArchiveClassesAtExit=")).toList();
    }

    /** The {@code java} of this JVM (not the one on PATH, which may be older). */
    static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
