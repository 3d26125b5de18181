package org.sessionj.runtime.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class BindAddressTest {

    private static SystemSettings with(String value) {
        Properties properties = new Properties();
        if (value != null) {
            properties.setProperty("sessionj.bindAddress", value);
        }
        return SystemSettings.of(properties);
    }

    @Test
    void everyInterfaceWhenNotSet() {
        assertThat(BindAddress.forPort(with(null), 4000).getAddress().isAnyLocalAddress()).isTrue();
        assertThat(BindAddress.forPort(with(null), 4000).getPort()).isEqualTo(4000);
    }

    @Test
    void theNamedAddress() {
        assertThat(BindAddress.forPort(with("127.0.0.1"), 0).getAddress().isLoopbackAddress()).isTrue();
        assertThat(BindAddress.forPort(with(" ::1 "), 7).getAddress().getHostAddress()).isEqualTo("0:0:0:0:0:0:0:1");
    }

    @Test
    void aNameThatIsNoAddressIsAnErrorNamingTheProperty() {
        assertThatThrownBy(() -> BindAddress.forPort(with("no.such.host.invalid"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.bindAddress").hasMessageContaining("no.such.host.invalid");
    }
}
