package org.sessionj.transport.http;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.sessionj.transport.http.relay.HttpRelay;

/**
 * What the tests through an in-process relay share (each repeated it before): a relay for the test class, a host name under which servers register there and that tcp cannot reach, and the properties that
 * route this JVM's runtimes to the relay, cleared after each test.
 */
public abstract class RelaySessions {
    /** A host name tcp cannot reach (it does not resolve) but under which the server registers at the relay. */
    public static final String HIDDEN = "sj-http-test-hidden.invalid";
    /** The test class's relay. */
    protected static HttpRelay relay;

    @BeforeAll
    protected static void startRelay() throws IOException {
        relay = HttpRelay.start(0);
    }

    @AfterAll
    protected static void stopRelay() {
        relay.close();
    }

    @AfterEach
    protected void clearProperties() {
        for (String key : List.of("sessionj.http.relay", "sessionj.http.names", "sessionj.http.websocket")) {
            System.clearProperty(key);
        }
    }

    /** Routes the runtimes made from now on to the relay; their servers register under {@link #HIDDEN}. */
    protected static void useRelay() {
        System.setProperty("sessionj.http.relay", "localhost:" + relay.port());
        System.setProperty("sessionj.http.names", HIDDEN);
    }
}
