package org.sessionj.runtime.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.text.MessageFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.runtime.spi.support.SystemSettings;

/** A protocol without the processor's descriptor is reported: once as a warning, or as an error. */
class MissingDescriptorTest {

    @Protocol("cbegin.!<int>")
    public interface Undescribed {
    }

    @Protocol("cbegin.!<String>")
    public interface RefusedThenAccepted {
    }

    @Test
    void warnsOncePerInterfaceNamingTheProcessorConfiguration() {
        List<String> warnings = captureWarnings(() -> {
            ProtocolRegistry.of(Undescribed.class);
            ProtocolRegistry.of(Undescribed.class);
        });
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains(Undescribed.class.getName())
                .contains("sj-processor").contains("annotationProcessorPaths").contains("maven-compiler-plugin 3.5")
                .contains("-Dsessionj.missingDescriptor=error");
    }

    /**
     * adv15 A8: the JDK's source launcher ({@code java Hello.java}) compiles in memory without annotation
     * processors; the warning says so and how to compile first, instead of advising a Maven pom. A real
     * launch of the test's own JDK, with the test's class path.
     */
    @Test
    @org.junit.jupiter.api.Timeout(120)
    void aProtocolRunFromTheSourceLauncherIsToldToCompileFirst(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path source = dir.resolve("Hello.java");
        java.nio.file.Files.writeString(source, """
                import org.sessionj.api.Protocol;
                public class Hello {
                    @Protocol("cbegin.!<int>") interface P {}
                    public static void main(String[] args) {
                        // What SJService.create does first (this module's tests have no transport to create with).
                        org.sessionj.runtime.internal.protocol.ProtocolRegistry.of(P.class);
                        System.out.println("created");
                    }
                }
                """);
        java.nio.file.Path log = dir.resolve("out.log");
        Process process = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), source.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(100, java.util.concurrent.TimeUnit.SECONDS)).as("the launch ends").isTrue();
        String output = java.nio.file.Files.readString(log);
        assertThat(output).contains("created").contains("protocol Hello$P has no descriptor")
                .contains("The source launcher (java File.java) runs no annotation processor: compile the file first")
                .doesNotContain("annotationProcessorPaths");
    }

    @Test
    void aDescribedProtocolIsNotReported() {
        // ProtocolRegistryTest$Described has a descriptor in the test resources.
        assertThat(captureWarnings(() -> ProtocolRegistry.of(ProtocolRegistryTest.Described.class))).isEmpty();
    }

    @Test
    void errorModeRefusesTheProtocolUntilTheSettingIsLifted() {
        String before = System.getProperty("sessionj.missingDescriptor");
        System.setProperty("sessionj.missingDescriptor", "error");
        try {
            assertThatThrownBy(() -> ProtocolRegistry.of(RefusedThenAccepted.class)).isInstanceOf(SJException.class)
                    .hasMessageContaining(RefusedThenAccepted.class.getName())
                    .hasMessageContaining("annotationProcessorPaths")
                    .hasMessageContaining("sessionj.missingDescriptor=error");
        } finally {
            restore(before);
        }
        // a refusal is not remembered: the same interface compiles once the setting allows it
        assertThat(ProtocolRegistry.of(RefusedThenAccepted.class).name()).isEqualTo(RefusedThenAccepted.class.getName());
    }

    @Test
    void warnIsTheDefault() {
        assertThat(MissingDescriptor.from(SystemSettings.of(Map.<String, String>of()::get)))
                .isEqualTo(MissingDescriptor.WARN);
    }

    @Test
    void theSettingIsParsedStrictly() {
        assertThat(MissingDescriptor.from(SystemSettings.of(Map.of("sessionj.missingDescriptor", "ERROR")::get)))
                .isEqualTo(MissingDescriptor.ERROR);
        assertThat(MissingDescriptor.from(SystemSettings.of(Map.of("sessionj.missingDescriptor", "ignore")::get)))
                .isEqualTo(MissingDescriptor.IGNORE);
        assertThatThrownBy(() -> MissingDescriptor.from(
                SystemSettings.of(Map.of("sessionj.missingDescriptor", "loud")::get)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property sessionj.missingDescriptor must be warn, error or ignore, found 'loud'");
    }

    @Test
    void ignoreModeSaysNothing() {
        assertThat(captureWarnings(() -> MissingDescriptor.IGNORE.apply(Undescribed.class))).isEmpty();
    }

    /** The build sets the policy to ignore for all tests; these run under the default. */
    static List<String> captureWarnings(Runnable action) {
        String before = System.getProperty("sessionj.missingDescriptor");
        System.setProperty("sessionj.missingDescriptor", "warn");
        Logger logger = Logger.getLogger(ProtocolRegistry.class.getName());
        List<String> messages = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    messages.add(MessageFormat.format(record.getMessage(), record.getParameters()));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            action.run();
        } finally {
            logger.removeHandler(handler);
            restore(before);
        }
        return messages;
    }

    static void restore(String before) {
        if (before == null) {
            System.clearProperty("sessionj.missingDescriptor");
        } else {
            System.setProperty("sessionj.missingDescriptor", before);
        }
    }
}
