package org.sessionj.examples.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;

/**
 * Every rank on its own thread of this JVM. Sessions between them use whatever transport the
 * runtime picks for peers in one JVM (the in-JVM one); the program is the same as on a cluster.
 */
public final class ThreadsDeployment {
    /** The address the ranks advertise: this host's loopback. */
    public static final String HOST = "127.0.0.1";

    private ThreadsDeployment() {
    }

    /** One rank's end: its number and its failure, if it failed. */
    private record Finished(int rank, Throwable failure) {
    }

    /**
     * Runs all ranks of {@code program} and returns rank 0's result. If any rank fails, the others
     * are interrupted and the failure is thrown, naming the rank.
     */
    public static <R extends RankProgram.Outcome> RankRunner.Timed<R> run(RankProgram<R> program, Duration timeout,
            Progress progress) throws InterruptedException {
        LinkedBlockingQueue<Finished> finished = new LinkedBlockingQueue<>();
        List<Thread> threads = new ArrayList<>();
        List<RankRunner.Timed<R>> rankZero = new ArrayList<>(1);
        try (SJServerSocket rendezvous = SJServerSocket.create(RendezvousToRank.class, 0)) {
            SJService service = SJService.create(RankToRendezvous.class, HOST, rendezvous.port());
            threads.add(start(0, finished, () -> rankZero.add(
                    RankRunner.runRankZero(program, rendezvous, HOST, timeout, progress))));
            for (int rank = 1; rank < program.ranks(); rank++) {
                int r = rank;
                threads.add(start(rank, finished, () -> RankRunner.runRank(program, r, service, HOST, timeout)));
            }
            for (int done = 0; done < threads.size(); done++) {
                Finished end = finished.take();
                if (end.failure() != null) {
                    threads.forEach(Thread::interrupt);
                    throw failure(end, finished, threads.size() - done - 1);
                }
            }
        } finally {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            for (Thread thread : threads) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        }
        return rankZero.get(0);
    }

    /**
     * The run's failure: the first rank's, and those of the ranks that end within a moment (a rank's
     * failure often makes its peers fail first: all are named, in the order they ended).
     */
    private static DeploymentException failure(Finished first, LinkedBlockingQueue<Finished> finished, int running)
            throws InterruptedException {
        StringBuilder message = new StringBuilder("rank " + first.rank() + " failed: " + describe(first.failure()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (int i = 0; i < running; i++) {
            Finished next = finished.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (next == null) {
                break;
            }
            if (next.failure() != null) {
                message.append("; rank ").append(next.rank()).append(" failed: ").append(describe(next.failure()));
            }
        }
        return new DeploymentException(message.toString(), first.failure());
    }

    private static Thread start(int rank, LinkedBlockingQueue<Finished> finished, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
                finished.add(new Finished(rank, null));
            } catch (Throwable failure) {
                finished.add(new Finished(rank, failure));
            }
        }, "rank-" + rank);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    static String describe(Throwable failure) {
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }
}
