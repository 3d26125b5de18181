package org.sessionj.samples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM started by a test, with its standard output and error merged and read line by line on a
 * thread of its own, so that a test can wait for a line with a deadline and never hangs on a child
 * that prints nothing. Closing it kills the child.
 */
final class ChildJvm implements AutoCloseable {
    private static final String END = "\u0000end";

    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    private ChildJvm(Process process) {
        this.process = process;
        Thread.ofVirtual().name("child-jvm-output").start(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("(output unreadable: " + e.getMessage() + ")");
            }
            lines.add(END);
        });
    }

    /** Starts {@code mainClass} with {@code args} on {@code classPath} in the JDK the tests run on. */
    static ChildJvm start(String classPath, String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, mainClass));
        command.addAll(List.of(args));
        try {
            return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** The first group of {@code pattern} in the next matching line, within {@code timeout}. */
    String await(Pattern pattern, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || line.equals(END)) {
                throw new AssertionError("no line matching " + pattern + " within " + timeout + "; output so far:\n"
                        + String.join("\n", seen));
            }
            seen.add(line);
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m.groupCount() > 0 ? m.group(1) : line;
            }
        }
    }

    /** Waits for the child to exit within {@code timeout}; its exit status, all its output. */
    Result finish(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the child did not exit within " + timeout + "; output:\n" + String.join("\n", seen));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        String line;
        while ((line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) != null
                && !line.equals(END)) {
            seen.add(line);
        }
        return new Result(process.exitValue(), String.join("\n", seen));
    }

    /** What a finished child did. */
    record Result(int status, String output) {
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
