package org.sessionj.transport.http.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.AliceClient;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.CarolServesAlice;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.Increment;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.IncrementServer;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.LoopGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.LoopTaker;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.ServiceGiver;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.ServiceTaker;
import org.sessionj.transport.http.RelaySessions;

/**
 * Service passing and delegation over http (through the relay): a delegated session leaves http for
 * the best transport the new peers share (tcp, or the in-JVM transport), and a service passed over
 * http is requested like any other.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HttpDelegationTest extends RelaySessions {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final TransportPreferences HTTP = TransportPreferences.of(List.of("http"), List.of("http"));
    private static SJRuntime runtime(String... transports) {
        useRelay();
        return SJRuntime.create(SJRuntimeConfig.builder().transports(transports).initiationTimeout(WAIT).build());
    }

    private static <T> FutureTask<T> start(Callable<T> body) {
        FutureTask<T> task = new FutureTask<>(body);
        Thread.ofVirtual().start(task);
        return task;
    }

    private static <T> T join(FutureTask<T> task) throws Exception {
        try {
            return task.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** Carol serves Alice two rounds over http, then delegates her to Bob; Alice's replies and the transports. */
    private static List<Object> delegate(SJRuntime rt) throws Exception {
        try (SJServerSocket forAlice = rt.serverSocket(CarolServesAlice.class, 0, HTTP);
                SJServerSocket forBob = rt.serverSocket(LoopGiver.class, 0, HTTP)) {
            FutureTask<Void> carol = start(() -> {
                try (SJSocket a = forAlice.accept(WAIT); SJSocket b = forBob.accept(WAIT)) {
                    for (int i = 0; i < 2; i++) {
                        assertThat(a.inwhile()).isTrue();
                        a.send(10 * a.receiveInt());
                    }
                    b.send(a);
                }
                return null;
            });
            FutureTask<String> bob = start(() -> {
                try (SJSocket b = rt.service(LoopTaker.class, HIDDEN, forBob.port(), HTTP).request();
                        SJSocket d = b.receive()) {
                    int served = 0;
                    while (d.inwhile()) {
                        d.send(10 * d.receiveInt());
                        served++;
                    }
                    assertThat(served).isEqualTo(4);
                    return SJRuntime.transportOf(d);
                }
            });
            List<Object> outcome = new ArrayList<>();
            try (SJSocket s = rt.service(AliceClient.class, HIDDEN, forAlice.port(), HTTP).request()) {
                outcome.add(SJRuntime.transportOf(s));
                for (int i = 1; i <= 6; i++) {
                    s.outwhile(true);
                    s.send(i);
                    outcome.add(s.receiveInt());
                }
                s.outwhile(false);
                outcome.add(SJRuntime.transportOf(s));
            }
            outcome.add(join(bob));
            join(carol);
            return outcome;
        }
    }

    @Test
    void aSessionDelegatedOverHttpMigratesToTcp() throws Exception {
        assertThat(delegate(runtime("tcp", "http"))).containsExactly("http", 10, 20, 30, 40, 50, 60, "tcp", "tcp");
    }

    @Test
    void aSessionDelegatedOverHttpMigratesToTheInJvmTransport() throws Exception {
        assertThat(delegate(runtime("shm", "tcp", "http"))).containsExactly("http", 10, 20, 30, 40, 50, 60, "shm", "shm");
    }

    @Test
    void aSessionDelegatedOverHttpStaysOnHttpWhenNothingElseIsShared() throws Exception {
        assertThat(delegate(runtime("http"))).containsExactly("http", 10, 20, 30, 40, 50, 60, "http", "http");
    }

    @Test
    void aServicePassedOverHttpIsRequestedWithTheReceiversPreferences() throws Exception {
        SJRuntime rt = runtime("tcp", "http");
        try (SJServerSocket increments = rt.serverSocket(IncrementServer.class, 0);
                SJServerSocket giver = rt.serverSocket(ServiceGiver.class, 0, HTTP)) {
            FutureTask<String> server = start(() -> {
                try (SJSocket s = increments.accept(WAIT)) {
                    s.send(s.receiveInt() + 1);
                    return SJRuntime.transportOf(s);
                }
            });
            FutureTask<Void> carol = start(() -> {
                try (SJSocket s = giver.accept(WAIT)) {
                    s.send(rt.service(Increment.class, "localhost", increments.port()));
                }
                return null;
            });
            try (SJSocket s = rt.service(ServiceTaker.class, HIDDEN, giver.port(), HTTP).request()) {
                assertThat(SJRuntime.transportOf(s)).isEqualTo("http");
                SJService service = s.receive();
                try (SJSocket t = service.request()) {
                    t.send(1);
                    assertThat(t.receiveInt()).isEqualTo(2);
                    assertThat(SJRuntime.transportOf(t)).isEqualTo("tcp");
                }
            }
            join(carol);
            assertThat(join(server)).isEqualTo("tcp");
        }
    }
}
