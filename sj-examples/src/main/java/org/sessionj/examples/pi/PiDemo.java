package org.sessionj.examples.pi;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;

/** Monte Carlo π with a master and {@code workers} workers on threads of this JVM. */
public final class PiDemo {

    /** What one run produced. */
    public record Result(double pi, long trials, double tolerance, long nanos) {
        /** Whether the estimate is within the statistical tolerance of π. */
        public boolean verified() {
            return Math.abs(pi - Math.PI) <= tolerance;
        }
    }

    /** Runs the master and the workers, each worker on its own thread, and returns the estimate. */
    public static Result runOnThreads(int workers, int trialsPerWorker) throws Exception {
        List<SJServerSocket> servers = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> running = new ArrayList<>();
            List<SJService> services = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                SJServerSocket server = SJServerSocket.create(WorkerToMaster.class, 0);
                servers.add(server);
                PiWorker worker = new PiWorker(0x5eed_0000L + i);
                running.add(threads.submit(() -> worker.serve(server)));
                services.add(SJService.create(MasterToWorker.class, "localhost", server.port()));
            }
            long start = System.nanoTime();
            long hits = PiMaster.collectHits(services, trialsPerWorker);
            long elapsed = System.nanoTime() - start;
            for (Future<?> worker : running) {
                worker.get();
            }
            long trials = (long) trialsPerWorker * workers;
            return new Result(PiMaster.estimate(hits, trials), trials, PiMaster.tolerance(trials), elapsed);
        } finally {
            threads.shutdownNow();
            servers.forEach(SJServerSocket::close);
        }
    }

    /** Prints a run's summary; returns whether it verified. */
    public static boolean report(Result result, int workers, PrintWriter out) {
        out.printf("Monte Carlo pi: %d workers on threads, %,d points%n", workers, result.trials());
        out.printf("  pi ~ %.6f (error %.2e, tolerance %.2e): %s%n", result.pi(), Math.abs(result.pi() - Math.PI),
                result.tolerance(), result.verified() ? "verified" : "NOT within tolerance");
        out.printf("  time %.1f ms%n", result.nanos() / 1e6);
        return result.verified();
    }

    private PiDemo() {
    }
}
