package org.sessionj.bench;

import java.util.concurrent.Exchanger;

/**
 * What a fresh JVM costs before any SJ code runs, to read {@link ColdStart}'s figures against (issue
 * 15: the cold-start goal is 10 ms from {@code main} to the first session closed). Run with the same
 * class path and JVM options as {@code ColdStart}, in fresh JVMs, with and without an AOT cache
 * ({@code scripts/cold-start.sh floor}). Prints {@code cold-floor <mode> ms <wall> main-thread-cpu-ms <cpu>}
 * from the start of {@code main}.
 *
 * <p>Modes: {@code empty} (nothing: the clock's own cost); {@code exchanger} (the bare hand-off under
 * an in-JVM session: two fresh platform threads pass one int each way through an {@link Exchanger}
 * and are joined, as ColdStart's requester and accepter); {@code log} (one INFO line through
 * {@code System.Logger}, which is {@code java.util.logging} by default: what the runtime's
 * once-per-protocol "sessions run over" line costs the first time in a JVM).
 */
public final class ColdStartFloor {
    private ColdStartFloor() {
    }

    /** Runs the mode named by the first argument ({@code exchanger} by default). */
    public static void main(String[] args) throws InterruptedException {
        String mode = args.length > 0 ? args[0] : "exchanger";
        long cpuStart = ColdStart.threadCpuNanos();
        long start = System.nanoTime();
        switch (mode) {
            case "empty" -> {
                // nothing
            }
            case "exchanger" -> exchange();
            case "log" -> System.getLogger("org.sessionj.bench.floor").log(System.Logger.Level.INFO,
                    "one INFO line, as the runtime's first sessions-run-over line");
            default -> throw new IllegalArgumentException("mode must be empty, exchanger or log, found " + mode);
        }
        long wall = System.nanoTime() - start;
        long cpu = ColdStart.threadCpuNanos() - cpuStart;
        System.out.printf("cold-floor %s ms %.2f main-thread-cpu-ms %.2f%n", mode, wall / 1e6,
                cpuStart < 0 ? -1.0 : cpu / 1e6);
    }

    private static void exchange() throws InterruptedException {
        Exchanger<Integer> exchanger = new Exchanger<>();
        Thread peer = Thread.ofPlatform().start(new Peer(exchanger));
        try {
            int answer = exchanger.exchange(1);
            if (answer != 2) {
                throw new IllegalStateException("wrong answer " + answer);
            }
        } finally {
            peer.join();
        }
    }

    /** The accepting side, a named class (no lambda bootstrap in the floor either). */
    private static final class Peer implements Runnable {
        private final Exchanger<Integer> exchanger;

        Peer(Exchanger<Integer> exchanger) {
            this.exchanger = exchanger;
        }

        @Override
        public void run() {
            try {
                exchanger.exchange(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
