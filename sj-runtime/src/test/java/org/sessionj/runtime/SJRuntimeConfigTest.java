package org.sessionj.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SJRuntimeConfigTest {

    @Test
    void defaultsAreMonitoredUnboundedAndUseEveryTransport() {
        SJRuntimeConfig config = SJRuntimeConfig.builder().build();
        assertThat(config.monitor()).isTrue();
        assertThat(config.defaultTimeout()).isNull();
        assertThat(config.transports()).isEqualTo(TransportPreferences.unset());
        assertThat(config.batchBytes()).isEqualTo(SJRuntimeConfig.DEFAULT_BATCH_BYTES);
        assertThat(config.initiationTimeout()).isEqualTo(SJRuntimeConfig.DEFAULT_INITIATION_TIMEOUT);
    }

    @Test
    void theBuilderKeepsWhatItIsGivenAndToBuilderCopies() {
        SJRuntimeConfig config = SJRuntimeConfig.builder().transports("shm", "tcp").defaultTimeout(Duration.ofSeconds(3))
                .initiationTimeout(Duration.ofSeconds(4)).monitor(false).batchBytes(1024).build();
        assertThat(config.transports().setup()).containsExactly("shm", "tcp");
        assertThat(config.transports().session()).containsExactly("shm", "tcp");
        assertThat(config.defaultTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.initiationTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(config.monitor()).isFalse();
        assertThat(config.batchBytes()).isEqualTo(1024);
        assertThat(config.toBuilder().batchBytes(2).build().transports().session()).containsExactly("shm", "tcp");
        assertThat(config.toString()).contains("shm").contains("PT3S").contains("monitor=false");
    }

    @Test
    void badValuesAreRejectedWithWhatWasExpected() {
        assertThatThrownBy(() -> SJRuntimeConfig.builder().batchBytes(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batchBytes must be between 1 and").hasMessageContaining("got 0");
        assertThatThrownBy(() -> SJRuntimeConfig.builder().defaultTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultTimeout must be positive");
        assertThatThrownBy(() -> SJRuntimeConfig.builder().initiationTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SJRuntimeConfig.builder().initiationTimeout(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> SJRuntimeConfig.builder().transports("shm", "shm"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listed twice");
        assertThatThrownBy(() -> SJRuntimeConfig.builder().transports("TCP!"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'TCP!'");
    }

    @Test
    void systemPropertiesOverrideTheDefaults() {
        Properties p = new Properties();
        p.setProperty("sessionj.transports", "shm, tcp");
        p.setProperty("sessionj.timeout", "500ms");
        p.setProperty("sessionj.initiationTimeout", "PT2S");
        p.setProperty("sessionj.monitor", "false");
        p.setProperty("sessionj.batchBytes", "4096");
        SJRuntimeConfig config = SJRuntimeConfig.fromProperties(p);
        assertThat(config.transports()).isEqualTo(TransportPreferences.of(List.of("shm", "tcp"), List.of("shm", "tcp")));
        assertThat(config.defaultTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.initiationTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.monitor()).isFalse();
        assertThat(config.batchBytes()).isEqualTo(4096);
        p.setProperty("sessionj.timeout", "none");
        assertThat(SJRuntimeConfig.fromProperties(p).defaultTimeout()).isNull();
        p.setProperty("sessionj.timeout", "3m");
        assertThat(SJRuntimeConfig.fromProperties(p).defaultTimeout()).isEqualTo(Duration.ofMinutes(3));
        p.setProperty("sessionj.receiveTimeout", "7s"); // the current name wins over the older one
        assertThat(SJRuntimeConfig.fromProperties(p).defaultTimeout()).isEqualTo(Duration.ofSeconds(7));
        p.setProperty("sessionj.receiveTimeout", "none");
        assertThat(SJRuntimeConfig.fromProperties(p).defaultTimeout()).isNull();
        p.remove("sessionj.receiveTimeout");
        p.setProperty("sessionj.setupTransports", "tcp");
        p.setProperty("sessionj.sessionTransports", "tls ,tcp");
        assertThat(SJRuntimeConfig.fromProperties(p).transports())
                .isEqualTo(TransportPreferences.of(List.of("tcp"), List.of("tls", "tcp")));
    }

    @Test
    void theAcceptQueueIsBoundedInNumberAndAgeByDefaultAndBothAreSettable() {
        SJRuntimeConfig defaults = SJRuntimeConfig.builder().build();
        assertThat(defaults.acceptTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.acceptQueue()).isEqualTo(1024);
        Properties p = new Properties();
        p.setProperty("sessionj.acceptTimeout", "750ms");
        p.setProperty("sessionj.acceptQueue", "3");
        SJRuntimeConfig config = SJRuntimeConfig.fromProperties(p);
        assertThat(config.acceptTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(config.acceptQueue()).isEqualTo(3);
        assertThat(config.toBuilder().build().acceptQueue()).isEqualTo(3);
        assertThat(config.toString()).contains("acceptTimeout=PT0.75S").contains("acceptQueue=3");
        p.setProperty("sessionj.acceptTimeout", "none");
        assertThat(SJRuntimeConfig.fromProperties(p).acceptTimeout()).isNull();
        p.setProperty("sessionj.acceptTimeout", "later");
        assertThatThrownBy(() -> SJRuntimeConfig.fromProperties(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.acceptTimeout").hasMessageContaining("'later'");
        assertThatThrownBy(() -> SJRuntimeConfig.builder().acceptQueue(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("acceptQueue must be at least 1, got 0");
        assertThatThrownBy(() -> SJRuntimeConfig.builder().acceptTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("acceptTimeout must be positive");
    }

    @Test
    void setupAndSessionTransportsAreSetApartAndTransportsSetsBoth() {
        SJRuntimeConfig config = SJRuntimeConfig.builder().setupTransports("tcp").sessionTransports("tls").build();
        assertThat(config.transports()).isEqualTo(TransportPreferences.of(List.of("tcp"), List.of("tls")));
        assertThat(config.toString()).contains("setupTransports=[tcp]").contains("sessionTransports=[tls]");
        assertThat(SJRuntimeConfig.builder().sessionTransports("tls").build().toString())
                .contains("setupTransports=installed defaults");
        assertThatThrownBy(() -> SJRuntimeConfig.builder().sessionTransports("tls", "tls"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listed twice in the session transports");
    }

    @Test
    void perSocketPreferencesFallBackToTheRuntimesListByList() {
        TransportPreferences runtime = TransportPreferences.of(List.of("shm", "tcp"), List.of("shm", "tcp"));
        assertThat(TransportPreferences.session("tls").orElse(runtime))
                .isEqualTo(TransportPreferences.of(List.of("shm", "tcp"), List.of("tls")));
        assertThat(TransportPreferences.unset().orElse(runtime)).isEqualTo(runtime);
        assertThatThrownBy(() -> TransportPreferences.session("Tls")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Tls'");
    }

    @Test
    void badSystemPropertiesNameThePropertyAndTheValue() {
        Properties p = new Properties();
        p.setProperty("sessionj.timeout", "soon");
        assertThatThrownBy(() -> SJRuntimeConfig.fromProperties(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.timeout").hasMessageContaining("'soon'");
        Properties q = new Properties();
        q.setProperty("sessionj.monitor", "yes");
        assertThatThrownBy(() -> SJRuntimeConfig.fromProperties(q)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.monitor must be true or false, found 'yes'");
        Properties r = new Properties();
        r.setProperty("sessionj.batchBytes", "lots");
        assertThatThrownBy(() -> SJRuntimeConfig.fromProperties(r)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.batchBytes");
    }

    @Test
    void aRuntimeNamingAnUninstalledTransportFailsClearly() {
        // sj-runtime's own tests have no transport on the class path.
        assertThatThrownBy(() -> SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no SJ transport on the class path");
    }
}
