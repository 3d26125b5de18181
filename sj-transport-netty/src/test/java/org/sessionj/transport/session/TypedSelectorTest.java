package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * A typed selector (SJSelector.of) serving sessions of two protocols on one thread, told apart by
 * typecase, over the in-JVM transport and over tcp.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TypedSelectorTest {

    @Protocol("cbegin.!<String>.?(Integer)")
    public interface GetClient {
    }

    @Protocol("^(GetClient)")
    public interface Get {
    }

    @Protocol("cbegin.!<String>.!<Integer>")
    public interface PutClient {
    }

    @Protocol("^(PutClient)")
    public interface Put {
    }

    /** The set protocol of the server: a selector declared with it has the members Get and Put. */
    @Protocol("{@(Get), @(Put)}")
    public interface KvServer {
    }

    @Protocol("{@(Get), ?(String)}")
    public interface NotAllProtocols {
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"shm", "tcp"})
    void oneThreadServesGetsAndPutsToldApartByTypecase(String transport) throws Exception {
        serveGetsAndPuts(transport, Get.class, Put.class);
    }

    @Test
    void aSelectorDeclaredWithASetProtocolHasItsMembers() throws Exception {
        serveGetsAndPuts("shm", KvServer.class);
    }

    @Test
    void aSetProtocolTypesNoSessionAndEachOfItsMembersIsAProtocol() {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        assertThatThrownBy(() -> runtime.serverSocket(KvServer.class, 0)).isInstanceOf(SJException.class)
                .hasMessageContaining("is a set protocol");
        assertThatThrownBy(() -> runtime.openSelector(NotAllProtocols.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("member 2 of the set protocol").hasMessageContaining("@(P)");
        assertThatThrownBy(() -> runtime.openSelector(KvServer.class, Get.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("named Get");
    }

    private static void serveGetsAndPuts(String transport, Class<?>... protocols) throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports(transport).build());
        int puts = 6;
        try (SJServerSocket getServer = runtime.serverSocket(Get.class, 0);
             SJServerSocket putServer = runtime.serverSocket(Put.class, 0);
             SJSelector selector = runtime.openSelector(protocols)) {
            List<CompletableFuture<Void>> putters = new ArrayList<>();
            for (int k = 0; k < puts; k++) {
                int value = k;
                putters.add(CompletableFuture.runAsync(() -> {
                    try (SJSocket s = runtime.service(PutClient.class, "localhost", putServer.port()).request()) {
                        s.send("k" + value);
                        s.send(value * 10);
                    }
                }, r -> Thread.ofVirtual().start(r)));
            }
            Map<String, Integer> store = new HashMap<>();
            for (int k = 0; k < puts; k++) {
                SJSocket s = putServer.accept(Duration.ofSeconds(20));
                assertThat(SJRuntime.transportOf(s)).isEqualTo(transport);
                selector.register(s);
            }
            CompletableFuture<Integer> getter = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(GetClient.class, "localhost", getServer.port()).request()) {
                    s.send("k5");
                    return s.<Integer>receive();
                }
            }, r -> Thread.ofVirtual().start(r));
            int served = 0;
            boolean getRegistered = false;
            while (served < puts + 1) {
                if (!getRegistered && store.size() == puts) {
                    selector.register(getServer.accept(Duration.ofSeconds(20)));
                    getRegistered = true;
                }
                SJSocket s = selector.select(Duration.ofSeconds(20));
                switch (selector.typecase(s)) {
                    case "Get" -> {
                        String key = s.receive();
                        s.send(store.get(key));
                        s.close();
                    }
                    case "Put" -> {
                        String key = s.receive();
                        Integer value = s.receive();
                        store.put(key, value);
                        s.close();
                    }
                    default -> throw new AssertionError("no such member");
                }
                served++;
            }
            assertThat(getter.get(20, TimeUnit.SECONDS)).isEqualTo(50);
            for (CompletableFuture<Void> putter : putters) {
                putter.get(20, TimeUnit.SECONDS);
            }
            assertThat(store).hasSize(puts).containsEntry("k0", 0).containsEntry("k3", 30);
        }
    }

    @Test
    void onlySessionsAtTheStartOfAMemberMayBeRegistered() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        try (SJServerSocket getServer = runtime.serverSocket(Get.class, 0);
             SJSelector selector = runtime.openSelector(Put.class);
             SJSelector gets = runtime.openSelector(Get.class);
             SJSelector untyped = runtime.openSelector()) {
            CompletableFuture<Integer> client = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(GetClient.class, "localhost", getServer.port()).request()) {
                    s.send("x");
                    return s.<Integer>receive();
                }
            }, r -> Thread.ofVirtual().start(r));
            SJSocket s = getServer.accept(Duration.ofSeconds(20));
            assertThatThrownBy(() -> selector.register(s)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not at one of this typed selector's protocols [Put]");
            assertThatThrownBy(() -> untyped.typecase(s)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> gets.typecase(s)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("did not select");
            String key = s.receive();
            // Half way through Get: no longer at the start of a member.
            assertThatThrownBy(() -> gets.register(s)).isInstanceOf(IllegalArgumentException.class);
            s.send(key.length());
            s.close();
            assertThat(client.get(20, TimeUnit.SECONDS)).isEqualTo(1);
            assertThatThrownBy(() -> runtime.openSelector(Get.class, Get.class))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("named Get");
        }
    }
    /**
     * adv11 A8: a typed selector owns its registered sessions, so closing it with one still registered
     * fails that session: the peer waiting on it gets an exception instead of waiting forever.
     */
    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"shm", "tcp"})
    void closingATypedSelectorFailsTheSessionsItStillOwns(String transport) throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports(transport).build());
        try (SJServerSocket getServer = runtime.serverSocket(Get.class, 0)) {
            CompletableFuture<Integer> client = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(GetClient.class, "localhost", getServer.port()).request()) {
                    s.send("x");
                    return s.<Integer>receive();
                }
            }, r -> Thread.ofVirtual().start(r));
            SJSelector selector = runtime.openSelector(Get.class);
            selector.register(getServer.accept(Duration.ofSeconds(20)));
            selector.close();
            assertThatThrownBy(() -> client.get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(org.sessionj.api.SJIOException.class);
        }
    }

    @Test
    void closingAnUntypedSelectorLeavesItsSessionsToTheirOwner() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        try (SJServerSocket getServer = runtime.serverSocket(Get.class, 0)) {
            CompletableFuture<Integer> client = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(GetClient.class, "localhost", getServer.port()).request()) {
                    s.send("x");
                    return s.<Integer>receive();
                }
            }, r -> Thread.ofVirtual().start(r));
            SJSocket s = getServer.accept(Duration.ofSeconds(20));
            SJSelector selector = runtime.openSelector();
            selector.register(s);
            selector.close();
            String key = s.receive();
            s.send(key.length() + 6);
            s.close();
            assertThat(client.get(20, TimeUnit.SECONDS)).isEqualTo(7);
        }
    }
}
