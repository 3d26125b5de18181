package org.sessionj.crosscheck.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import jdk.jfr.Recording;

/**
 * How much sj-processor adds to javac: compiles a large generated program ({@link BenchmarkProgram})
 * in this JVM with {@code -proc:none}, with an empty processor and with sj-processor, all three in every
 * round (in an order that varies by round) so that a change of machine load hits them alike, after warm-up rounds, and
 * prints the medians of wall time, compiling-thread CPU time and process CPU time with their ratios.
 * Then optionally profiles sj-processor's compilations with JFR and times the worst cases.
 *
 * <p>Options ({@code --name value}): {@code units} (default 90: 270 session files + 30 ordinary ones),
 * {@code rounds} (12: two cycles of {@link RoundOrder} for three configurations, three for four), {@code warmup} (3), {@code seed} (1), {@code processor-path} ({@code true}: a
 * fresh processor class loader per compilation, as Maven does; {@code false}: one warm instance),
 * {@code sources} (extra source roots compiled along, e.g. a module's {@code src/main/java}),
 * {@code profile} (rounds of sj-processor compilations recorded with JFR; 0 = none), {@code profile-out}
 * (the recording, default {@code target/compile-time.jfr}), {@code worst}
 * ({@code true}/{@code false}), {@code worst-cap} (seconds per worst-case compilation, default 120),
 * {@code baseline} (the classes of another sj-processor build, a directory or jar: compiled as a fourth
 * configuration in the same rounds, for an A/B comparison; sj-api and JavaParser come from this build's path),
 * {@code fresh-rounds} (default 6; 0 = none: rounds of the user's own measurement, each configuration,
 * the baseline too when given, compiled by the {@code javac} launcher in a fresh process, timed by that
 * process's whole CPU time, after one untimed round; see {@link FreshJavac}), {@code fresh-threads} ({@code false}; {@code true}: the
 * fresh processes run javac through {@link ThreadCpuJavac} and the report adds the CPU of the compiling, JIT and
 * GC threads).
 * Every round orders the configurations by {@link RoundOrder} (a Williams design: each in every place and
 * after every other equally often over 6 rounds of three configurations, 4 of four), not in one fixed order.
 * Commands: docs/benchmarks.md, "Compile time".
 */
public final class CompileTimeBenchmark {
    private CompileTimeBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int units = Integer.parseInt(options.getOrDefault("units", "90"));
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "12"));
        int warmup = Integer.parseInt(options.getOrDefault("warmup", "3"));
        long seed = Long.parseLong(options.getOrDefault("seed", "1"));
        boolean processorPath = Boolean.parseBoolean(options.getOrDefault("processor-path", "true"));
        int freshRounds = Integer.parseInt(options.getOrDefault("fresh-rounds", "6"));
        int profileRounds = Integer.parseInt(options.getOrDefault("profile", "0"));
        boolean worst = Boolean.parseBoolean(options.getOrDefault("worst", "true"));
        Duration cap = Duration.ofSeconds(Long.parseLong(options.getOrDefault("worst-cap", "120")));

        Path work = Files.createTempDirectory("sj-compile-time");
        System.out.printf(Locale.ROOT, "JDK %s, %d CPUs available, load %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), load());
        BenchmarkProgram.Written program = BenchmarkProgram.write(work.resolve("src"), units, seed);
        List<Path> files = new ArrayList<>(program.files());
        long lines = program.lines();
        if (options.containsKey("sources")) {
            for (String root : options.get("sources").split(",")) {
                try (Stream<Path> walk = Files.walk(Path.of(root))) {
                    for (Path file : walk.filter(f -> f.toString().endsWith(".java")
                            && !f.getFileName().toString().equals("module-info.java")).toList()) {
                        files.add(file);
                        lines += Files.readAllLines(file).size();
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d files, %d lines (%d generated units, seed %d); processors from %s%n",
                files.size(), lines, units, seed, processorPath ? "-processorpath (a fresh class loader per compilation)"
                        : "one instance (warm)");

        Javac javac = new Javac(System.getProperty("java.class.path"), processorPath);
        List<Javac.Setup> setups = new ArrayList<>(Javac.Setup.standard());
        if (options.containsKey("baseline")) {
            javac.baseline(options.get("baseline"));
            setups.add(Javac.Setup.SJ_BASELINE);
        }
        Map<Javac.Setup, List<Javac.Sample>> samples = new EnumMap<>(Javac.Setup.class);
        for (int round = 0; round < warmup + rounds; round++) {
            for (Javac.Setup setup : RoundOrder.of(setups, round)) {
                Javac.Sample sample = compileClean(javac, files, work, setup);
                if (round >= warmup) {
                    samples.computeIfAbsent(setup, k -> new ArrayList<>()).add(sample);
                }
            }
        }
        report(samples, setups, rounds, warmup);
        System.out.printf(Locale.ROOT, "load after: %s%n", load());
        if (freshRounds > 0) {
            FreshJavac fresh = new FreshJavac(System.getProperty("java.class.path"), options.get("baseline"));
            fresh.splitThreads(Boolean.parseBoolean(options.getOrDefault("fresh-threads", "false")));
            fresh(fresh, files, work, freshRounds);
        }

        if (profileRounds > 0) {
            Path jfr = Path.of(options.getOrDefault("profile-out", "target/compile-time.jfr")).toAbsolutePath();
            Files.createDirectories(jfr.getParent());
            try (Recording recording = new Recording()) {
                recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1)).withStackTrace();
                recording.start();
                for (int i = 0; i < profileRounds; i++) {
                    compileClean(javac, files, work, Javac.Setup.SJ);
                }
                recording.stop();
                recording.dump(jfr);
            }
            Hotspots.print(jfr, Thread.currentThread().getName(), 20);
            System.out.println("recording: " + jfr);
        }

        if (worst) {
            WorstCases cases = new WorstCases(javac, cap, work.resolve("worst"));
            cases.series("Worst case: a protocol nested d selections deep (size = d)",
                    List.of(250, 500, 1000, 2000), WorstCases::deepProtocol, "Deep");
            cases.series("Worst case: a @NoAlias local moved inside n nested loops (size = n)",
                    List.of(8, 12, 16, 18, 20, 22, 24, 26), WorstCases::nestedLoops, "Loops");
        }
        delete(work);
        System.exit(0); // an abandoned worst-case compilation must not keep the JVM alive
    }

    private static Javac.Sample compileClean(Javac javac, List<Path> files, Path work, Javac.Setup setup)
            throws IOException {
        System.gc();
        Path out = Files.createTempDirectory(work, "classes");
        Javac.Sample sample;
        try {
            sample = javac.compile(files, out, setup);
        } finally {
            delete(out);
        }
        if (!sample.errors().isEmpty()) {
            throw new IllegalStateException(setup.label + " reported " + sample.errors().size() + " errors, first: "
                    + sample.errors().get(0));
        }
        return sample;
    }

    /**
     * The user's own measurement: each configuration compiled by a fresh javac process per round
     * (all configurations in every round, ordered by {@link RoundOrder}, after one untimed round), medians of
     * whole-process CPU time and of wall time, and the median of the rounds' own ratios.
     */
    private static void fresh(FreshJavac javac, List<Path> files, Path work, int rounds)
            throws IOException, InterruptedException {
        List<Javac.Setup> setups = new ArrayList<>(Javac.Setup.standard());
        if (javac.hasBaseline()) {
            setups.add(Javac.Setup.SJ_BASELINE);
        }
        Map<Javac.Setup, List<Javac.Sample>> samples = new EnumMap<>(Javac.Setup.class);
        Map<Javac.Setup, List<FreshJavac.Threads>> split = new EnumMap<>(Javac.Setup.class);
        for (int round = 0; round <= rounds; round++) {
            // Round 0 is untimed: its order does not count, so the timed rounds start the design at its first order.
            for (Javac.Setup setup : RoundOrder.of(setups, Math.max(0, round - 1))) {
                Path out = Files.createTempDirectory(work, "classes");
                FreshJavac.Sample sample;
                try {
                    sample = javac.compile(files, out, setup, work);
                } finally {
                    delete(out);
                }
                if (round > 0) {
                    // Kept as the in-process samples are, to share the median code: no thread or processor time here.
                    samples.computeIfAbsent(setup, k -> new ArrayList<>())
                            .add(new Javac.Sample(sample.wall(), 0, sample.processCpu(), 0, List.of()));
                    if (sample.threads() != null) {
                        split.computeIfAbsent(setup, k -> new ArrayList<>()).add(sample.threads());
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%nA fresh javac process per compilation (the JDK's javac launcher, processors "
                + "from -processorpath): medians of %d rounds (after 1 untimed round), ms; [min–max]%n", rounds);
        System.out.println("| configuration | wall | process CPU (user + system) |");
        System.out.println("|---|---:|---:|");
        for (Javac.Setup setup : setups) {
            List<Javac.Sample> list = samples.get(setup);
            System.out.printf(Locale.ROOT, "| %s | %s | %s |%n", setup.label, cell(list, Javac.Sample::wall),
                    cell(list, Javac.Sample::processCpu));
        }
        System.out.println();
        System.out.println("| ratio, fresh processes | wall | process CPU | process CPU, median of the rounds' ratios |");
        System.out.println("|---|---:|---:|---:|");
        List<Javac.Setup[]> pairs = new ArrayList<>(List.of(new Javac.Setup[] {Javac.Setup.SJ, Javac.Setup.PROC_NONE},
                new Javac.Setup[] {Javac.Setup.SJ, Javac.Setup.NO_OP},
                new Javac.Setup[] {Javac.Setup.NO_OP, Javac.Setup.PROC_NONE}));
        if (setups.contains(Javac.Setup.SJ_BASELINE)) {
            pairs.add(new Javac.Setup[] {Javac.Setup.SJ_BASELINE, Javac.Setup.PROC_NONE});
            pairs.add(new Javac.Setup[] {Javac.Setup.SJ, Javac.Setup.SJ_BASELINE});
        }
        for (Javac.Setup[] pair : pairs) {
            System.out.printf(Locale.ROOT, "| %s ÷ %s | %s | %s | %s |%n", pair[0].label, pair[1].label,
                    percent(samples, pair[0], pair[1], Javac.Sample::wall),
                    percent(samples, pair[0], pair[1], Javac.Sample::processCpu),
                    perRound(samples.get(pair[0]), samples.get(pair[1]), Javac.Sample::processCpu));
        }
        if (!split.isEmpty()) {
            threads(split, setups);
        }
        System.out.printf(Locale.ROOT, "load after: %s%n", load());
    }

    /** Which threads of the fresh processes spent the CPU ({@code --fresh-threads true}): medians, ms. */
    private static void threads(Map<Javac.Setup, List<FreshJavac.Threads>> split, List<Javac.Setup> setups) {
        System.out.println();
        System.out.println("| by thread, fresh processes (medians, ms) | compiling thread | C1 | C2 | JIT (C1 + C2) | GC | other |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (Javac.Setup setup : setups) {
            List<FreshJavac.Threads> list = split.get(setup);
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |%n", setup.label,
                    medianOf(list, FreshJavac.Threads::compiling), medianOf(list, FreshJavac.Threads::c1),
                    medianOf(list, FreshJavac.Threads::c2), medianOf(list, FreshJavac.Threads::jit),
                    medianOf(list, FreshJavac.Threads::gc), medianOf(list, FreshJavac.Threads::other));
        }
    }

    private static double medianOf(List<FreshJavac.Threads> list, ToLongFunction<FreshJavac.Threads> metric) {
        long[] values = list.stream().mapToLong(metric).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    }

    private static void report(Map<Javac.Setup, List<Javac.Sample>> samples, List<Javac.Setup> setups, int rounds,
            int warmup) {
        System.out.printf(Locale.ROOT, "%nMedians of %d rounds (after %d warm-up rounds), ms; [min–max]%n", rounds, warmup);
        System.out.println("| configuration | wall | thread CPU | process CPU | thread CPU inside the processor |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (Javac.Setup setup : setups) {
            List<Javac.Sample> list = samples.get(setup);
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", setup.label, cell(list, Javac.Sample::wall),
                    cell(list, Javac.Sample::threadCpu), cell(list, Javac.Sample::processCpu),
                    setup == Javac.Setup.PROC_NONE ? "–" : cell(list, Javac.Sample::processorCpu));
        }
        System.out.println();
        System.out.println("| ratio | wall | thread CPU | process CPU |");
        System.out.println("|---|---:|---:|---:|");
        ratio(samples, Javac.Setup.SJ, Javac.Setup.PROC_NONE);
        ratio(samples, Javac.Setup.SJ, Javac.Setup.NO_OP);
        ratio(samples, Javac.Setup.NO_OP, Javac.Setup.PROC_NONE);
        if (setups.contains(Javac.Setup.SJ_BASELINE)) {
            ratio(samples, Javac.Setup.SJ_BASELINE, Javac.Setup.PROC_NONE);
            ratio(samples, Javac.Setup.SJ, Javac.Setup.SJ_BASELINE);
        }
        // The steadier figure under load: the processor's own time against javac's, both from this run.
        System.out.printf(Locale.ROOT, "%nthread CPU inside sj-processor ÷ thread CPU of javac -proc:none: %.3f "
                + "(median %.0f ms ÷ %.0f ms)%n", median(samples.get(Javac.Setup.SJ), Javac.Sample::processorCpu)
                / median(samples.get(Javac.Setup.PROC_NONE), Javac.Sample::threadCpu),
                median(samples.get(Javac.Setup.SJ), Javac.Sample::processorCpu) / 1e6,
                median(samples.get(Javac.Setup.PROC_NONE), Javac.Sample::threadCpu) / 1e6);
        if (setups.contains(Javac.Setup.SJ_BASELINE)) {
            System.out.printf(Locale.ROOT, "thread CPU inside sj-processor ÷ inside the baseline: %s%n",
                    percent(samples, Javac.Setup.SJ, Javac.Setup.SJ_BASELINE, Javac.Sample::processorCpu));
        }
    }

    private static void ratio(Map<Javac.Setup, List<Javac.Sample>> samples, Javac.Setup a, Javac.Setup b) {
        System.out.printf(Locale.ROOT, "| %s ÷ %s | %s | %s | %s |%n", a.label, b.label,
                percent(samples, a, b, Javac.Sample::wall), percent(samples, a, b, Javac.Sample::threadCpu),
                percent(samples, a, b, Javac.Sample::processCpu));
    }

    private static String percent(Map<Javac.Setup, List<Javac.Sample>> samples, Javac.Setup a, Javac.Setup b,
            ToLongFunction<Javac.Sample> metric) {
        double x = median(samples.get(a), metric);
        double y = median(samples.get(b), metric);
        return String.format(Locale.ROOT, "%.3f (%+.1f %%)", x / y, 100 * (x - y) / y);
    }

    /**
     * The median over rounds of one round's ratio: the two compilations of a round ran minutes apart at
     * most, so a load that changes between rounds cancels in their ratio.
     */
    private static String perRound(List<Javac.Sample> a, List<Javac.Sample> b, ToLongFunction<Javac.Sample> metric) {
        double[] ratios = new double[a.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = (double) metric.applyAsLong(a.get(i)) / metric.applyAsLong(b.get(i));
        }
        Arrays.sort(ratios);
        int n = ratios.length;
        double median = n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
        return String.format(Locale.ROOT, "%.3f (%+.1f %%) [%.3f–%.3f]", median, 100 * (median - 1), ratios[0],
                ratios[n - 1]);
    }

    private static String cell(List<Javac.Sample> list, ToLongFunction<Javac.Sample> metric) {
        long[] values = list.stream().mapToLong(metric).sorted().toArray();
        return String.format(Locale.ROOT, "%.0f [%.0f–%.0f]", median(list, metric) / 1e6, values[0] / 1e6,
                values[values.length - 1] / 1e6);
    }

    private static double median(List<Javac.Sample> list, ToLongFunction<Javac.Sample> metric) {
        long[] values = list.stream().mapToLong(metric).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    }

    static void delete(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs but found " + Arrays.toString(args));
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }
}
