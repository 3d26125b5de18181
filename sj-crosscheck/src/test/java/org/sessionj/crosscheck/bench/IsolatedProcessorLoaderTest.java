package org.sessionj.crosscheck.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.annotation.processing.Processor;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.processor.SessionProcessor;

/**
 * The benchmark's processor starts cold in every compilation, as under Maven: each loader defines the
 * processor's classes itself, although this JVM's class path holds them too (javac's own
 * processor-path loader took them from there, warm, for the whole run).
 */
class IsolatedProcessorLoaderTest {
    private final ClassLoader javacLoader = ToolProvider.getSystemJavaCompiler().getClass().getClassLoader();

    @Test
    void everyLoaderDefinesTheProcessorAfresh() throws IOException {
        try (IsolatedProcessorLoader first = new IsolatedProcessorLoader(Javac.SJ_PROCESSOR_PATH, javacLoader);
                IsolatedProcessorLoader second = new IsolatedProcessorLoader(Javac.SJ_PROCESSOR_PATH, javacLoader)) {
            Processor one = first.processor(SessionProcessor.class.getName());
            Processor two = second.processor(SessionProcessor.class.getName());
            assertThat(one.getClass()).isNotSameAs(SessionProcessor.class).isNotSameAs(two.getClass());
            assertThat(one.getClass().getClassLoader()).isSameAs(first);
            // The API it implements is javac's, shared: otherwise javac could not call it.
            assertThat(one).isInstanceOf(Processor.class);
        }
    }

    @Test
    void aColdProcessorCompilesTheProgramCleanly(@TempDir Path dir) throws IOException {
        BenchmarkProgram.Written program = BenchmarkProgram.write(dir.resolve("src"), 3, 1);
        Javac javac = new Javac(System.getProperty("java.class.path"), true);
        for (Javac.Setup setup : Javac.Setup.standard()) {
            Javac.Sample sample = javac.compile(program.files(), Files.createDirectories(dir.resolve(setup.name())), setup);
            assertThat(sample.errors()).as(setup.label).isEmpty();
            if (setup == Javac.Setup.SJ) {
                assertThat(sample.processorCpu()).as("CPU inside the processor").isPositive()
                        .isLessThanOrEqualTo(sample.threadCpu());
            }
        }
    }

    /** A baseline build (here: this build's own classes) is compiled as a fourth configuration. */
    @Test
    void aBaselineBuildIsCompiledFromItsOwnClasses(@TempDir Path dir) throws Exception {
        BenchmarkProgram.Written program = BenchmarkProgram.write(dir.resolve("src"), 3, 1);
        Javac javac = new Javac(System.getProperty("java.class.path"), true);
        assertThatThrownBy(() -> javac.compile(program.files(), Files.createDirectories(dir.resolve("none")),
                Javac.Setup.SJ_BASELINE)).isInstanceOf(IllegalStateException.class).hasMessageContaining("--baseline");
        javac.baseline(Path.of(SessionProcessor.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        Javac.Sample sample = javac.compile(program.files(), Files.createDirectories(dir.resolve("baseline")),
                Javac.Setup.SJ_BASELINE);
        assertThat(sample.errors()).isEmpty();
        assertThat(sample.processorCpu()).isPositive();
    }
}
