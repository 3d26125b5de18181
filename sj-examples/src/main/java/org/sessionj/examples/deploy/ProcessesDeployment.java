package org.sessionj.examples.deploy;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.sessionj.api.SJServerSocket;

/**
 * Rank 0 in this process, every other rank in a child JVM started with this JVM's {@code java},
 * options and class path. The children find rank 0 through the rendezvous address on their command
 * line; sessions between processes use the transport the runtime picks for them (cross-process shared
 * memory, {@code ipc}, on this host; TCP on loopback where ipc is not listed).
 */
public final class ProcessesDeployment {
    /** The address the ranks advertise: this host's loopback. */
    public static final String HOST = "127.0.0.1";

    private ProcessesDeployment() {
    }

    /** A child's end or rank 0's: the rank, and its failure if it failed. */
    private record Finished(int rank, String failure, Throwable cause) {
    }

    /**
     * Runs {@code program}: rank 0 here, rank {@code r} as {@code java … mainClass childArgs(r, "host:port")}.
     * A child that exits with a non-zero status fails the run at once, naming the rank.
     */
    public static <R extends RankProgram.Outcome> RankRunner.Timed<R> run(RankProgram<R> program, String mainClass,
            BiFunction<Integer, String, List<String>> childArgs, Duration timeout, Progress progress)
            throws InterruptedException {
        LinkedBlockingQueue<Finished> finished = new LinkedBlockingQueue<>();
        List<Process> children = new ArrayList<>();
        List<RankRunner.Timed<R>> rankZero = new ArrayList<>(1);
        Thread zero = null;
        boolean succeeded = false;
        try (SJServerSocket rendezvous = SJServerSocket.create(RendezvousToRank.class, 0)) {
            String address = HOST + ":" + rendezvous.port();
            for (int rank = 1; rank < program.ranks(); rank++) {
                Process child = start(mainClass, childArgs.apply(rank, address), rank);
                children.add(child);
                int r = rank;
                ChildErrors errors = ChildErrors.forward(child, r);
                child.onExit().thenAccept(p -> finished.add(p.exitValue() == 0 ? new Finished(r, null, null)
                        : new Finished(r, "exited with status " + p.exitValue() + " (pid " + p.pid() + ")"
                                + errors.lastLine().map(line -> ": " + line).orElse(""), null)));
            }
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
            }
            succeeded = true;
            return rankZero.get(0);
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

    private static String describe(Finished end) {
        return "rank " + end.rank() + (end.rank() == 0 ? " failed: " : " ") + end.failure();
    }

    private static Process start(String mainClass, List<String> args, int rank) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        List<String> jvmOptions = ManagementFactory.getRuntimeMXBean().getInputArguments();
        command.addAll(jvmOptions);
        // As ./sj does: Netty loads its native transport and JCTools uses Unsafe; newer JDKs warn on every start.
        if (Runtime.version().feature() >= 22 && jvmOptions.stream().noneMatch(o -> o.startsWith("--enable-native-access"))) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        if (Runtime.version().feature() >= 23
                && jvmOptions.stream().noneMatch(o -> o.startsWith("--sun-misc-unsafe-memory-access"))) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        try {
            return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.PIPE).start();
        } catch (IOException e) {
            throw new DeploymentException("cannot start rank " + rank + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    /** The {@code java} of this JVM (not the one on PATH, which may be older). */
    static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
