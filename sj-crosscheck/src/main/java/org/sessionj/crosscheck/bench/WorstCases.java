package org.sessionj.crosscheck.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * Inputs that make a checker's cost explode (issue 12 item 8), timed with and without sj-processor:
 * a protocol nested {@code d} choices deep, and a method with a {@code @NoAlias} local inside
 * {@code n} nested loops. Each compilation runs on a thread of its own with the JVM's default stack
 * size (as javac under Maven) and a time cap; a series stops at its first failure or capped run.
 */
final class WorstCases {
    private final Javac javac;
    private final Duration cap;
    private final Path work;

    WorstCases(Javac javac, Duration cap, Path work) {
        this.javac = javac;
        this.cap = cap;
        this.work = work;
    }

    /** {@code @Protocol("cbegin.!{A: !{A: … !<int> …}, B: }")}, {@code depth} selections deep, and nothing using it. */
    static String deepProtocol(int depth) {
        StringBuilder type = new StringBuilder("cbegin.");
        type.append("!{A: ".repeat(depth)).append("!<int>").append(", B: }".repeat(depth));
        return """
                package worst;

                import org.sessionj.api.Protocol;

                public final class Deep {
                    @Protocol("%s")
                    public interface Nested {
                    }
                }
                """.formatted(type);
    }

    /** A method whose {@code @NoAlias} array is moved and refilled inside {@code loops} nested loops. */
    static String nestedLoops(int loops) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < loops; i++) {
            body.append("    ".repeat(i + 2)).append("for (int i").append(i).append(" = 0; i").append(i).append(" < n; i")
                    .append(i).append("++) {\n");
        }
        String indent = "    ".repeat(loops + 2);
        body.append(indent).append("int[] old = a;\n").append(indent).append("a = new int[old.length + 1];\n")
                .append(indent).append("a[0] = old[0] + 1;\n");
        for (int i = loops - 1; i >= 0; i--) {
            body.append("    ".repeat(i + 2)).append("}\n");
        }
        return """
                package worst;

                import org.sessionj.api.NoAlias;

                public final class Loops {
                    static int run(int n) {
                        @NoAlias int[] a = new int[1];
                %s        return a[0];
                    }
                }
                """.formatted(body);
    }

    /** Compiles each input of a series with and without the processor and prints a row per size. */
    void series(String title, List<Integer> sizes, IntFunction<String> source, String className) throws IOException {
        System.out.printf(Locale.ROOT, "%n%s%n| size | javac -proc:none ms | javac + sj-processor ms | outcome |%n|---:|---:|---:|---|%n",
                title);
        for (int size : sizes) {
            Path dir = Files.createDirectories(work.resolve(className + size));
            Path file = dir.resolve(className + ".java");
            Files.writeString(file, source.apply(size));
            String plain = run(file, Javac.Setup.PROC_NONE);
            String checked = run(file, Javac.Setup.SJ);
            String[] p = plain.split("\\|", 2);
            String[] c = checked.split("\\|", 2);
            System.out.printf(Locale.ROOT, "| %d | %s | %s | %s |%n", size, p[0], c[0], c[1]);
            if (!c[1].equals("ok")) {
                break;
            }
        }
    }

    /** "time|outcome" of compiling {@code file}. */
    private String run(Path file, Javac.Setup setup) throws IOException {
        Path out = Files.createDirectories(work.resolve("out-" + file.getParent().getFileName() + "-" + setup));
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread thread = new Thread(null, () -> {
            try {
                Javac.Sample sample = javac.compile(List.of(file), out, setup);
                String outcome = sample.errors().isEmpty() ? "ok" : "errors: " + firstLine(sample.errors().get(0));
                result.complete(String.format(Locale.ROOT, "%.0f|%s", sample.wall() / 1e6, outcome));
            } catch (Throwable e) {
                result.complete("-|" + e.getClass().getSimpleName() + ": " + firstLine(String.valueOf(e.getMessage())));
            }
        }, "worst-case-javac", 0);
        thread.setDaemon(true);
        thread.start();
        try {
            return result.get(cap.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return "> " + cap.toMillis() + "|did not finish within " + cap.toSeconds() + " s (abandoned; later figures share the CPU with it)";
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String firstLine(String text) {
        String line = text.lines().findFirst().orElse("");
        return line.length() > 160 ? line.substring(0, 160) + "…" : line;
    }
}
