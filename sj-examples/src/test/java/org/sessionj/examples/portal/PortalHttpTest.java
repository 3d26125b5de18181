package org.sessionj.examples.portal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.examples.net.Opened;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.net.TestTls;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.transport.http.relay.HttpRelay;

/**
 * The paper's portal scenario with HTTP: the front end opens its session with the portal over http —
 * to the portal's own HTTP port, or through a relay —, the portal delegates it to the application
 * server, and the session goes on directly between front end and server over tcp (webmail) or tls
 * (the tls-only calendar). Asserts the transport before and after, that messages in flight both ways
 * at the delegation arrive exactly once and in order, and the failures: a server that dies after
 * taking the session, one that is down, a front end that vanishes during the hand-over.
 *
 * <p>Like {@link PortalMigrationTest}, this file never names the session API's package, so
 * sj-processor skips it ({@code SJRuntime.transportOf} would be reported as an escape in checked code).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PortalHttpTest {
    private static final List<String> PROPERTIES = List.of("sessionj.http.relay", "sessionj.http.websocket");
    private final Opened opened = new Opened();

    @BeforeAll
    static void tls() {
        TestTls.configure();
    }

    @AfterEach
    void closeAll() throws Exception {
        try {
            opened.closeAll();
        } finally {
            PROPERTIES.forEach(System::clearProperty);
        }
    }

    private <T extends AutoCloseable> T open(T closeable) {
        return opened.add(closeable);
    }

    private Portal portal(int webmailPort, int webmailDirectPort, int calendarPort) {
        return open(Portal.start(PartyRuntimes.create("tcp", true),
                new PortalSettings(0, "localhost", webmailPort, webmailDirectPort, "localhost", calendarPort, false)
                        .withHttpPort(0)));
    }


    private static List<CalendarEntry> entries(int count) {
        List<CalendarEntry> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(new CalendarEntry("2026-12-01", String.format("%02d:%02d", i / 60, i % 60), "entry " + i));
        }
        return sent;
    }

    /** Transports seen by the front end: at the start, on the hand-over, at the end; then the agenda. */
    record Migration(String before, String handedOver, String after, List<CalendarEntry> agenda) {
    }

    /**
     * A calendar session over http with the portal at {@code portalPort}, streaming {@code sent} right
     * behind the hand-over (in flight while the portal delegates).
     */
    private static Migration calendar(int portalPort, int calendarPort, List<CalendarEntry> sent) {
        var frontEnd = PartyRuntimes.forParty("http", true).service(AppletToPortal.class, "localhost", portalPort,
                PartyRuntimes.towards("http"));
        List<CalendarEntry> agenda = new ArrayList<>();
        String before;
        String handedOver;
        String after;
        try (var s = frontEnd.request()) {
            before = SJRuntime.transportOf(s);
            s.send("hana");
            s.outbranch("CALENDAR");
            Handover handover = s.receive();          // the portal sends it and delegates at once: in flight towards us
            handedOver = SJRuntime.transportOf(s);
            assertThat(handover).isEqualTo(new Handover("calendar", "localhost:" + calendarPort, true));
            s.send("hana");
            int i = 0;
            while (s.outwhile(i < sent.size())) {      // streamed without waiting: in flight towards the portal
                s.send(sent.get(i++));
            }
            while (s.inwhile()) {
                CalendarEntry entry = s.receive();
                agenda.add(entry);
            }
            after = SJRuntime.transportOf(s);
        }
        return new Migration(before, handedOver, after, agenda);
    }

    @Test
    void overTheHttpPortTheSessionMovesFromHttpToTlsAndNothingIsLostOrDuplicated() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        CalendarServer calendar = open(CalendarServer.start(PartyRuntimes.create("tls", false), 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), calendar.port());
        assertThat(portal.httpPort()).isPositive().isNotEqualTo(portal.port());
        List<CalendarEntry> sent = entries(500);
        Migration migration = calendar(portal.httpPort(), calendar.port(), sent);
        assertThat(migration).isEqualTo(new Migration("http", "http", "tls", sent));
    }

    @Test
    void overTheHttpPortWebmailMovesToTcpAndAnswersARequestSentDuringTheHandOver() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), 1);
        webmail.deliver(new Mail("ivan", "ida", "one", "1"));
        String before;
        var frontEnd = PartyRuntimes.forParty("http", true).service(AppletToPortal.class, "localhost", portal.httpPort(),
                PartyRuntimes.towards("http"));
        try (var s = frontEnd.request()) {
            before = SJRuntime.transportOf(s);
            s.send("ida");
            s.outbranch("WEBMAIL");
            Handover handover = s.receive();
            assertThat(handover.delegated()).isTrue();
            s.send("ida");
            s.outbranch("READ");                        // in flight towards the portal while it delegates
            s.send(1);
            Mail mail = s.receive();
            assertThat(mail).isEqualTo(new Mail("ivan", "ida", "one", "1"));
            assertThat(SJRuntime.transportOf(s)).isEqualTo("tcp");
            s.outbranch("QUIT");
        }
        assertThat(before).isEqualTo("http");
    }

    @ParameterizedTest(name = "websocket={0}")
    @ValueSource(booleans = {true, false})
    void throughTheRelayTheSessionMovesFromHttpToTcpAndTls(boolean websocket) throws IOException {
        HttpRelay relay = open(HttpRelay.start(0));
        PartyRuntimes.useRelay("localhost:" + relay.port());
        System.setProperty("sessionj.http.websocket", Boolean.toString(websocket));
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        CalendarServer calendar = open(CalendarServer.start(PartyRuntimes.create("tls", false), 0));
        Portal portal = open(Portal.start(PartyRuntimes.create("tcp", true),
                new PortalSettings(0, "localhost", webmail.port(), webmail.directPort(), "localhost", calendar.port(), false)));
        // the portal's session port: registered at the relay, requested through it over http
        var frontEnd = PartyRuntimes.forParty("http", true).service(AppletToPortal.class, "localhost", portal.port(),
                PartyRuntimes.towards("http"));
        List<CalendarEntry> sent = entries(300);
        assertThat(calendar(portal.port(), calendar.port(), sent)).isEqualTo(new Migration("http", "http", "tls", sent));
        List<String> out = new ArrayList<>();
        FrontEnd.webmail(frontEnd, "jo", List.of("send jo hi | there", "list", "read 1").iterator(), out::add);
        assertThat(out).containsExactly("portal: handed over to webmail at localhost:" + webmail.port(), "sent to jo",
                "1  jo  hi", "From: jo | Subject: hi | there");
    }

    @Test
    void aFrontEndThatVanishesDuringTheHandOverLeavesPortalAndServerServing() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), 1);
        var frontEnd = PartyRuntimes.forParty("http", true).service(AppletToPortal.class, "localhost", portal.httpPort(),
                PartyRuntimes.towards("http"));
        for (int i = 0; i < 3; i++) {
            var s = frontEnd.request();
            s.send("ghost");
            s.outbranch("WEBMAIL");
            assertThatThrownBy(s::close)                // gone before the hand-over completes
                    .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo("SJProtocolViolationException"));
        }
        List<String> out = new ArrayList<>();
        FrontEnd.webmail(frontEnd, "jo", List.of("send jo hi | there", "list").iterator(), out::add);
        assertThat(out).containsExactly("portal: handed over to webmail at localhost:" + webmail.port(), "sent to jo",
                "1  jo  hi");
    }

    @Test
    void aServerThatDiesAfterTheHandOverFailsTheFrontEndClearly() {
        var crashing = open(PartyRuntimes.create("tcp", false).serverSocket(CalendarToPortal.class, 0));
        Thread server = Thread.ofVirtual().start(() -> {
            try (var s_sp = crashing.accept()) {
                AutoCloseable s_sa = s_sp.receive();    // takes the session over ...
                assertThatThrownBy(s_sa::close)         // ... and dies before serving it
                        .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo("SJProtocolViolationException"));
            }
        });
        Portal portal = portal(1, 1, crashing.port());
        var frontEnd = PartyRuntimes.forParty("http", true).service(AppletToPortal.class, "localhost", portal.httpPort(),
                PartyRuntimes.towards("http"));
        assertThatThrownBy(() -> FrontEnd.calendar(frontEnd, "kim",
                List.of(new CalendarEntry("2026-12-01", "10:00", "x")), line -> { }))
                .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo("SJIOException"))
                .hasMessageContaining("the peer failed the session");
        assertThat(server).satisfies(t -> assertThat(t.join(Duration.ofSeconds(10))).isTrue());
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
