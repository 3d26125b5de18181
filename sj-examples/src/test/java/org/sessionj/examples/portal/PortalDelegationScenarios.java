package org.sessionj.examples.portal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sessionj.examples.net.Opened;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.net.TestTls;
import org.sessionj.runtime.SJRuntime;

/**
 * The portal's delegation seen from a front end written in the test, whatever way the front end
 * reaches the portal ({@link #frontEndTransport()}: tcp to its session port, http to its HTTP port or
 * through a relay): the transport before and after the hand-over, that messages in flight both ways at
 * the hand-over arrive exactly once and in order, and what the front end sees when a party vanishes.
 * {@link PortalMigrationTest} runs these over tcp, {@link PortalHttpTest} over http.
 *
 * <p>sj-processor checks this file like any other (its sockets are {@code var}s); the two scenarios
 * whose front end or server breaks its protocol on purpose turn the checker off with
 * {@code @SuppressWarnings("sessionj")}, and the runtime's failure handling is what they test.
 */
abstract class PortalDelegationScenarios {
    final Opened opened = new Opened();

    @BeforeAll
    static void tls() {
        TestTls.configure();
    }

    @AfterEach
    void closeAll() throws Exception {
        opened.closeAll();
    }

    /** How the front end reaches the portal: {@code tcp} or {@code http}. */
    abstract String frontEndTransport();

    /** The portal for these scenarios, with its servers at these ports (1: none there). */
    abstract Portal portal(int webmailPort, int webmailDirectPort, int calendarPort);

    /** The port the front end requests the portal at (its session port, or its HTTP port). */
    abstract int frontDoor(Portal portal);

    <T extends AutoCloseable> T open(T closeable) {
        return opened.add(closeable);
    }

    static List<CalendarEntry> entries(int count) {
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
     * A calendar session over {@code transport} with the portal at {@code portalPort}, streaming
     * {@code sent} right behind the hand-over (in flight while the portal delegates).
     */
    static Migration calendar(String transport, int portalPort, int calendarPort, List<CalendarEntry> sent) {
        var frontEnd = PartyRuntimes.forParty(transport, true).service(AppletToPortal.class, "localhost", portalPort,
                PartyRuntimes.towards(transport));
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
    void theCalendarSessionMovesToTlsAndNothingIsLostOrDuplicated() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        CalendarServer calendar = open(CalendarServer.start(PartyRuntimes.create("tls", false), 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), calendar.port());
        List<CalendarEntry> sent = entries(500);
        String via = frontEndTransport();
        assertThat(calendar(via, frontDoor(portal), calendar.port(), sent)).isEqualTo(new Migration(via, via, "tls", sent));
    }

    @Test
    void webmailMovesToTcpAndAnswersARequestSentDuringTheHandOver() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), 1);
        webmail.deliver(new Mail("ivan", "ida", "one", "1"));
        String before;
        var frontEnd = PartyRuntimes.forParty(frontEndTransport(), true).service(AppletToPortal.class, "localhost",
                frontDoor(portal), PartyRuntimes.towards(frontEndTransport()));
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
        assertThat(before).isEqualTo(frontEndTransport());
    }

    @Test
    @SuppressWarnings("sessionj") // breaks the protocol on purpose
    void aFrontEndThatVanishesDuringTheHandOverLeavesPortalAndServerServing() {
        WebmailServer webmail = open(WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0));
        Portal portal = portal(webmail.port(), webmail.directPort(), 1);
        var frontEnd = PartyRuntimes.forParty(frontEndTransport(), true).service(AppletToPortal.class, "localhost",
                frontDoor(portal), PartyRuntimes.towards(frontEndTransport()));
        for (int i = 0; i < 3; i++) {
            var s = frontEnd.request();
            s.send("ghost");
            s.outbranch("WEBMAIL");
            assertThatCode(s::close)                    // gone before the hand-over completes: abandoned, no throw
                    .doesNotThrowAnyException();
        }
        List<String> out = new ArrayList<>();
        FrontEnd.webmail(frontEnd, "jo", List.of("send jo hi | there", "list").iterator(), out::add);
        assertThat(out).containsExactly("portal: handed over to webmail at localhost:" + webmail.port(), "sent to jo",
                "1  jo  hi");
    }

    @Test
    @SuppressWarnings("sessionj") // breaks the protocol on purpose
    void aServerThatDiesAfterTheHandOverFailsTheFrontEndClearly() {
        var crashing = open(PartyRuntimes.create("tcp", false).serverSocket(CalendarToPortal.class, 0));
        Thread server = Thread.ofVirtual().start(() -> {
            try (var s_sp = crashing.accept()) {
                AutoCloseable s_sa = s_sp.receive();    // takes the session over ...
                assertThatCode(s_sa::close)             // ... and dies before serving it: abandoned, the
                        .doesNotThrowAnyException();    // front end hears of it (below)
            }
        });
        Portal portal = portal(1, 1, crashing.port());
        var frontEnd = PartyRuntimes.forParty(frontEndTransport(), true).service(AppletToPortal.class, "localhost",
                frontDoor(portal), PartyRuntimes.towards(frontEndTransport()));
        assertThatThrownBy(() -> FrontEnd.calendar(frontEnd, "kim",
                List.of(new CalendarEntry("2026-12-01", "10:00", "x")), line -> { }))
                .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo("SJIOException"))
                .hasMessageContaining("the peer failed the session");
        assertThat(server).satisfies(t -> assertThat(t.join(Duration.ofSeconds(10))).isTrue());
    }
}
