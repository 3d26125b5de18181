package org.sessionj.crosscheck.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.sessionj.crosscheck.harness.InProcessCompiler;
import org.sessionj.crosscheck.program.GeneratedCase;
import org.sessionj.processor.SessionProcessor;

/**
 * The large program the compile-time benchmark compiles: {@code units} packages, each with a protocol
 * file, a client and a server class (a generated case's program and peer: sessions in every method,
 * loops, branches, recursion, {@code @NoAlias} and {@code pass}, session methods), and every third
 * unit an ordinary session-free class of similar size (utility code such as every project has).
 * Units whose code the checker rejects today (its known false alarms) are replaced by the next seed,
 * so that every configuration compiles the same, clean program.
 */
public final class BenchmarkProgram {
    private BenchmarkProgram() {
    }

    /** The written program: its source files and line count. */
    public record Written(List<Path> files, long lines, int units) {
    }

    /** Writes the program for {@code seed} into {@code root}. */
    public static Written write(Path root, int units, long seed) throws IOException {
        InProcessCompiler compiler = InProcessCompiler.withJvmClassPath();
        List<Path> files = new ArrayList<>();
        long lines = 0;
        long next = seed;
        for (int unit = 0; unit < units; unit++) {
            String pkg = "bench.u" + unit;
            List<InProcessCompiler.Source> sources;
            do {
                GeneratedCase generated = GeneratedCase.generate(next++, 4);
                String protocol = generated.protocolSource().replace("package " + generated.pkg() + ";", "package " + pkg + ";");
                String client = generated.programSource().replace(generated.pkg(), pkg).replace("class Program", "class Client")
                        .replace("private Program()", "private Client()");
                String server = generated.peerSource().replace(generated.pkg(), pkg).replace("class Peer", "class Server")
                        .replace("private Peer()", "private Server()");
                sources = List.of(new InProcessCompiler.Source(pkg + ".Proto", protocol),
                        new InProcessCompiler.Source(pkg + ".Client", client),
                        new InProcessCompiler.Source(pkg + ".Server", server));
            } while (!clean(compiler, sources));
            if (unit % 3 == 2) {
                sources = new ArrayList<>(sources);
                sources.add(new InProcessCompiler.Source(pkg + ".Stats", ordinaryClass(pkg, new SplittableRandom(next))));
            }
            for (InProcessCompiler.Source source : sources) {
                Path file = root.resolve(source.className().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, source.text());
                files.add(file);
                lines += source.text().lines().count();
            }
        }
        return new Written(files, lines, units);
    }

    private static boolean clean(InProcessCompiler compiler, List<InProcessCompiler.Source> sources) throws IOException {
        Path scratch = Files.createTempDirectory("sj-bench-check");
        try {
            InProcessCompiler.Result result = compiler.compile(sources, scratch, InProcessCompiler.Mode.CHECK,
                    new SessionProcessor());
            return result.crash() == null && result.byClass().isEmpty() && result.unattributed().isEmpty();
        } finally {
            try (var walk = Files.walk(scratch)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A session-free class: a few numeric methods with loops, collections and a record. */
    static String ordinaryClass(String pkg, SplittableRandom random) {
        StringBuilder out = new StringBuilder();
        out.append("package ").append(pkg).append(";\n\nimport java.util.ArrayList;\nimport java.util.List;\n")
                .append("import java.util.Map;\nimport java.util.TreeMap;\n\n")
                .append("/** Statistics over samples (no sessions). */\npublic final class Stats {\n")
                .append("    public record Summary(double mean, double min, double max, int count) {\n    }\n\n")
                .append("    private Stats() {\n    }\n");
        int methods = 4 + random.nextInt(4);
        for (int m = 0; m < methods; m++) {
            out.append(String.format(Locale.ROOT, """

                        public static Summary summary%d(double[] samples, double scale) {
                            double sum = 0;
                            double min = Double.MAX_VALUE;
                            double max = -Double.MAX_VALUE;
                            List<Double> kept = new ArrayList<>();
                            for (double sample : samples) {
                                double v = sample * scale + %d;
                                if (v < min) {
                                    min = v;
                                }
                                if (v > max) {
                                    max = v;
                                }
                                sum += v;
                                kept.add(v);
                            }
                            Map<Long, Integer> histogram = new TreeMap<>();
                            for (double v : kept) {
                                histogram.merge(Math.round(v), 1, Integer::sum);
                            }
                            int count = histogram.values().stream().mapToInt(Integer::intValue).sum();
                            return new Summary(count == 0 ? 0 : sum / count, min, max, count);
                        }
                    """, m, random.nextInt(100)));
        }
        out.append("}\n");
        return out.toString();
    }
}
