package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;

/**
 * Issue 12 (adv11 A10): a protocol with no begin ({@code @Protocol("")}, or a part such as
 * {@code !<int>.?(String)} written for a {@code @Session} socket parameter or a {@code @(P)} reference)
 * says nothing about which side begins a session. A service or server socket of one is refused where it
 * is made, with the reason (the checker's SJ019 at compile time, for class literals); before, it was
 * silently a requester's protocol. (Made here without transports: the check comes before any is used.)
 */
class BeginlessProtocolTest {
    @Protocol("")
    public interface Empty {
    }

    @Protocol("!<int>.?(String)")
    public interface Part {
    }

    @Test
    void aServiceOfAPartIsRefused() {
        assertThatThrownBy(() -> new SessionService(ProtocolRegistry.of(Part.class), "localhost", 4000, null, null))
                .isInstanceOf(SJException.class)
                .hasMessageContaining("protocol " + Part.class.getName())
                .hasMessageContaining("has no begin (cbegin or sbegin)")
                .hasMessageContaining("a service needs a protocol that begins with cbegin");
    }

    @Test
    void aServerSocketOfAPartIsRefused() {
        assertThatThrownBy(() -> new SessionServerSocket(ProtocolRegistry.of(Part.class), 4000, null, null))
                .isInstanceOf(SJException.class)
                .hasMessageContaining("has no begin (cbegin or sbegin)")
                .hasMessageContaining("a server socket needs a protocol that begins with sbegin");
    }

    @Test
    void aServiceOfTheEmptyProtocolIsRefused() {
        assertThatThrownBy(() -> new SessionService(ProtocolRegistry.of(Empty.class), "localhost", 4000, null, null))
                .isInstanceOf(SJException.class)
                .hasMessageContaining("has no begin (cbegin or sbegin)");
    }
}
