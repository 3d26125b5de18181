package org.sessionj.examples.portal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.net.RelayProcess;
import org.sessionj.examples.net.TestTls;
import org.sessionj.transport.http.relay.HttpRelay;

/**
 * The paper's portal scenario with HTTP: the front end opens its session with the portal over http —
 * to the portal's own HTTP port ({@link PortalDelegationScenarios}: the session moves to tcp or tls,
 * nothing lost or duplicated, failures), or through a relay (plain, and {@code ./sj relay --tls} with
 * https) —, the portal delegates it to the application server, and the session goes on directly
 * between front end and server over tcp (webmail) or tls (the tls-only calendar).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PortalHttpTest extends PortalDelegationScenarios {
    private static final List<String> PROPERTIES = List.of("sessionj.http.relay", "sessionj.http.websocket");

    @AfterEach
    void clearProperties() {
        PROPERTIES.forEach(System::clearProperty);
    }

    @Override
    String frontEndTransport() {
        return "http";
    }

    @Override
    Portal portal(int webmailPort, int webmailDirectPort, int calendarPort) {
        Portal portal = open(Portal.start(PartyRuntimes.create("tcp", true),
                new PortalSettings(0, "localhost", webmailPort, webmailDirectPort, "localhost", calendarPort, false)
                        .withHttpPort(0)));
        assertThat(portal.httpPort()).isPositive().isNotEqualTo(portal.port());
        return portal;
    }

    @Override
    int frontDoor(Portal portal) {
        return portal.httpPort();
    }

    /** Portal, webmail and calendar registered at the relay; a front end requesting the portal through it. */
    private void throughTheRelay(String transport) {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        CalendarServer calendar = open(CalendarServer.start(PartyRuntimes.create("tls", false), 0));
        Portal portal = open(Portal.start(PartyRuntimes.create("tcp", true),
                new PortalSettings(0, "localhost", webmail.port(), webmail.directPort(), "localhost", calendar.port(), false)));
        // the portal's session port: registered at the relay, requested through it
        List<CalendarEntry> sent = entries(300);
        assertThat(calendar(transport, portal.port(), calendar.port(), sent))
                .isEqualTo(new Migration(transport, transport, "tls", sent));
        var frontEnd = PartyRuntimes.forParty(transport, true).service(AppletToPortal.class, "localhost", portal.port(),
                PartyRuntimes.towards(transport));
        List<String> out = new ArrayList<>();
        FrontEnd.webmail(frontEnd, "jo", List.of("send jo hi | there", "list", "read 1").iterator(), out::add);
        assertThat(out).containsExactly("portal: handed over to webmail at localhost:" + webmail.port(), "sent to jo",
                "1  jo  hi", "From: jo | Subject: hi | there");
    }

    @ParameterizedTest(name = "websocket={0}")
    @ValueSource(booleans = {true, false})
    void throughTheRelayTheSessionMovesFromHttpToTcpAndTls(boolean websocket) throws IOException {
        HttpRelay relay = open(HttpRelay.start(0));
        PartyRuntimes.useRelay("localhost:" + relay.port());
        System.setProperty("sessionj.http.websocket", Boolean.toString(websocket));
        throughTheRelay("http");
    }

    @Test
    void throughAnHttpsRelayProcessTheSessionMovesFromHttpsToTcpAndTls() throws IOException {
        var tls = TestTls.configure();
        RelayProcess relay = open(RelayProcess.start("--tls", "--cert", tls.resolve("cert.pem").toString(),
                "--key", tls.resolve("key.pem").toString()));
        assertThat(relay.url()).startsWith("https://");
        PartyRuntimes.useRelay(relay.url());
        assertThat(PartyRuntimes.relayMismatch("http")).contains("the relay speaks https");
        throughTheRelay("https");
    }

    @Test
    void aServerThatIsDownFailsTheFrontEndClearlyAndThePortalGoesOn() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        CalendarServer calendar = open(CalendarServer.start(PartyRuntimes.create("tls", false), 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), calendar.port());
        webmail.close();
        var frontEnd = PartyRuntimes.forParty("http", true).service(AppletToPortal.class, "localhost", portal.httpPort(),
                PartyRuntimes.towards("http"));
        assertThatThrownBy(() -> FrontEnd.webmail(frontEnd, "frank", List.of("list").iterator(), line -> { }))
                .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo("SJIOException"));
        assertThat(FrontEnd.calendar(frontEnd, "frank", List.of(new CalendarEntry("2026-12-24", "18:00", "dinner")),
                line -> { })).hasSize(1);
    }
}
