package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.sessionj.api.Protocol;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;

/**
 * adv15 A24: a service for an empty or blank host is refused where it is made; before, each request failed as
 * "cannot reach it", in the words of a server that is down. (Made here without transports: the check comes first.)
 */
class ServiceHostTest {
    @Protocol("cbegin.!<int>")
    public interface Greet {
    }

    @Test
    void anEmptyOrBlankHostIsRefusedAtCreate() {
        for (String host : new String[] {"", "  ", " localhost", "localhost\n"}) {
            assertThatThrownBy(() -> new SessionService(ProtocolRegistry.of(Greet.class), host, 4000, null, null))
                    .as("host '%s'", host)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("host must name the server (a host name or an address), got '" + host + "'");
        }
    }

    @Test
    void aNameOrAnAddressIsAccepted() {
        for (String host : new String[] {"localhost", "127.0.0.1", "::1", "server.example"}) {
            assertThat(new SessionService(ProtocolRegistry.of(Greet.class), host, 4000, null, null)).isNotNull();
        }
    }
}
