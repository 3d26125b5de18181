package org.sessionj.examples.portal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.net.Opened;
import org.sessionj.examples.net.TestTls;
import org.sessionj.runtime.SJRuntime;

/**
 * The portal's delegation seen from a front end written in this test: which transport the session is
 * on before and after the hand-over, that nothing is lost or duplicated while messages are in flight
 * both ways, and what the front end sees when a party vanishes.
 *
 * <p>This file never names the session API's package (sockets are {@code var}s), so sj-processor skips
 * it: {@code SJRuntime.transportOf} is reported as an escape in checked code today.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PortalMigrationTest {
    private final Opened opened = new Opened();

    @BeforeAll
    static void tls() {
        TestTls.configure();
    }

    @AfterEach
    void closeAll() throws Exception {
        opened.closeAll();
    }

    private <T extends AutoCloseable> T open(T closeable) {
        return opened.add(closeable);
    }

    private Portal portal(int webmailPort, int webmailDirectPort, int calendarPort) {
        return open(Portal.start(PartyRuntimes.create("tcp", true),
                new PortalSettings(0, "localhost", webmailPort, webmailDirectPort, "localhost", calendarPort, false)));
    }

    @Test
    void theSessionMovesFromTcpToTlsAndNothingIsLostOrDuplicated() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        CalendarServer calendar = open(CalendarServer.start(PartyRuntimes.create("tls", false), 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), calendar.port());
        var frontEnd = PartyRuntimes.create("tcp", true).service(AppletToPortal.class, "localhost", portal.port());
        List<CalendarEntry> sent = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            sent.add(new CalendarEntry("2026-12-01", String.format("%02d:%02d", i / 60, i % 60), "entry " + i));
        }
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
            assertThat(handover).isEqualTo(new Handover("calendar", "localhost:" + calendar.port(), true));
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
        assertThat(before).isEqualTo("tcp");
        assertThat(handedOver).isEqualTo("tcp");
        assertThat(after).isEqualTo("tls");
        assertThat(agenda).containsExactlyElementsOf(sent);
    }

    @Test
    void webmailStaysOnTcpAndAnswersRequestsSentDuringTheHandOver() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        CalendarServer calendar = open(CalendarServer.start(PartyRuntimes.create("tls", false), 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), calendar.port());
        webmail.deliver(new Mail("ivan", "ida", "one", "1"));
        var frontEnd = PartyRuntimes.create("tcp", true).service(AppletToPortal.class, "localhost", portal.port());
        try (var s = frontEnd.request()) {
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
    }

    @Test
    void aFrontEndThatVanishesDuringTheHandOverLeavesPortalAndServerServing() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), 1);
        var runtime = PartyRuntimes.create("tcp", true);
        var frontEnd = runtime.service(AppletToPortal.class, "localhost", portal.port());
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
    void aServerThatVanishesAfterTheHandOverFailsTheFrontEndClearly() {
        var serverRuntime = PartyRuntimes.create("tcp", false);
        var crashing = open(serverRuntime.serverSocket(CalendarToPortal.class, 0));
        Thread server = Thread.ofVirtual().start(() -> {
            try (var s_sp = crashing.accept()) {
                AutoCloseable s_sa = s_sp.receive();    // takes the session over ...
                assertThatThrownBy(s_sa::close)         // ... and dies before serving it
                        .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo("SJProtocolViolationException"));
            }
        });
        Portal portal = portal(1, 1, crashing.port());
        var frontEnd = PartyRuntimes.create("tcp", true).service(AppletToPortal.class, "localhost", portal.port());
        assertThatThrownBy(() -> FrontEnd.calendar(frontEnd, "kim", List.of(new CalendarEntry("2026-12-01", "10:00", "x")),
                line -> { }))
                .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo("SJIOException"))
                .hasMessageContaining("the peer failed the session");
        assertThat(server).satisfies(t -> assertThat(t.join(java.time.Duration.ofSeconds(10))).isTrue());
    }
}
