package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.internal.monitor.MessageType;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.types.SessionTypes;

/** A service received from a peer is checked at the type level: no class it names is initialised. */
class ServiceFromPeerTest {

    /** Named only by the peer; its initialiser must never run. */
    public enum Tripwire {
        ARMED;

        static {
            Fired.tripwire = true;
        }
    }

    /** Set by the initialiser; reading a field of the enum itself would initialise it. */
    static final class Fired {
        static volatile boolean tripwire;
    }

    private static MessageType declaredService() {
        return ProtocolRegistry.ofType("test", SessionTypes.parse("sbegin.?(cbegin.!<int>.?(int))"),
                ServiceFromPeerTest.class.getClassLoader()).start().message();
    }

    private static ByteBuf serviceItem(String protocol) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(ServicePassing.SERVICE);
        org.sessionj.runtime.internal.wire.ValueCodec.writeString(new ByteBufFrame(out), "localhost");
        out.writeInt(4000);
        org.sessionj.runtime.internal.wire.ValueCodec.writeString(new ByteBufFrame(out), protocol);
        return out;
    }

    @Test
    void aServiceWhoseProtocolNamesAnEnumDoesNotInitialiseIt() {
        ByteBuf in = serviceItem("cbegin.!<" + Tripwire.class.getName() + ">.?(int)");
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(in), declaredService(), null)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("does not match the declared service type");
        assertThat(Fired.tripwire).isFalse();
    }

    @Test
    void aFittingServiceIsAcceptedAtTheTypeLevel() {
        ByteBuf in = serviceItem("cbegin.!<int>.?(int)");
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(in), declaredService(), null)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("belongs to no runtime"); // got past the check
    }

    @Test
    void aServiceOfTheAccepterSideOrNestedPastTheLimitIsRefused() {
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(serviceItem("sbegin.?(int).!<int>")), declaredService(), null))
                .isInstanceOf(SJIOException.class).hasMessageContaining("does not match");
        String deep = "cbegin." + "![".repeat(5000) + "!<int>" + "]*".repeat(5000);
        assertThatThrownBy(() -> ServicePassing.read(new ByteBufFrame(serviceItem(deep)), declaredService(), null))
                .isInstanceOf(MalformedInputException.class).hasMessageContaining("not usable here");
    }
}
