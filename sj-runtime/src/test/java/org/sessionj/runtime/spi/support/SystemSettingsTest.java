package org.sessionj.runtime.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class SystemSettingsTest {

    @Test
    void settingsAreReadUnderTheSessionjPrefix() {
        SystemSettings settings = SystemSettings.of(Map.of("sessionj.a.b", " 42 ", "a.b", "7")::get);
        assertThat(settings.integer("a.b", 1)).isEqualTo(42);
        assertThat(settings.value("a.b")).contains("42");
        assertThat(settings.integer("a.c", 1)).isEqualTo(1);
        assertThat(SystemSettings.property("a.b")).isEqualTo("sessionj.a.b");
    }

    @Test
    void blankValuesCountAsUnset() {
        SystemSettings settings = SystemSettings.of(Map.of("sessionj.x", "  ")::get);
        assertThat(settings.value("x")).isEmpty();
        assertThat(settings.flag("x", true)).isTrue();
    }

    @Test
    void malformedValuesNameThePropertyAndTheValue() {
        SystemSettings settings = SystemSettings.of(Map.of("sessionj.n", "lots", "sessionj.f", "yes")::get);
        assertThatThrownBy(() -> settings.integer("n", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property sessionj.n must be an integer, found 'lots'");
        assertThatThrownBy(() -> settings.flag("f", false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property sessionj.f must be true or false, found 'yes'");
        assertThat(SystemSettings.of(Map.of("sessionj.f", "FALSE")::get).flag("f", true)).isFalse();
    }

    @Test
    void theDeprecatedSjNameIsReadWithOneWarningAndTheNewNameWins() {
        List<LogRecord> records = new ArrayList<>();
        Logger logger = Logger.getLogger(SystemSettings.class.getName());
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
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
            SystemSettings old = SystemSettings.of(Map.of("sj.legacy.only", "5")::get);
            assertThat(old.integer("legacy.only", 1)).isEqualTo(5);
            assertThat(old.integer("legacy.only", 1)).isEqualTo(5);
            assertThat(records).hasSize(1);
            assertThat(records.get(0).getLevel()).isEqualTo(java.util.logging.Level.WARNING);
            assertThat(java.text.MessageFormat.format(records.get(0).getMessage(), records.get(0).getParameters()))
                    .isEqualTo("system property sj.legacy.only is deprecated; use sessionj.legacy.only instead (same value)");
            SystemSettings both = SystemSettings.of(Map.of("sj.legacy.both", "5", "sessionj.legacy.both", "6")::get);
            assertThat(both.integer("legacy.both", 1)).isEqualTo(6);
            assertThat(records).hasSize(1);
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void systemSettingsReadTheLiveSystemProperties() {
        String property = "sessionj.test.systemSettings";
        assertThat(SystemSettings.system().value("test.systemSettings")).isEmpty();
        System.setProperty(property, "on");
        try {
            assertThat(SystemSettings.system().string("test.systemSettings", "off")).isEqualTo("on");
        } finally {
            System.clearProperty(property);
        }
    }
}
