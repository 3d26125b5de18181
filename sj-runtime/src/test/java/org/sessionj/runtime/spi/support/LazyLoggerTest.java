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
}
