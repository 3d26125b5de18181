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
                    throw new DeploymentException("rank " + end.rank() + " failed: " + describe(end.failure()),
                            end.failure());
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
