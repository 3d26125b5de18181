package org.sessionj.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sessionj.crosscheck.harness.InProcessCompiler;
import org.sessionj.crosscheck.harness.InProcessCompiler.Mode;
import org.sessionj.crosscheck.harness.KnownFindings;
import org.sessionj.crosscheck.harness.Outcome;
import org.sessionj.crosscheck.harness.SessionRunner;
import org.sessionj.processor.SessionProcessor;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The minimal reproducers of the cross-check's findings ({@code src/test/resources/crosscheck/escapes}),
 * each one file with a protocol, the program and its peer. Each is run: an escape's program must fail
 * at run time (the finding is real), a false alarm's must run fine. Statically, a reproducer listed in
 * {@code known-escapes.txt} must still show its finding — so the list is emptied as the checker is
 * fixed — and one that is not listed must get the right verdict: an escape rejected, a false alarm
 * accepted.
 */
class EscapeReproducersTest {
    private static final Pattern HEADER = Pattern.compile("^// (\\w+): (.*)$", Pattern.MULTILINE);
    private static final KnownFindings KNOWN = KnownFindings.load(CrossCheckTest.KNOWN);
    private static final InProcessCompiler COMPILER = InProcessCompiler.withJvmClassPath();

    @TempDir
    static Path classes;

    @BeforeAll
    static void inJvmSessionsThatGiveUpQuickly() {
        SJRuntime.configure(SJRuntimeConfig.builder().transports("shm").defaultTimeout(Duration.ofSeconds(2))
                .initiationTimeout(Duration.ofSeconds(2)).build());
    }

    @AfterAll
    static void defaults() {
        SJRuntime.configure(SJRuntimeConfig.defaults());
    }

    /** A reproducer file: its id (file name), header fields and text. */
    record Reproducer(String id, Map<String, String> header, String text) {
        boolean escape() {
            return header.get("expected").startsWith("rejected");
        }

        @Override
        public String toString() {
            return id;
        }
    }

    static Stream<Reproducer> reproducers() throws IOException, URISyntaxException {
        URL dir = EscapeReproducersTest.class.getResource("/crosscheck/escapes");
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().map(EscapeReproducersTest::read).toList().stream();
        }
    }

    private static Reproducer read(Path file) {
        try {
            String text = Files.readString(file);
            Matcher m = HEADER.matcher(text);
            Map<String, String> header = new java.util.LinkedHashMap<>();
            while (m.find()) {
                header.putIfAbsent(m.group(1), m.group(2).strip());
            }
            String id = file.getFileName().toString().replace(".java", "");
            assertThat(header).as(id + " header").containsKeys("class", "program", "expected", "runtime");
            return new Reproducer(id, header, text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reproducers")
    void reproducerShowsItsFindingAtRunTimeAndTheListedVerdictAtCompileTime(Reproducer reproducer) throws Exception {
        Path out = Files.createDirectories(classes.resolve(reproducer.id()));
        List<InProcessCompiler.Source> source = List.of(new InProcessCompiler.Source("escapes." + reproducer.id(),
                reproducer.text()));
        InProcessCompiler.Result plain = COMPILER.compile(source, out, Mode.CLASSES, null);
        assertThat(plain.byClass()).as("javac's diagnostics on " + reproducer.id()).isEmpty();
        InProcessCompiler.Result checked = COMPILER.compile(source, out, Mode.CHECK, new SessionProcessor());
        assertThat(checked.crash()).as("processor crash").isNull();
        boolean rejected = checked.rejected("escapes." + reproducer.id());

        Outcome outcome;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader())) {
            loader.setDefaultAssertionStatus(false);
            Class<?> type = loader.loadClass("escapes." + reproducer.id());
            Class<?> accepterProtocol = loader.loadClass("escapes." + reproducer.id() + "$Acc");
            outcome = SessionRunner.run(accepterProtocol, type, 1, type, 2,
                    reproducer.header().get("program").equals("accepter"), Duration.ofSeconds(10));
        }
        boolean listed = KNOWN.findings().stream().anyMatch(f -> f.reproducer().equals(reproducer.id()));
        if (reproducer.escape()) {
            assertThat(outcome.ok()).as(reproducer.id() + " must fail at run time (" + reproducer.header().get("runtime")
                    + "), was " + outcome).isFalse();
            if (listed) {
                assertThat(rejected).as(reproducer.id() + " is now rejected (" + checked.of("escapes." + reproducer.id())
                        + "): the checker closed this hole, remove its line from known-escapes.txt").isFalse();
            } else {
                assertThat(rejected).as(reproducer.id() + " escapes the checker but is not listed in known-escapes.txt")
                        .isTrue();
            }
        } else {
            assertThat(outcome.ok()).as(reproducer.id() + " is well typed and must run, was " + outcome).isTrue();
            if (listed) {
                assertThat(rejected).as(reproducer.id() + " is now accepted: the false alarm is fixed, remove its line "
                        + "from known-escapes.txt").isTrue();
            } else {
                assertThat(checked.byClass()).as(reproducer.id() + " is well typed but the checker reports").isEmpty();
            }
        }
    }

    @Test
    void everyListedFindingHasAReproducer() throws Exception {
        List<String> ids = reproducers().map(Reproducer::id).toList();
        assertThat(KNOWN.findings()).extracting(KnownFindings.Finding::reproducer).allMatch(ids::contains);
    }
}
