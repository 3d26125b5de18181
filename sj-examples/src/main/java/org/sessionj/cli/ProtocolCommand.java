package org.sessionj.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sessionj.types.ParsedSet;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.ProtocolProblem;
import org.sessionj.types.ProtocolResolver;
import org.sessionj.types.SessionSet;
import org.sessionj.types.SessionSets;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./sj protocol check|print|dual|fsm}: work with a protocol written in SJ notation. */
@Command(name = "protocol",
        mixinStandardHelpOptions = true,
        description = "Check, print, dualise or draw a protocol written in SJ notation (a session type, or a"
                + " session set {S1, S2, ...}).")
final class ProtocolCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    @Command(mixinStandardHelpOptions = true, description = "Report syntax and well-formedness errors (exit status 1 when there are any).")
    int check(@CommandLine.Mixin Input input) {
        return input.withType(spec, type -> spec.commandLine().getOut().println("ok: " + SessionTypes.print(type)),
                set -> spec.commandLine().getOut().println("ok: " + SessionSets.print(set)));
    }

    @Command(mixinStandardHelpOptions = true, description = "Print the canonical form.")
    int print(@CommandLine.Mixin Input input) {
        return input.withType(spec, type -> spec.commandLine().getOut().println(SessionTypes.print(type)),
                set -> spec.commandLine().getOut().println(SessionSets.print(set)));
    }

    @Command(mixinStandardHelpOptions = true, description = "Print the dual (the type of the other side of the session).")
    int dual(@CommandLine.Mixin Input input) {
        return input.withType(spec, type -> spec.commandLine().getOut().println(SessionTypes.print(SessionTypes.dual(type))),
                set -> spec.commandLine().getOut().println(SessionSets.print(SessionSets.dual(set))));
    }

    @Command(mixinStandardHelpOptions = true, description = "Print the protocol's state machine in Graphviz DOT (pipe it to `dot -Tsvg`).")
    int fsm(@CommandLine.Mixin Input input) {
        return input.withType(spec, type -> spec.commandLine().getOut().print(SessionTypes.toDot(type)), set -> {
            throw new ProtocolException(ProtocolProblem.Kind.SYNTAX, "fsm draws one session type, and a session set"
                    + " has one state machine per member: draw each member on its own", "one session type",
                    "a session set of " + set.size() + " members");
        });
    }

    /** The protocol argument and the definitions of the protocols it refers to. */
    static final class Input {
        @Parameters(index = "0", paramLabel = "PROTOCOL",
                description = "The protocol text, or @FILE to read the whole file (a protocol that starts with @( is"
                        + " text, not a file).")
        String protocol;

        @Option(names = {"-D", "--define"}, paramLabel = "NAME=PROTOCOL",
                description = "Defines a protocol that @(NAME) and ^(NAME) refer to; PROTOCOL may be @FILE. Repeatable.")
        List<String> definitions = new ArrayList<>();

        @Option(names = "--expand",
                description = "Inline every @(NAME) and ^(NAME) before printing.")
        boolean expand;

        /** Reads, parses and checks the input, then hands the type to {@code action}; returns the exit status. */
        int withType(CommandLine.Model.CommandSpec spec, java.util.function.Consumer<SessionType> action,
                java.util.function.Consumer<SessionSet> setAction) {
            PrintWriter err = spec.commandLine().getErr();
            String source = "PROTOCOL";
            try {
                Map<String, SessionType> defined = new LinkedHashMap<>();
                for (String definition : definitions) {
                    int eq = definition.indexOf('=');
                    if (eq <= 0) {
                        throw new CommandLine.ParameterException(spec.commandLine(),
                                "expected NAME=PROTOCOL after --define but found '" + definition + "'");
                    }
                    source = "definition of " + definition.substring(0, eq).strip();
                    String text = read(definition.substring(eq + 1));
                    if (SessionSets.isSet(text)) {
                        throw new ProtocolException(ProtocolProblem.Kind.SYNTAX, "a session set is a whole protocol:"
                                + " @(NAME) and ^(NAME) stand for a sequence of actions, so a set cannot be defined"
                                + " for them", "a session type (a sequence)", "a session set");
                    }
                    defined.put(definition.substring(0, eq).strip(), SessionTypes.parse(text));
                }
                source = "PROTOCOL";
                String text = read(protocol);
                ProtocolResolver resolver = name -> Optional.ofNullable(defined.get(name));
                if (SessionSets.isSet(text)) {
                    ParsedSet parsed = SessionSets.parseWithPositions(text);
                    ParsedSet expanded = parsed.expand(resolver);
                    expanded.checkWellFormed();
                    setAction.accept(expand ? expanded.set() : parsed.set());
                    return 0;
                }
                SessionType type = SessionTypes.parse(text);
                SessionType expanded = SessionTypes.expand(type, resolver);
                SessionTypes.checkWellFormed(expanded);
                action.accept(expand ? expanded : type);
                return 0;
            } catch (ProtocolException e) {
                err.println("error in " + source + ": " + e.getMessage());
                return 1;
            } catch (IOException e) {
                err.println("error: cannot read " + e.getMessage());
                return 1;
            }
        }

        /**
         * {@code @FILE} read whole (spaces, newlines and all; picocli's own @-file expansion, which splits
         * a file into arguments, is off), anything else the protocol itself; {@code @(P)} starts a protocol.
         */
        private static String read(String textOrFile) throws IOException {
            if (textOrFile.startsWith("@") && !textOrFile.startsWith("@(")) {
                try {
                    return Files.readString(Path.of(textOrFile.substring(1)), StandardCharsets.UTF_8);
                } catch (java.nio.file.NoSuchFileException e) {
                    throw new IOException(textOrFile.substring(1) + " (no such file)", e);
                }
            }
            return textOrFile;
        }
    }
}
