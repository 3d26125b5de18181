package org.sessionj.cli;

import com.example.kv.KvClient;
import com.example.kv.KvServer;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./sj example kv server|client}: the getting-started example (docs/getting-started.md), whose
 * code is the standalone Maven project samples/kv-maven.
 */
@Command(name = "example",
        mixinStandardHelpOptions = true,
        description = "The getting-started examples (docs/getting-started.md).",
        subcommands = {ExampleCommand.Kv.class})
final class ExampleCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing example: kv");
    }

    /** The key-value store of samples/kv-maven. */
    @Command(name = "kv", mixinStandardHelpOptions = true,
            description = "A key-value store: a server and a client in two JVMs (samples/kv-maven).",
            subcommands = {Kv.Server.class, Kv.Client.class})
    static final class Kv implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: server or client");
        }

        /** Runs the store until the process is stopped. */
        @Command(name = "server", mixinStandardHelpOptions = true, description = "Run the store (Ctrl-C stops it).")
        static final class Server implements Callable<Integer> {
            @CommandLine.Spec
            CommandLine.Model.CommandSpec spec;

            @Option(names = "--port", defaultValue = "7000",
                    description = "Session port (default ${DEFAULT-VALUE}; 0: a free one).")
            int port;

            @Override
            public Integer call() throws InterruptedException {
                KvServer server = KvServer.start(port);
                spec.commandLine().getOut().println("kv server: listening on session port " + server.port()
                        + " (Ctrl-C stops it)");
                spec.commandLine().getOut().flush();
                return Foreground.serveUntilStopped(server);
            }
        }

        /** Runs one session of commands against a store. */
        @Command(name = "client", mixinStandardHelpOptions = true,
                description = "Run commands against a store in one session, e.g. put lang Java get lang.")
        static final class Client implements Callable<Integer> {
            @CommandLine.Spec
            CommandLine.Model.CommandSpec spec;

            @Option(names = "--host", defaultValue = "localhost", description = "The server's host (default ${DEFAULT-VALUE}).")
            String host;

            @Option(names = "--port", defaultValue = "7000", description = "The server's session port (default ${DEFAULT-VALUE}).")
            int port;

            @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "put KEY VALUE | get KEY, in order.")
            List<String> words;

            @Override
            public Integer call() {
                List<KvClient.Command> commands;
                try {
                    commands = KvClient.parse(words);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
                }
                KvClient.run(host, port, commands, spec.commandLine().getOut());
                spec.commandLine().getOut().flush();
                return 0;
            }
        }
    }
}
