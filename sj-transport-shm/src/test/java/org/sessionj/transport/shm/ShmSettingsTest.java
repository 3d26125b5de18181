package org.sessionj.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The in-JVM transport's settings are parsed once per change of their properties, not per connection. */
class ShmSettingsTest {
    private static final String BACKLOG = "sessionj.shm.backlogBytes";
    private final String old = System.getProperty(BACKLOG);

    @AfterEach
    void restore() {
        if (old == null) {
            System.clearProperty(BACKLOG);
        } else {
            System.setProperty(BACKLOG, old);
        }
    }

    @Test
    void unchangedPropertiesGiveTheSameSettingsWithoutParsingAgain() {
        System.setProperty(BACKLOG, "65536");
        ShmSettings first = ShmSettings.fromSystemProperties();
        assertThat(first.backlogBytes()).isEqualTo(65536);
        assertThat(ShmSettings.fromSystemProperties()).isSameAs(first);
    }

    @Test
    void aChangedPropertyIsReadAtTheNextConnection() {
        System.setProperty(BACKLOG, "65536");
        assertThat(ShmSettings.fromSystemProperties().backlogBytes()).isEqualTo(65536);
        System.setProperty(BACKLOG, "1024");
        assertThat(ShmSettings.fromSystemProperties().backlogBytes()).isEqualTo(1024);
        System.clearProperty(BACKLOG);
        assertThat(ShmSettings.fromSystemProperties().backlogBytes()).isEqualTo(ShmSettings.DEFAULT_BACKLOG_BYTES);
    }

    @Test
    void aBadValueFailsEveryConnectionUntilItIsFixed() {
        System.setProperty(BACKLOG, "lots");
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(ShmSettings::fromSystemProperties).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(BACKLOG).hasMessageContaining("lots");
        }
        System.setProperty(BACKLOG, "-5");
        assertThatThrownBy(ShmSettings::fromSystemProperties).hasMessageContaining(BACKLOG);
        System.setProperty(BACKLOG, "4096");
        assertThat(ShmSettings.fromSystemProperties().backlogBytes()).isEqualTo(4096);
    }
}
