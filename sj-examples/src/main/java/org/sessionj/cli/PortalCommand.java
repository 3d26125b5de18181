package org.sessionj.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.sessionj.examples.deploy.HostPort;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.portal.AppletToPortal;
import org.sessionj.examples.portal.CalendarEntry;
import org.sessionj.examples.portal.CalendarServer;
import org.sessionj.examples.portal.FrontEnd;
import org.sessionj.examples.portal.Portal;
import org.sessionj.examples.portal.PortalSettings;
import org.sessionj.examples.portal.WebmailServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./sj portal webmail|calendar|portal|frontend}: the application portal of paper 000 §4.2. */
@Command(name = "portal",
        mixinStandardHelpOptions = true,
        description = {"The application portal: a front end talks to the portal, which delegates the session to"
                + " the webmail or calendar server; the session then runs directly between front end and server.",
                "Start webmail, calendar and portal (each in its own terminal), then run frontend."},
        subcommands = {PortalCommand.Webmail.class, PortalCommand.Calendar.class, PortalCommand.Gateway.class,
            PortalCommand.Frontend.class})
final class PortalCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    /** A party's transport options. */
    static final class TransportOptions {
        @Option(names = "--transport", defaultValue = "tcp", paramLabel = "tcp|tls",
                description = "The transport this party's sessions run on (default ${DEFAULT-VALUE}; tls needs --tls-dir).")
        String transport;

        @CommandLine.Mixin
        ChatCommand.TlsOption tls = new ChatCommand.TlsOption();

        @CommandLine.Mixin
        ChatCommand.RelayOption relay = new ChatCommand.RelayOption();

        org.sessionj.runtime.SJRuntime runtime() {
            relay.apply();
            boolean withTls = tls.apply();
            if (transport.equals("tls") && !withTls) {
                throw new IllegalArgumentException("--transport tls needs --tls-dir (make one with ./sj tls keygen)");
            }
            String mismatch = relay.relay == null ? null : PartyRuntimes.relayMismatch(transport);
            if (mismatch != null) {
                throw new IllegalArgumentException(mismatch);
            }
            return PartyRuntimes.create(transport, withTls);
        }
    }

    @Command(name = "webmail", mixinStandardHelpOptions = true, description = "Run the webmail server.")
    static final class Webmail implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--port", defaultValue = "4801", description = "Port for delegated sessions (default ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--direct-port", defaultValue = "4802",
                description = "Port for sessions a forwarding portal relays (default ${DEFAULT-VALUE}).")
        int directPort;

        @CommandLine.Mixin
        TransportOptions transport = new TransportOptions();

        @Override
        public Integer call() throws InterruptedException {
            WebmailServer server = WebmailServer.start(transport.runtime(), port, directPort);
            spec.commandLine().getOut().println("webmail on ports " + server.port() + " (delegated) and "
                    + server.directPort() + " (forwarded), sessions over " + transport.transport);
            spec.commandLine().getOut().flush();
            return Foreground.serveUntilStopped(server);
        }
    }

    @Command(name = "calendar", mixinStandardHelpOptions = true, description = "Run the calendar server.")
    static final class Calendar implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--port", defaultValue = "4803", description = "Port for delegated sessions (default ${DEFAULT-VALUE}).")
        int port;

        @CommandLine.Mixin
        TransportOptions transport = new TransportOptions();

        @Override
        public Integer call() throws InterruptedException {
            CalendarServer server = CalendarServer.start(transport.runtime(), port);
            spec.commandLine().getOut().println("calendar on port " + server.port() + ", sessions over " + transport.transport);
            spec.commandLine().getOut().flush();
            return Foreground.serveUntilStopped(server);
        }
    }

    @Command(name = "portal", mixinStandardHelpOptions = true, description = "Run the portal.")
    static final class Gateway implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--port", defaultValue = "4800", description = "The portal's session port (default ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--webmail", defaultValue = "localhost:4801", paramLabel = "HOST:PORT",
                description = "The webmail server (default ${DEFAULT-VALUE}).")
        String webmail;

        @Option(names = "--webmail-direct", defaultValue = "4802", paramLabel = "PORT",
                description = "The webmail server's port for forwarded sessions (default ${DEFAULT-VALUE}).")
        int webmailDirect;

        @Option(names = "--calendar", defaultValue = "localhost:4803", paramLabel = "HOST:PORT",
                description = "The calendar server (default ${DEFAULT-VALUE}).")
        String calendar;

        @Option(names = "--forward", description = "Relay every webmail message instead of delegating the session.")
        boolean forward;

        @Option(names = "--http-port", defaultValue = "-1", paramLabel = "PORT",
                description = "Also take front ends over http on this port (an HTTP server of the portal's own; 0: a free one).")
        int httpPort;

        @CommandLine.Mixin
        ChatCommand.TlsOption tls = new ChatCommand.TlsOption();

        @CommandLine.Mixin
        ChatCommand.RelayOption relay = new ChatCommand.RelayOption();

        @Override
        public Integer call() throws InterruptedException {
            HostPort mail = HostPort.parse(webmail, "--webmail");
            HostPort cal = HostPort.parse(calendar, "--calendar");
            boolean viaRelay = relay.apply();
            boolean withTls = tls.apply();
            relay.check(spec.commandLine(), "tcp");
            Portal portal = Portal.start(PartyRuntimes.create("tcp", withTls),
                    new PortalSettings(port, mail.host(), mail.port(), webmailDirect, cal.host(), cal.port(), forward, httpPort));
            spec.commandLine().getOut().println("portal on port " + portal.port()
                    + (viaRelay ? " (also over " + PartyRuntimes.relayTransport() + " through the relay " + relay.relay + ")"
                            : "")
                    + (portal.httpPort() > 0 ? ", http on port " + portal.httpPort() : "")
                    + " (webmail " + (forward ? "forwarded" : "delegated") + " to " + webmail + ", calendar delegated to "
                    + calendar + ")");
            spec.commandLine().getOut().flush();
            return Foreground.serveUntilStopped(portal);
        }
    }

    @Command(name = "frontend", mixinStandardHelpOptions = true,
            description = {"Open a session with the portal and use an application.",
                "webmail: commands from standard input — list, read N, send TO SUBJECT | BODY, quit.",
                "calendar: adds the --add entries and prints the agenda."})
    static final class Frontend implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "webmail|calendar", description = "The application.")
        String application;

        @Option(names = "--portal", defaultValue = "localhost:4800", paramLabel = "HOST:PORT",
                description = "The portal (default ${DEFAULT-VALUE}).")
        String portal;

        @Option(names = "--user", required = true, description = "Your user name.")
        String user;

        @Option(names = "--add", paramLabel = "'YYYY-MM-DD HH:MM TITLE'", description = "calendar: an entry to add (repeatable).")
        List<String> additions = new ArrayList<>();

        @Option(names = "--tls-dir", paramLabel = "DIR", description = "Lets application servers that demand tls reach you.")
        java.nio.file.Path tlsDir;

        @Option(names = "--transport", defaultValue = "tcp", paramLabel = "tcp|http|https",
                description = "How to reach the portal (default ${DEFAULT-VALUE}): http/https to its --http-port, or to its"
                        + " session port through --relay; the application server then reaches you directly.")
        String transport;

        @CommandLine.Mixin
        ChatCommand.RelayOption relay = new ChatCommand.RelayOption();

        @Override
        public Integer call() throws Exception {
            HostPort address = HostPort.parse(portal, "--portal");
            if (!List.of("tcp", "http", "https").contains(transport)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--transport must be tcp, http or https, got '" + transport + "'");
            }
            relay.apply();
            if (tlsDir != null) {
                PartyRuntimes.useTls(tlsDir);
            } else if (transport.equals("https")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--transport https needs --tls-dir");
            }
            relay.check(spec.commandLine(), transport);
            var service = PartyRuntimes.forParty(transport, tlsDir != null).service(AppletToPortal.class, address.host(),
                    address.port(), PartyRuntimes.towards(transport));
            PrintWriter out = spec.commandLine().getOut();
            switch (application) {
                case "webmail" -> {
                    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                    FrontEnd.webmail(service, user, in.lines().iterator(), line -> {
                        out.println(line);
                        out.flush();
                    });
                }
                case "calendar" -> {
                    List<CalendarEntry> entries = new ArrayList<>();
                    for (String text : additions) {
                        String[] parts = text.strip().split("\\s+", 3);
                        if (parts.length < 3 || !parts[0].matches("\\d{4}-\\d{2}-\\d{2}") || !parts[1].matches("\\d{2}:\\d{2}")) {
                            throw new CommandLine.ParameterException(spec.commandLine(),
                                    "--add expects 'YYYY-MM-DD HH:MM TITLE', got '" + text + "'");
                        }
                        entries.add(new CalendarEntry(parts[0], parts[1], parts[2]));
                    }
                    for (CalendarEntry entry : FrontEnd.calendar(service, user, entries, out::println)) {
                        out.println(entry.date() + " " + entry.time() + "  " + entry.title());
                    }
                }
                default -> throw new CommandLine.ParameterException(spec.commandLine(),
                        "expected webmail or calendar, got '" + application + "'");
            }
            out.flush();
            return 0;
        }
    }
}
