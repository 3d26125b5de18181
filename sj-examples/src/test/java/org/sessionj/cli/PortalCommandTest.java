package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.portal.CalendarServer;
import org.sessionj.examples.portal.Mail;
import org.sessionj.examples.portal.Portal;
import org.sessionj.examples.portal.PortalSettings;
import org.sessionj.examples.portal.WebmailServer;
import picocli.CommandLine;

/** {@code ./sj portal frontend} and the options of {@code ./sj chat} / {@code ./sj portal}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PortalCommandTest {

    record Run(int status, String out, String err) {
    }

    static Run sj(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = SjCommand.commandLine();
        cli.setOut(new PrintWriter(new BufferedWriter(out)));
        cli.setErr(new PrintWriter(new BufferedWriter(err)));
        int status = SjCommand.execute(cli, args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void theFrontEndAddsToTheCalendarAndPrintsTheAgenda() {
        try (WebmailServer webmail = WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0);
             CalendarServer calendar = CalendarServer.start(PartyRuntimes.create("tcp", false), 0);
             Portal portal = Portal.start(PartyRuntimes.create("tcp", false), new PortalSettings(0, "localhost",
                     webmail.port(), webmail.directPort(), "localhost", calendar.port(), false))) {
            Run run = sj("portal", "frontend", "--portal", "localhost:" + portal.port(), "--user", "lee", "calendar",
                    "--add", "2026-12-02 09:00 standup", "--add", "2026-12-01 17:30 release party");
            assertThat(run.status()).as(run.err()).isZero();
            assertThat(run.out()).isEqualTo("portal: handed over to calendar at localhost:" + calendar.port() + "\n"
                    + "2026-12-01 17:30  release party\n2026-12-02 09:00  standup\n");
        }
    }

    @Test
    void theFrontEndReachesThePortalOverHttpAndTheServerOverTcp() {
        try (WebmailServer webmail = WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0);
             Portal portal = Portal.start(PartyRuntimes.create("tcp", false), new PortalSettings(0, "localhost",
                     webmail.port(), webmail.directPort(), "localhost", 1, false).withHttpPort(0))) {
            webmail.deliver(new Mail("kai", "lee", "Hello", "over http, then tcp"));
            java.io.InputStream stdin = System.in;
            try {
                System.setIn(new java.io.ByteArrayInputStream("list\nread 1\nquit\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                Run run = sj("portal", "frontend", "--portal", "localhost:" + portal.httpPort(), "--transport", "http",
                        "--user", "lee", "webmail");
                assertThat(run.status()).as(run.err()).isZero();
                assertThat(run.out()).isEqualTo("portal: handed over to webmail at localhost:" + webmail.port() + "\n"
                        + "1  kai  Hello\nFrom: kai | Subject: Hello | over http, then tcp\n");
            } finally {
                System.setIn(stdin);
            }
        }
    }

    @Test
    void badOptionsAreUsageErrors() {
        Run badTransport = sj("portal", "frontend", "--user", "lee", "--transport", "udp", "webmail");
        assertThat(badTransport.status()).isEqualTo(2);
        assertThat(badTransport.err()).contains("--transport must be tcp, http or https, got 'udp'");
        Run httpsWithoutKeys = sj("portal", "frontend", "--user", "lee", "--transport", "https", "webmail");
        assertThat(httpsWithoutKeys.status()).isEqualTo(2);
        assertThat(httpsWithoutKeys.err()).contains("--transport https needs --tls-dir");
        Run badEntry = sj("portal", "frontend", "--user", "lee", "calendar", "--add", "tomorrow lunch");
        assertThat(badEntry.status()).isEqualTo(2);
        assertThat(badEntry.err()).contains("--add expects 'YYYY-MM-DD HH:MM TITLE', got 'tomorrow lunch'");
        Run noName = sj("chat", "client", "--server", "localhost:4700");
        assertThat(noName.status()).isEqualTo(2);
        assertThat(noName.err()).contains("Missing required option: '--name=<name>'");
        Run tlsWithoutKeys = sj("chat", "client", "--name", "x", "--server", "localhost:4700", "--transport", "tls");
        assertThat(tlsWithoutKeys.status()).isEqualTo(2);
        assertThat(tlsWithoutKeys.err()).contains("--transport tls or https and --private-tls need --tls-dir");
    }
}
