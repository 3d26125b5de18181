package org.sessionj.runtime.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The real logger is asked for only when a line may be due (issue 15: a fresh JVM's first in-JVM session). */
class LazyLoggerTest {

    @Test
    void aLineBelowInfoIsDroppedWithoutCreatingTheLoggerWhenNothingWantsIt() {
        LazyLogger log = new LazyLogger("org.sessionj.test.lazy.none", () -> false);
        AtomicInteger built = new AtomicInteger();

        assertThat(log.isLoggable(Level.DEBUG)).isFalse();
        assertThat(log.isLoggable(Level.TRACE)).isFalse();
        log.log(Level.DEBUG, () -> {
            built.incrementAndGet();
            return "never built";
        });
        log.log(Level.DEBUG, "with a parameter {0}", 1);

        assertThat(built).hasValue(0);
        assertThat(log.created()).isFalse();
        assertThat(log.getName()).isEqualTo("org.sessionj.test.lazy.none");
    }

    @Test
    void infoAndAboveAlwaysAskTheRealLogger() {
        LazyLogger log = new LazyLogger("org.sessionj.test.lazy.info", () -> false);

        boolean loggable = log.isLoggable(Level.WARNING);

        assertThat(log.created()).isTrue();
        assertThat(loggable).isEqualTo(System.getLogger("org.sessionj.test.lazy.info").isLoggable(Level.WARNING));
        // Once created, lines below INFO are the real logger's to decide too.
        assertThat(log.isLoggable(Level.DEBUG))
                .isEqualTo(System.getLogger("org.sessionj.test.lazy.info").isLoggable(Level.DEBUG));
    }

    @Test
    void aLineBelowInfoAsksTheRealLoggerWhenLoggingIsConfigured() {
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("org.sessionj.test.lazy.configured");
        java.util.logging.Level before = jul.getLevel();
        jul.setLevel(java.util.logging.Level.ALL);
        try {
            LazyLogger log = new LazyLogger("org.sessionj.test.lazy.configured", () -> true);

            assertThat(log.isLoggable(Level.DEBUG)).isTrue();
            assertThat(log.created()).isTrue();
        } finally {
            jul.setLevel(before);
        }
    }

    @Test
    void theBackendCountsAsConfiguredWhenAJavaUtilLoggingFileOrClassIsNamed() {
        assertThat(LazyLogger.Backend.configured("/etc/logging.properties", null)).isTrue();
        assertThat(LazyLogger.Backend.configured(null, "com.example.LoggingSetUp")).isTrue();
    }

    @Test
    void withoutEitherJavaUtilLoggingPropertyTheBackendIsNotConfiguredByThem() {
        assertThat(LazyLogger.Backend.configured(null, null)).isFalse();
    }

    @Test
    void aLoggerFinderBridgeOnTheClassPathIsSeenByItsJarsNameOrAClassDirectorysServiceFile(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path temp) throws java.io.IOException {
        String sep = java.io.File.pathSeparator;
        assertThat(LazyLogger.Backend.bridgeOnClassPath("/m2/org/slf4j/slf4j-jdk-platform-logging/2.0.16/"
                + "slf4j-jdk-platform-logging-2.0.16.jar")).isTrue();
        assertThat(LazyLogger.Backend.bridgeOnClassPath("app.jar" + sep + "lib/log4j-jpl-2.24.1.jar")).isTrue();
        assertThat(LazyLogger.Backend.bridgeOnClassPath("lib/slf4j-api-2.0.16.jar" + sep + "lib/log4j-api-2.24.1.jar"
                + sep + sep + "/no/such/directory")).as("no bridge: the APIs alone, an empty entry, a missing directory")
                .isFalse();
        assertThat(LazyLogger.Backend.bridgeOnClassPath("")).isFalse();

        java.nio.file.Path classes = temp.resolve("classes");
        java.nio.file.Files.createDirectories(classes.resolve("META-INF/services"));
        assertThat(LazyLogger.Backend.bridgeOnClassPath("a.jar" + sep + classes)).isFalse();
        java.nio.file.Files.writeString(classes.resolve("META-INF/services/java.lang.System$LoggerFinder"),
                "com.example.Finder\n");
        assertThat(LazyLogger.Backend.bridgeOnClassPath("a.jar" + sep + classes)).isTrue();
    }

    @Test
    void aBackendThatFailsDropsTheLineInsteadOfEndingTheThread() {
        // What a JVM whose time-zone classes failed to initialise (no descriptor left for tzdb.dat at its
        // first line) throws from every later line: before, it ended the handshake thread that logged.
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("org.sessionj.test.lazy.broken");
        java.util.logging.Handler broken = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                throw new NoClassDefFoundError("Could not initialize class sun.util.calendar.ZoneInfoFile");
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.setUseParentHandlers(false);
        jul.addHandler(broken);
        try {
            LazyLogger log = new LazyLogger("org.sessionj.test.lazy.broken", () -> true);
            AtomicInteger reached = new AtomicInteger();
            log.log(Level.WARNING, "refused a session request");
            log.log(Level.INFO, () -> "with a supplier " + reached.incrementAndGet());
            log.log(Level.ERROR, "with a cause", new java.io.IOException("Too many open files"));
            log.log(Level.WARNING, "with a parameter {0}", 1);
            assertThat(reached).as("the line was built and handed to the backend").hasValue(1);
        } finally {
            jul.removeHandler(broken);
            jul.setUseParentHandlers(true);
        }
    }
}
