package org.sessionj.cli;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sessionj.examples.chat.ChatClient;
import org.sessionj.examples.chat.ChatClientSettings;
import org.sessionj.examples.chat.ChatServer;
import org.sessionj.examples.chat.ChatServerSettings;
import org.sessionj.examples.chat.terminal.ChatTerminal;
import org.sessionj.examples.deploy.HostPort;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.runtime.TransportPreferences;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sj chat server|client}: the Chat application of paper 000 §4.1. */
@Command(name = "chat",
        mixinStandardHelpOptions = true,
        description = "The Chat application: a server and terminal clients over tcp, tls, http or https.",
        subcommands = {ChatCommand.Server.class, ChatCommand.Client.class})
final class ChatCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    /** TLS key material, shared by both subcommands. */
    static final class TlsOption {
        @Option(names = "--tls-dir", paramLabel = "DIR",
                description = "cert.pem and key.pem from ./sj tls keygen: enables tls (the certificate is also trusted).")
        Path tlsDir;

        boolean apply() {
            if (tlsDir == null) {
                return false;
            }
            PartyRuntimes.useTls(tlsDir);
            return true;
        }
    }

    /** The http relay, shared by every party of the chat and the portal. */
    static final class RelayOption {
        @Option(names = "--relay", paramLabel = "[https://]HOST:PORT",
                description = "A relay (./sj relay): servers also register there, clients may reach them through it;"
                        + " https://HOST:PORT for a relay run with --tls (needs --tls-dir to trust it).")
        String relay;

        /** Configures the relay, if one was given; whether there is one. */
        boolean apply() {
            if (relay == null) {
                return false;
            }
            PartyRuntimes.useRelay(relay);
            return true;
        }

        /**
         * Fails with a clear message if sessions on {@code transport} cannot go through the relay (call
         * after the TLS option is applied).
         */
        void check(CommandLine commandLine, String transport) {
            String mismatch = relay == null ? null : PartyRuntimes.relayMismatch(transport);
            if (mismatch != null) {
                throw new CommandLine.ParameterException(commandLine, mismatch);
            }
        }
    }

    /** Runs a chat server until the process is stopped. */
    @Command(name = "server", mixinStandardHelpOptions = true, description = "Run a chat server (Ctrl-C stops it).")
    static final class Server implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--port", defaultValue = "4700", description = "Session port (default ${DEFAULT-VALUE}; 0: a free one).")
        int port;

        @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "localhost",
                description = "The name or address clients reach this server at (default ${DEFAULT-VALUE}).")
        String host;

        @Option(names = "--http-port", defaultValue = "-1", paramLabel = "PORT",
                description = "Also take clients over http (https with --tls-dir) on this port, an HTTP server of the chat"
                        + " server's own (0: a free one).")
        int httpPort;

        @CommandLine.Mixin
        TlsOption tls = new TlsOption();

        @CommandLine.Mixin
        RelayOption relay = new RelayOption();

        @Override
        public Integer call() throws InterruptedException {
            boolean viaRelay = relay.apply();
            boolean withTls = tls.apply();
            relay.check(spec.commandLine(), "tcp");
            ChatServer server = ChatServer.start(PartyRuntimes.create("tcp", withTls),
                    ChatServerSettings.of(port, host, TransportPreferences.unset()).withHttpPort(httpPort));
            spec.commandLine().getOut().println("chat server on port " + server.port() + " (sessions over tcp"
                    + (withTls ? " and tls" : "") + (viaRelay ? ", and " + PartyRuntimes.relayTransport()
                            + " through the relay " + relay.relay : "") + ")"
                    + (server.httpPort() > 0 ? ", http" + (withTls ? "/https" : "") + " on port " + server.httpPort() : "")
                    + "; Ctrl-C stops it");
            spec.commandLine().getOut().flush();
            return Foreground.serveUntilStopped(server);
        }
    }

    /** Runs an interactive chat client on this terminal. */
    @Command(name = "client", mixinStandardHelpOptions = true,
            description = {"Join a chat server. Type a line to say it to everyone; /msg USER TEXT talks privately"
                    + " (directly to that client); /close USER, /users, /help, /quit."})
    static final class Client implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--name", required = true, description = "Your user name.")
        String name;

        @Option(names = "--server", required = true, paramLabel = "HOST:PORT", description = "The chat server.")
        String server;

        @Option(names = "--transport", defaultValue = "tcp", paramLabel = "tcp|tls|http|https",
                description = "Transport of the sessions with the server (default ${DEFAULT-VALUE}; tls and https need"
                        + " --tls-dir): http/https to the server's --http-port, or to its session port through --relay.")
        String transport;

        @Option(names = "--private-tls",
                description = "Demand tls for the private conversations you open (clients without tls are refused).")
        boolean privateTls;

        @Option(names = "--no-invitations", description = "Refuse invitations to private conversations.")
        boolean noInvitations;

        @Option(names = "--host", paramLabel = "ADDRESS",
                description = "The name or address other clients reach you at (default: your address towards the server).")
        String host;

        @CommandLine.Mixin
        TlsOption tls = new TlsOption();

        @CommandLine.Mixin
        RelayOption relay = new RelayOption();

        @Override
        public Integer call() throws Exception {
            HostPort address = HostPort.parse(server, "--server");
            if (!PartyRuntimes.TRANSPORTS.contains(transport)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--transport must be one of "
                        + String.join(", ", PartyRuntimes.TRANSPORTS) + ", got '" + transport + "'");
            }
            relay.apply();
            boolean withTls = tls.apply();
            relay.check(spec.commandLine(), transport);
            if ((transport.equals("tls") || transport.equals("https") || privateTls) && !withTls) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--transport tls or https and --private-tls need --tls-dir (make one with ./sj tls keygen)");
            }
            ChatClientSettings settings = ChatClientSettings.of(name, address.host(), address.port(),
                    host != null ? host : localAddressTowards(address.host())).withInvitations(!noInvitations)
                    .withServerTransports(PartyRuntimes.towards(transport));
            if (privateTls) {
                settings = settings.withPrivateTransports("tls");
            }
            try (ChatTerminal terminal = ChatTerminal.system()) {
                terminal.show("* chat client " + name + ": connecting to " + address.host() + ":" + address.port()
                        + " over " + transport + " (/help for commands)");
                ChatClient client = ChatClient.start(PartyRuntimes.forParty(transport, withTls), settings, terminal);
                terminal.run(client);
                client.close();
            }
            return 0;
        }

        /** The local address of the route to {@code host} (no packet is sent), so that peers can reach us. */
        private static String localAddressTowards(String host) {
            try (DatagramSocket probe = new DatagramSocket()) {
                probe.connect(new InetSocketAddress(InetAddress.getByName(host), 9));
                InetAddress local = probe.getLocalAddress();
                return local.isAnyLocalAddress() ? InetAddress.getLocalHost().getHostAddress() : local.getHostAddress();
            } catch (java.io.IOException e) {
                return "localhost";
            }
        }
    }
}
