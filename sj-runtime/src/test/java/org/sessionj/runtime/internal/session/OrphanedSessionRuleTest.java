package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.runtime.spi.OwnerWatch;
import org.sessionj.types.SessionTypes;

/**
 * adv18 A13: a session knows the thread that acted on it last, gives its watch to its connection, and fails
 * (telling the peer) when a transport's timer finds that thread ended with the session open, unless another
 * thread took the session meanwhile. The timers themselves: {@code OwnerLookTest}, and the transports' own
 * tests ({@code ThreadEndedSessionTest} in sj-transport-netty).
 */
class OrphanedSessionRuleTest {
    /** A connection that keeps the watch it is given. */
    private static final class Watched extends SinkConnection {
        OwnerWatch watch;

        @Override
        public void ownerWatch(OwnerWatch w) {
            watch = w;
        }
    }

    private static SessionSocket socket(Watched connection) {
        String protocol = "cbegin.!<int>.!<int>";
        return new SessionSocket(connection, StateMachine.compile(SessionTypes.parse(protocol),
                OrphanedSessionRuleTest.class.getClassLoader()), new SessionSettings(true, 64 * 1024, -1, -1, null),
                protocol);
    }

    /** Runs {@code action} on a thread of its own, which has ended when this returns. */
    private static Thread actAndEnd(String name, Runnable action) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().name(name).start(() -> {
            action.run();
            done.complete(null);
        });
        t.join();
        done.get(10, TimeUnit.SECONDS);
        return t;
    }

    @Test
    void theSessionGivesItsConnectionItsWatchAndItsMakerOwnsItUntilItIsHandedOver() {
        Watched connection = new Watched();
        SessionSocket s = socket(connection);
        assertThat(connection.watch).isSameAs(s);
        assertThat(s.idleOwner()).isSameAs(Thread.currentThread());
        s.releaseThread(); // to accept()'s queue, or to SJ.spawn's thread: not judged until a thread acts
        assertThat(s.idleOwner()).isNull();
        s.send(1);
        assertThat(s.idleOwner()).isSameAs(Thread.currentThread());
    }

    @Test
    void aThreadThatEndedWithTheSessionOpenFailsItAndThePeerIsTold() throws Exception {
        Watched connection = new Watched();
        SessionSocket s = socket(connection);
        Thread owner = actAndEnd("ends-early", () -> s.send(1));
        assertThat(s.idleOwner()).isSameAs(owner);
        long before = connection.framesWritten;
        s.failOrphaned(owner);
        assertThat(connection.closed).isTrue();
        assertThat(connection.framesWritten).as("the failure notice").isEqualTo(before + 1);
        assertThat(s.idleOwner()).as("a failed session is not looked at again").isNull();
        assertThatThrownBy(() -> s.send(2)).isInstanceOf(SJIOException.class)
                .hasMessageContaining("\"ends-early\"").hasMessageContaining("ended with the session open")
                .hasMessageContaining("!<int>");
    }

    @Test
    void aSessionWhoseTypeIsCompleteIsNotJudged() throws Exception {
        Watched connection = new Watched();
        SessionSocket s = socket(connection);
        Thread owner = actAndEnd("completes", () -> {
            s.send(1);
            s.send(2); // the end: flushed, the peer waits for nothing more
        });
        assertThat(s.idleOwner()).isNull();
        s.failOrphaned(owner);
        assertThat(connection.closed).isFalse();
        assertThat(s.failure()).isNull();
    }

    @Test
    void aSessionTakenByAnotherThreadOrClosedIsNotFailed() throws Exception {
        Watched connection = new Watched();
        SessionSocket s = socket(connection);
        Thread first = actAndEnd("first", () -> s.send(1));
        s.send(2); // this thread took it: the first's end no longer counts
        s.failOrphaned(first);
        assertThat(connection.closed).isFalse();
        s.failOrphaned(Thread.currentThread()); // alive
        assertThat(connection.closed).isFalse();
        s.close();
        assertThat(s.idleOwner()).isNull();
        assertThat(s.failure()).isNull();
    }
}
