package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SendTimeoutException;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.runtime.spi.WriteTimeoutException;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.types.SessionTypes;

/**
 * hostile18 H13: a selector's sessions are served by one thread, so a send that waits for a peer that takes
 * nothing holds up every other session. Registering a session with a selector bounds its sends
 * ({@code sessionj.selector.sendTimeout}, 2 s by default), and a send past the bound fails that session only.
 */
class SelectorSendBoundTest {
    /** A connection that records the send timeout it is given and whose flush can be made to time out. */
    private static final class BoundedSink extends SinkConnection {
        long sendTimeoutNanos = -1;
        boolean full;

        @Override
        public void sendTimeout(long timeoutNanos) {
            sendTimeoutNanos = timeoutNanos;
        }

        @Override
        public void flush() {
            if (full) {
                // SinkConnection's flush declares no IOException; a transport's throws this one.
                SelectorSendBoundTest.<RuntimeException>sneaky(
                        new WriteTimeoutException("the peer took nothing for " + Duration.ofNanos(sendTimeoutNanos)));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneaky(Throwable t) throws E {
        throw (E) t;
    }

    private static SessionSocket socket(SinkConnection sink, String protocol, long sendTimeoutNanos) {
        return new SessionSocket(sink, StateMachine.compile(SessionTypes.parse(protocol),
                SelectorSendBoundTest.class.getClassLoader()),
                new SessionSettings(true, 64 * 1024, -1, sendTimeoutNanos, null), protocol);
    }

    @Test
    void theBoundIsTwoSecondsUnlessSetAndNoneTurnsItOff() {
        assertThat(SessionSelector.sendTimeout(settings(null))).isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(SessionSelector.sendTimeout(settings("500ms"))).isEqualTo(Duration.ofMillis(500).toNanos());
        assertThat(SessionSelector.sendTimeout(settings("none"))).isEqualTo(-1);
    }

    @Test
    void registeringBoundsTheSessionsSendsAndAShorterSendTimeoutWins() {
        BoundedSink unbounded = new BoundedSink();
        SessionSocket s = socket(unbounded, "?(int).!<int>", -1);
        new SessionSelector().register(s);
        assertThat(unbounded.sendTimeoutNanos).isEqualTo(SessionSelector.sendTimeout(SystemSettings.system()));
        assertThat(s.sendTimeoutNanos()).isEqualTo(unbounded.sendTimeoutNanos);

        BoundedSink tighter = new BoundedSink();
        long hundredMillis = Duration.ofMillis(100).toNanos();
        SessionSocket t = socket(tighter, "?(int).!<int>", hundredMillis);
        new SessionSelector().register(t);
        assertThat(tighter.sendTimeoutNanos).as("sessionj.sendTimeout is shorter: kept").isEqualTo(hundredMillis);
    }

    @Test
    void aSendPastTheBoundFailsThatSessionOnly() {
        BoundedSink stuck = new BoundedSink();
        BoundedSink fine = new BoundedSink();
        SessionSocket a = socket(stuck, "!<int>.?(int)", -1);
        SessionSocket b = socket(fine, "!<int>.?(int)", -1);
        SessionSelector selector = new SessionSelector();
        selector.register(a);
        selector.register(b);
        stuck.full = true;
        assertThatThrownBy(() -> a.send(1)).isInstanceOf(SendTimeoutException.class).hasMessageStartingWith("send timeout");
        assertThat(a.hasFailed()).isTrue();
        assertThat(stuck.closed).isTrue();
        b.send(2);
        assertThat(b.hasFailed()).isFalse();
        assertThat(fine.framesWritten).isEqualTo(1);
        selector.close();
    }

    private static SystemSettings settings(String value) {
        Properties properties = new Properties();
        if (value != null) {
            properties.setProperty("sessionj.selector.sendTimeout", value);
        }
        return SystemSettings.of(properties);
    }
}
