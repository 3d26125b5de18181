package org.sessionj.runtime.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class HeartbeatTest {

    private static Heartbeat with(String interval, String timeout) {
        Properties p = new Properties();
        if (interval != null) {
            p.setProperty("sessionj.heartbeat.interval", interval);
        }
        if (timeout != null) {
            p.setProperty("sessionj.heartbeat.timeout", timeout);
        }
        return Heartbeat.from(SystemSettings.of(p));
    }

    @Test
    void onByDefaultEveryFiveSecondsFailingAfterTwenty() {
        Heartbeat h = with(null, null);
        assertThat(h.enabled()).isTrue();
        assertThat(Duration.ofNanos(h.intervalNanos())).isEqualTo(Duration.ofSeconds(5));
        assertThat(Duration.ofNanos(h.timeoutNanos())).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aShortTimeoutAloneGetsAQuarterOfItAsInterval() {
        assertThat(Duration.ofNanos(with(null, "2s").intervalNanos())).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void noneTurnsThemOff() {
        assertThat(with(null, "none").enabled()).isFalse();
    }

    @Test
    void badValuesNameTheProperty() {
        assertThatThrownBy(() -> with("10s", "5s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.heartbeat.interval");
        assertThatThrownBy(() -> with(null, "soon")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.heartbeat.timeout").hasMessageContaining("soon");
        assertThatThrownBy(() -> with("0s", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.heartbeat.interval");
    }
}
