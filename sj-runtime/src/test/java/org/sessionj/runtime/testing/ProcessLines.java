package org.sessionj.runtime.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The merged output of a child process, read line by line on a virtual thread of its own, so that a
 * test waits for a line with a deadline and never hangs on a child that prints nothing or dies.
 */
public final class ProcessLines {
    private final Process process;
    private final String who;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer output = new StringBuffer();

    /**
     * Starts reading {@code process}'s output (its standard output, merged with its errors by the caller's
     * {@code ProcessBuilder}).
     *
     * @param who how failure messages name the process ("the peer", "the child")
     */
    public ProcessLines(Process process, String who) {
        this.process = process;
        this.who = who;
        Thread.ofVirtual().start(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.append(line).append('\n');
                    lines.add(line);
                }
            } catch (IOException e) {
                output.append("(reading ").append(who).append("'s output failed: ").append(e).append(")\n");
            }
        });
    }

    /**
     * The rest of the next line starting with {@code prefix}, waiting at most {@code patienceSeconds}; lines
     * before it are skipped. Fails with everything the process printed when no such line comes, or the
     * process exits without printing one.
     */
    public String next(String prefix, long patienceSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(patienceSeconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line.substring(prefix.length());
            }
            if (line == null && !process.isAlive() && lines.isEmpty()) {
                break;
            }
        }
        throw new AssertionError(who + " printed no '" + prefix + "' line (alive: " + process.isAlive()
                + "); its output:\n" + output);
    }

    /** Everything the process printed so far. */
    @Override
    public String toString() {
        return output.toString();
    }
}
