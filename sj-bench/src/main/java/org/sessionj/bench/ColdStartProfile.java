package org.sessionj.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a fresh JVM's first session spends its time (issue 15, cold start): runs {@link ColdStart} while
 * a daemon thread takes the stack of every running thread that is not a daemon (the requester and
 * the accepter) about every half millisecond, then prints, for the
 * methods seen in at least 1 % of the samples, how many samples had them on the stack ({@code incl}),
 * and which SJ or Netty frame was innermost ({@code leaf}). A sampling probe, so it perturbs what it
 * measures (its own thread competes for the CPU, and stacks are taken at safepoints); read its shares,
 * not its times, and sum several runs ({@code scripts/cold-start.sh profile}).
 *
 * <p>Arguments: those of {@link ColdStart}.
 */
public final class ColdStartProfile {
    private static final long PERIOD_NANOS = 500_000;

    private ColdStartProfile() {
    }

    /** Samples while {@link ColdStart#main} runs, then prints the counts. */
    public static void main(String[] args) throws InterruptedException {
        Map<String, Integer> inclusive = new HashMap<>();
        Map<String, Integer> leaves = new HashMap<>();
        int[] samples = {0};
        Thread sampler = Thread.ofPlatform().daemon().name("cold-start-sampler").start(() -> {
            Thread self = Thread.currentThread();
            while (!self.isInterrupted()) {
                for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
                    Thread thread = entry.getKey();
                    StackTraceElement[] stack = entry.getValue();
                    // The JVM's daemons (reference handler, virtual-thread unblocker) wait in native code,
                    // which counts as RUNNABLE; the session's threads are not daemons.
                    if (thread == self || thread.isDaemon() || stack.length == 0
                            || thread.getState() != Thread.State.RUNNABLE) {
                        continue;
                    }
                    synchronized (inclusive) {
                        samples[0]++;
                        count(stack, inclusive, leaves);
                    }
                }
                java.util.concurrent.locks.LockSupport.parkNanos(PERIOD_NANOS);
            }
        });
        ColdStart.main(args);
        sampler.interrupt();
        sampler.join();
        synchronized (inclusive) {
            System.out.println("samples " + samples[0]);
            print("incl", inclusive, samples[0]);
            print("leaf", leaves, samples[0]);
        }
    }

    private static void count(StackTraceElement[] stack, Map<String, Integer> inclusive, Map<String, Integer> leaves) {
        Set<String> seen = new HashSet<>();
        for (StackTraceElement frame : stack) {
            String method = frame.getClassName() + "." + frame.getMethodName();
            if (seen.add(method)) {
                inclusive.merge(method, 1, Integer::sum);
            }
        }
        for (StackTraceElement frame : stack) {
            String type = frame.getClassName();
            if (type.startsWith("org.sessionj.") || type.startsWith("io.netty.")) {
                leaves.merge(frame.toString(), 1, Integer::sum);
                return;
            }
        }
    }

    private static void print(String label, Map<String, Integer> counts, int samples) {
        List<Map.Entry<String, Integer>> rows = new ArrayList<>(counts.entrySet());
        rows.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
        for (Map.Entry<String, Integer> row : rows) {
            if (row.getValue() * 100 < samples) {
                break;
            }
            System.out.println(label + " " + row.getValue() + " " + row.getKey());
        }
    }
}
