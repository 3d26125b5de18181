package org.sessionj.crosscheck.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.sessionj.crosscheck.harness.InProcessCompiler.Source;
import org.sessionj.crosscheck.mutation.Mutation;
import org.sessionj.crosscheck.mutation.Mutator;
import org.sessionj.crosscheck.program.GeneratedCase;
import org.sessionj.crosscheck.program.JavaWriter;
import org.sessionj.crosscheck.program.Side;
import org.sessionj.processor.SessionProcessor;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The cross-check: for each generated case, compiles the protocol, the program, the peer and the
 * program's mutants together (once for class files, once with sj-processor for its verdicts), runs
 * the program and then every mutant against the peer over the in-JVM transport, and records both
 * verdicts. Runs overlap (they mostly wait) while the next case compiles. A mutant whose
 * only symptom is a timeout and that the checker accepted is run again with a long timeout before it
 * counts, so a slow machine cannot make up an escape.
 */
public final class CrossCheck {
    private final Config config;
    private final Consumer<String> log;
    /** Cases compiled ahead of the one whose runs are awaited: compiling overlaps running. */
    private static final int IN_FLIGHT = 3;

    private final InProcessCompiler compiler = InProcessCompiler.withJvmClassPath();

    /**
     * @param seed the base seed; case {@code i} has seed {@code seed * 100000 + i}
     * @param first the index of the first case (to rerun one case of a run: its index and {@code programs = 1})
     * @param programs how many cases
     * @param mutantsPerProgram mutants drawn per program
     * @param maxDepth how deep protocol constructs nest
     * @param timeout the receive timeout of a run (a desync shows as a timeout after it)
     * @param confirmTimeout the longer timeout a suspected escape is confirmed with
     * @param parallelism runs at a time
     */
    public record Config(long seed, int first, int programs, int mutantsPerProgram, int maxDepth, Duration timeout,
            Duration confirmTimeout, int parallelism) {

        public long caseSeed(int index) {
            return seed * 100_000 + index;
        }
    }

    /**
     * One case's results.
     *
     * @param programCodes the processor's diagnostics on the unmutated program (should be none)
     * @param peerCodes the same for the peer
     * @param javaErrors javac's own errors on the generated sources (a generator bug)
     * @param crash the processor's crash, if it threw
     */
    public record CaseResult(GeneratedCase generated, List<InProcessCompiler.Diag> programCodes,
            List<InProcessCompiler.Diag> peerCodes, List<InProcessCompiler.Diag> javaErrors, String crash,
            Outcome baseOutcome, List<MutantResult> mutants) {

        public boolean falseAlarm() {
            return !programCodes.isEmpty() || !peerCodes.isEmpty();
        }

        CaseResult withBaseOutcome(Outcome outcome) {
            return new CaseResult(generated, programCodes, peerCodes, javaErrors, crash, outcome, mutants);
        }

        CaseResult withMutantOutcome(int index, Outcome outcome) {
            List<MutantResult> changed = new ArrayList<>(mutants);
            MutantResult m = changed.get(index);
            changed.set(index, new MutantResult(m.caseSeed(), m.index(), m.signature(), m.description(), m.codes(),
                    m.javaError(), outcome, m.source()));
            return new CaseResult(generated, programCodes, peerCodes, javaErrors, crash, baseOutcome, changed);
        }
    }

    public CrossCheck(Config config, Consumer<String> log) {
        this.config = config;
        this.log = log;
    }

    /** Runs every case of the configuration. */
    public List<CaseResult> run() {
        SJRuntime.configure(runtime(config.timeout()));
        ExecutorService runs = Executors.newFixedThreadPool(config.parallelism(), Thread.ofPlatform().daemon()
                .name("crosscheck-run-", 0).factory());
        ArrayDeque<PendingCase> window = new ArrayDeque<>();
        List<CaseResult> results = new ArrayList<>();
        try {
            for (int i = config.first(); i < config.first() + config.programs(); i++) {
                window.add(start(config.caseSeed(i), runs));
                if (window.size() > IN_FLIGHT) {
                    results.add(window.poll().finish());
                }
            }
            while (!window.isEmpty()) {
                results.add(window.poll().finish());
            }
            confirm(results);
            return results;
        } finally {
            runs.shutdownNow();
            SJRuntime.configure(SJRuntimeConfig.defaults());
        }
    }

    /** A runtime configuration for in-JVM sessions that give up waiting after {@code timeout}. */
    private static SJRuntimeConfig runtime(Duration timeout) {
        return SJRuntimeConfig.builder().transports("shm").defaultTimeout(timeout).initiationTimeout(timeout).build();
    }

    private final class PendingCase {
        private final GeneratedCase generated;
        private final List<Mutation> mutations;
        private final InProcessCompiler.Result compiled;
        private final Path classes;
        private final CaseRunner runner;
        private final Future<Outcome> base;
        private final List<Future<Outcome>> mutantRuns = new ArrayList<>();
        private final List<String> mutantSources;

        PendingCase(GeneratedCase generated, List<Mutation> mutations, List<String> mutantSources,
                InProcessCompiler.Result compiled, Path classes, ExecutorService runs) {
            this.generated = generated;
            this.mutations = mutations;
            this.mutantSources = mutantSources;
            this.compiled = compiled;
            this.classes = classes;
            this.runner = new CaseRunner(generated, loaderOf(classes));
            boolean runnable = compiled.crash() == null && !compiled.javaError(name("Proto"))
                    && !compiled.javaError(name("Peer"));
            this.base = runnable && !compiled.javaError(name("Program"))
                    ? runs.submit(() -> runner.run("Program", config.timeout())) : null;
            for (int m = 0; m < mutations.size(); m++) {
                String cls = "Mut" + m;
                mutantRuns.add(runnable && !compiled.javaError(name(cls)) ? runs.submit(() -> runner.run(cls, config.timeout())) : null);
            }
        }

        String name(String simple) {
            return generated.pkg() + "." + simple;
        }

        /** Waits for the case's runs, then frees its classes. */
        CaseResult finish() {
            try {
                return results();
            } finally {
                try {
                    runner.loader().close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                delete(classes);
            }
        }

        private CaseResult results() {
            Outcome baseOutcome = await(base);
            List<MutantResult> mutants = new ArrayList<>();
            for (int m = 0; m < mutations.size(); m++) {
                Mutation mutation = mutations.get(m);
                String cls = name("Mut" + m);
                List<String> codes = compiled.of(cls).stream().filter(d -> d.isError() && d.code() != null)
                        .map(InProcessCompiler.Diag::code).distinct().toList();
                mutants.add(new MutantResult(generated.seed(), m, mutation.signature(), mutation.description(), codes,
                        compiled.javaError(cls), await(mutantRuns.get(m)), mutantSources.get(m)));
            }
            List<InProcessCompiler.Diag> javaErrors = new ArrayList<>();
            for (String cls : List.of("Proto", "Program", "Peer")) {
                compiled.of(name(cls)).stream().filter(d -> d.isError() && d.code() == null).forEach(javaErrors::add);
            }
            return new CaseResult(generated, compiled.of(name("Program")).stream().filter(d -> d.code() != null).toList(),
                    compiled.of(name("Peer")).stream().filter(d -> d.code() != null).toList(), javaErrors,
                    compiled.crash(), baseOutcome, mutants);
        }
    }

    private PendingCase start(long caseSeed, ExecutorService runs) {
        GeneratedCase generated = GeneratedCase.generate(caseSeed, config.maxDepth());
        List<Mutation> mutations = new Mutator(new SplittableRandom(caseSeed ^ 0x5DEECE66DL))
                .mutants(generated.program(), config.mutantsPerProgram());
        List<Source> sources = new ArrayList<>(List.of(
                new Source(generated.pkg() + ".Proto", generated.protocolSource()),
                new Source(generated.pkg() + ".Program", generated.programSource()),
                new Source(generated.pkg() + ".Peer", generated.peerSource())));
        List<String> mutantSources = new ArrayList<>();
        for (int m = 0; m < mutations.size(); m++) {
            mutantSources.add(JavaWriter.sideFile(generated.pkg(), "Mut" + m, mutations.get(m).mutant()));
            sources.add(new Source(generated.pkg() + ".Mut" + m, mutantSources.get(m)));
        }
        Path classes;
        try {
            classes = Files.createTempDirectory("crosscheck-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        InProcessCompiler.Result compiled = compile(sources, classes);
        if (compiled.crash() != null) {
            log.accept("case " + caseSeed + ": the processor crashed: " + compiled.crash().lines().findFirst().orElse(""));
        }
        return new PendingCase(generated, mutations, mutantSources, compiled, classes, runs);
    }

    /**
     * Class files of every source that is valid Java (javac writes none once any file has an error, so
     * invalid files are left out and the rest compiled again), then the processor's verdicts on them;
     * the result holds javac's errors and the processor's diagnostics together.
     */
    private InProcessCompiler.Result compile(List<Source> sources, Path classes) {
        List<Source> valid = new ArrayList<>(sources);
        Map<String, List<InProcessCompiler.Diag>> javaErrors = new LinkedHashMap<>();
        while (true) {
            InProcessCompiler.Result plain = compiler.compile(valid, classes, InProcessCompiler.Mode.CLASSES, null);
            List<Source> invalid = valid.stream().filter(source -> plain.javaError(source.className())).toList();
            if (invalid.isEmpty() || invalid.size() == valid.size()) {
                break;
            }
            for (Source source : invalid) {
                javaErrors.put(source.className(), plain.of(source.className()));
            }
            valid.removeAll(invalid);
        }
        InProcessCompiler.Result checked = compiler.compile(valid, classes, InProcessCompiler.Mode.CHECK, new SessionProcessor());
        Map<String, List<InProcessCompiler.Diag>> all = new LinkedHashMap<>(checked.byClass());
        all.putAll(javaErrors);
        return new InProcessCompiler.Result(all, checked.unattributed(), checked.crash());
    }

    /** Runs again, with the long timeout, every accepted mutant (and failed base run) seen only timing out. */
    private void confirm(List<CaseResult> results) {
        List<int[]> suspects = new ArrayList<>();
        for (int c = 0; c < results.size(); c++) {
            CaseResult result = results.get(c);
            for (MutantResult mutant : result.mutants()) {
                if (mutant.escape() && mutant.outcome().onlyTimeouts()) {
                    suspects.add(new int[] {c, mutant.index()});
                }
            }
            if (result.baseOutcome() != null && !result.baseOutcome().ok()) {
                suspects.add(new int[] {c, -1});
            }
        }
        if (suspects.isEmpty()) {
            return;
        }
        log.accept("confirming " + suspects.size() + " timeout-only verdicts with a " + config.confirmTimeout().toSeconds()
                + " s timeout");
        SJRuntime.configure(runtime(config.confirmTimeout()));
        ExecutorService runs = Executors.newFixedThreadPool(config.parallelism(), Thread.ofPlatform().daemon()
                .name("crosscheck-confirm-", 0).factory());
        try {
            List<Future<Outcome>> again = new ArrayList<>();
            for (int[] suspect : suspects) {
                CaseResult result = results.get(suspect[0]);
                again.add(runs.submit(() -> rerun(result, suspect[1])));
            }
            for (int i = 0; i < suspects.size(); i++) {
                int[] suspect = suspects.get(i);
                CaseResult result = results.get(suspect[0]);
                Outcome outcome = await(again.get(i));
                results.set(suspect[0], suspect[1] < 0 ? result.withBaseOutcome(outcome)
                        : result.withMutantOutcome(suspect[1], outcome));
            }
        } finally {
            runs.shutdownNow();
        }
    }

    /** Compiles the case again (without the processor) and runs its program ({@code mutant < 0}) or a mutant. */
    private Outcome rerun(CaseResult result, int mutant) throws Exception {
        GeneratedCase generated = result.generated();
        List<Source> sources = new ArrayList<>(List.of(
                new Source(generated.pkg() + ".Proto", generated.protocolSource()),
                new Source(generated.pkg() + ".Peer", generated.peerSource())));
        String programClass = mutant < 0 ? "Program" : "Mut" + mutant;
        sources.add(new Source(generated.pkg() + "." + programClass,
                mutant < 0 ? generated.programSource() : result.mutants().get(mutant).source()));
        Path classes = Files.createTempDirectory("crosscheck-confirm-");
        try {
            InProcessCompiler.Result compiled;
            synchronized (compiler) {
                compiled = compiler.compile(sources, classes, InProcessCompiler.Mode.CLASSES, null);
            }
            if (!compiled.byClass().isEmpty()) {
                throw new IllegalStateException("no longer compiles: " + compiled.byClass());
            }
            try (URLClassLoader loader = loaderOf(classes)) {
                return new CaseRunner(generated, loader).run(programClass, config.confirmTimeout());
            }
        } finally {
            delete(classes);
        }
    }

    /** Runs a program class of a case against the case's peer from a given class loader. */
    private record CaseRunner(GeneratedCase generated, URLClassLoader loader) {
        Outcome run(String programClass, Duration timeout) throws ClassNotFoundException {
            String pkg = generated.pkg() + ".";
            Class<?> program = loader.loadClass(pkg + programClass);
            Class<?> peer = loader.loadClass(pkg + "Peer");
            Class<?> accepterProtocol = loader.loadClass(pkg + "Proto$Acc");
            Duration deadline = timeout.multipliedBy(3).plusSeconds(2);
            return generated.program().role() == Side.Role.ACCEPTER
                    ? SessionRunner.run(accepterProtocol, program, generated.programSeed(), peer, generated.peerSeed(), true, deadline)
                    : SessionRunner.run(accepterProtocol, peer, generated.peerSeed(), program, generated.programSeed(), false, deadline);
        }
    }

    /** A loader for generated classes; assertions stay off as in a production run (so {@code assert} bodies do not run). */
    private static URLClassLoader loaderOf(Path classes) {
        try {
            URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, CrossCheck.class.getClassLoader());
            loader.setDefaultAssertionStatus(false);
            return loader;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T await(Future<T> future) {
        if (future == null) {
            return null;
        }
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a run failed in the harness: " + e.getCause(), e.getCause());
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
