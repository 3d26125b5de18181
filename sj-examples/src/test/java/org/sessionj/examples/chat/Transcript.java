package org.sessionj.examples.chat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** A chat display that records every line, for tests to wait on and to compare exactly. */
final class Transcript implements ChatDisplay {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final List<String> lines = new ArrayList<>();

    @Override
    public synchronized void show(String line) {
        lines.add(line);
        notifyAll();
    }

    /** Every line so far. */
    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** Waits until a line equal to {@code line} appears. */
    void await(String line) throws InterruptedException {
        await(line::equals, "'" + line + "'");
    }

    /** Waits until a line starting with {@code prefix} appears, and returns it. */
    String awaitPrefix(String prefix) throws InterruptedException {
        return await(l -> l.startsWith(prefix), "a line starting with '" + prefix + "'");
    }

    /** Waits until {@code line} has appeared {@code count} times. */
    synchronized void awaitCount(String line, int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (lines.stream().filter(line::equals).count() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("'" + line + "' not " + count + " times within " + WAIT + "; transcript: " + lines);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    synchronized String await(Predicate<String> wanted, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            for (String line : lines) {
                if (wanted.test(line)) {
                    return line;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no " + what + " within " + WAIT + "; transcript: " + lines);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }
}
