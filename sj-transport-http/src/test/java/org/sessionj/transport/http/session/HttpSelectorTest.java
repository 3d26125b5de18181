package org.sessionj.transport.http.session;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.testing.selector.SelectorRounds;

/**
 * The typed selector over http sessions (direct, over a WebSocket and with long polling): arms that
 * hand their sessions back part way through, and a peer that vanishes while registered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpSelectorTest {

    @AfterEach
    void clearProperties() {
        System.clearProperty("sessionj.http.websocket");
    }

    private static SJRuntime http(boolean webSocket) {
        System.setProperty("sessionj.http.websocket", Boolean.toString(webSocket));
        return SJRuntime.create(SJRuntimeConfig.builder().transports("http")
                .initiationTimeout(Duration.ofSeconds(20)).build());
    }

    @ParameterizedTest(name = "webSocket={0}")
    @ValueSource(booleans = {true, false})
    void armsHandTheirSessionsBackAtAMembersTypeUntilTheClientsQuit(boolean webSocket) throws Exception {
        SelectorRounds.handBacks(http(webSocket), "http", 3, 10);
    }

    @ParameterizedTest(name = "webSocket={0}")
    @ValueSource(booleans = {true, false})
    void aSessionWhosePeerVanishesWhileRegisteredIsYieldedFailing(boolean webSocket) throws Exception {
        SelectorRounds.vanishingPeer(http(webSocket));
    }
}
