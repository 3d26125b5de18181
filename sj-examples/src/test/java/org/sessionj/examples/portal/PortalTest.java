package org.sessionj.examples.portal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJService;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.net.Opened;
import org.sessionj.examples.net.TestTls;
import org.sessionj.runtime.SJRuntime;

/** The three parties of the portal in one JVM, each with a runtime of its own, over tcp and tls. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PortalTest {
    private final Opened opened = new Opened();

    @BeforeAll
    static void tls() {
        TestTls.configure();
    }

    @AfterEach
    void closeAll() throws Exception {
        opened.closeAll();
    }

    /** Webmail and calendar servers, and a portal in front of them (forwarding webmail or not). */
    Parties start(boolean forward) {
        WebmailServer webmail = WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0);
        opened.add(webmail);
        CalendarServer calendar = CalendarServer.start(PartyRuntimes.create("tls", false), 0);
        opened.add(calendar);
        Portal portal = Portal.start(PartyRuntimes.create("tcp", true), new PortalSettings(0, "localhost",
                webmail.port(), webmail.directPort(), "localhost", calendar.port(), forward));
        opened.add(portal);
        SJRuntime frontEnd = PartyRuntimes.create("tcp", true);
        return new Parties(webmail, calendar, portal, frontEnd.service(AppletToPortal.class, "localhost", portal.port()));
    }

    record Parties(WebmailServer webmail, CalendarServer calendar, Portal portal, SJService frontEnd) {
    }

    @Test
    void webmailDelegated() {
        Parties parties = start(false);
        List<String> alice = Collections.synchronizedList(new ArrayList<>());
        FrontEnd.webmail(parties.frontEnd(), "alice", List.of("list", "send bob Lunch | at noon?", "frobnicate", "read x",
                "quit", "list").iterator(), alice::add);
        List<String> bob = new ArrayList<>();
        FrontEnd.webmail(parties.frontEnd(), "bob", List.of("list", "read 1", "read 7").iterator(), bob::add);
        String server = "localhost:" + parties.webmail().port();
        assertThat(alice).containsExactly("portal: handed over to webmail at " + server, "(no mail)", "sent to bob",
                "commands: list, read, send, quit", "usage: read N (a message number from list)");
        assertThat(bob).containsExactly("portal: handed over to webmail at " + server, "1  alice  Lunch",
                "From: alice | Subject: Lunch | at noon?", "From: webmail | Subject: no message 7 | ");
    }

    @Test
    void webmailForwardedGivesTheSameAnswers() {
        Parties parties = start(true);
        parties.webmail().deliver(new Mail("carol", "dave", "Hi", "there"));
        List<String> dave = new ArrayList<>();
        FrontEnd.webmail(parties.frontEnd(), "dave", List.of("list", "read 1", "send carol Re: Hi | back").iterator(), dave::add);
        assertThat(dave).containsExactly("portal: relaying to webmail at localhost:" + parties.webmail().directPort(),
                "1  carol  Hi", "From: carol | Subject: Hi | there", "sent to carol");
    }

    /**
     * H21-1: the webmail server bounded each mailbox only, so mails to fresh names filled any heap. Now all
     * mailboxes together keep the newest {@link WebmailServer#TOTAL_LIMIT} messages: the oldest goes, and
     * a mailbox that held only it is gone.
     */
    @Test
    void webmailKeepsAtMostItsTotalOfMessagesTheOldestGoingFirst() {
        Parties parties = start(false);
        for (int i = 0; i <= WebmailServer.TOTAL_LIMIT; i++) {
            parties.webmail().deliver(new Mail("flood", "name" + i, "s", "b"));
        }
        List<String> first = new ArrayList<>();
        FrontEnd.webmail(parties.frontEnd(), "name0", List.of("list").iterator(), first::add);
        List<String> second = new ArrayList<>();
        FrontEnd.webmail(parties.frontEnd(), "name1", List.of("list").iterator(), second::add);
        assertThat(first).endsWith("(no mail)");
        assertThat(second).endsWith("1  flood  s");
    }

    /**
     * H21-1: the calendar server bounded each agenda only, so agendas under fresh user names filled any
     * heap. Now all agendas together keep at most a total (here 5, and 3 per user); more are received and
     * not stored, and a user none of whose entries is stored has no agenda.
     */
    @Test
    void calendarKeepsAtMostItsTotalOfEntries() {
        CalendarServer calendar = CalendarServer.start(PartyRuntimes.create("tcp", false), 0, 3, 5);
        opened.add(calendar);
        WebmailServer webmail = WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0);
        opened.add(webmail);
        Portal portal = Portal.start(PartyRuntimes.create("tcp", false), new PortalSettings(0, "localhost",
                webmail.port(), webmail.directPort(), "localhost", calendar.port(), false));
        opened.add(portal);
        SJService frontEnd = PartyRuntimes.create("tcp", false).service(AppletToPortal.class, "localhost", portal.port());
        List<CalendarEntry> four = PortalDelegationScenarios.entries(4);
        assertThat(FrontEnd.calendar(frontEnd, "a", four, line -> { })).hasSize(3);
        assertThat(FrontEnd.calendar(frontEnd, "b", four, line -> { })).hasSize(2);
        assertThat(FrontEnd.calendar(frontEnd, "c", four, line -> { })).isEmpty();
        assertThat(FrontEnd.calendar(frontEnd, "a", List.of(), line -> { })).hasSize(3);
    }

    @Test
    void calendarDelegatedToATlsOnlyServer() {
        Parties parties = start(false);
        List<String> out = new ArrayList<>();
        List<CalendarEntry> first = FrontEnd.calendar(parties.frontEnd(), "erin",
                List.of(new CalendarEntry("2026-12-02", "09:00", "dentist"), new CalendarEntry("2026-12-01", "14:00", "review")),
                out::add);
        List<CalendarEntry> second = FrontEnd.calendar(parties.frontEnd(), "erin", List.of(), out::add);
        assertThat(first).containsExactly(new CalendarEntry("2026-12-01", "14:00", "review"),
                new CalendarEntry("2026-12-02", "09:00", "dentist"));
        assertThat(second).isEqualTo(first);
        assertThat(out).containsOnly("portal: handed over to calendar at localhost:" + parties.calendar().port());
    }

    @Test
    void anApplicationServerThatIsDownFailsTheFrontEndClearlyAndThePortalGoesOn() {
        Parties parties = start(false);
        parties.webmail().close();
        assertThatThrownBy(() -> FrontEnd.webmail(parties.frontEnd(), "frank", List.of("list").iterator(), line -> { }))
                .isInstanceOf(SJIOException.class);
        List<CalendarEntry> agenda = FrontEnd.calendar(parties.frontEnd(), "frank",
                List.of(new CalendarEntry("2026-12-24", "18:00", "dinner")), line -> { });
        assertThat(agenda).hasSize(1);
    }
}
