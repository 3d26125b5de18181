package com.example.kv;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sessionj.api.SJException;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;

/**
 * The key-value store's client: one session that runs a list of commands.
 *
 * <p>Run it with {@code java com.example.kv.KvClient HOST PORT COMMAND...}, each command
 * {@code put KEY VALUE} or {@code get KEY}, e.g. {@code localhost 7000 put lang Java get lang}.
 */
public final class KvClient {

    /** What the user asked for. */
    public sealed interface Command permits Put, Get {
    }

    /** Store {@code entry}. */
    public record Put(Entry entry) implements Command {
    }

    /** Look {@code key} up. */
    public record Get(String key) implements Command {
    }

    private KvClient() {
    }

    /** Runs the commands of {@code args} against the server they name. */
    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: KvClient HOST PORT [put KEY VALUE | get KEY]...");
            System.exit(2);
        }
        PrintWriter out = new PrintWriter(System.out, true);
        try {
            run(args[0], Integer.parseInt(args[1]), parse(List.of(args).subList(2, args.length)), out);
        } catch (SJException | IllegalArgumentException e) {
            System.err.println("kv client: " + e.getMessage()); // a user needs the reason, not a stack trace
            System.exit(1);
        }
    }

    /** The commands written in {@code words}: {@code put KEY VALUE} and {@code get KEY}, in order. */
    public static List<Command> parse(List<String> words) {
        List<Command> commands = new ArrayList<>();
        for (int i = 0; i < words.size(); ) {
            String verb = words.get(i);
            if (verb.equals("put") && i + 2 < words.size()) {
                commands.add(new Put(new Entry(words.get(i + 1), words.get(i + 2))));
                i += 3;
            } else if (verb.equals("get") && i + 1 < words.size()) {
                commands.add(new Get(words.get(i + 1)));
                i += 2;
            } else {
                throw new IllegalArgumentException("expected 'put KEY VALUE' or 'get KEY' but found '"
                        + String.join(" ", words.subList(i, words.size())) + "'");
            }
        }
        return commands;
    }

    /** Opens one session to {@code host:port}, runs {@code commands} in it, and prints each answer. */
    public static void run(String host, int port, List<Command> commands, PrintWriter out) {
        try (SJSocket s = SJService.create(KvClientSide.class, host, port).request()) { // cbegin
            int next = 0;
            SESSION:                                                   // rec SESSION[ … ]
            while (true) {
                if (next == commands.size()) {
                    s.outbranch("QUIT");                               // !{… QUIT: }
                    break SESSION;
                }
                switch (commands.get(next++)) {
                    case Put put -> {
                        s.outbranch("PUT");                            // !{PUT: @(PutEntry).#SESSION, …}
                        boolean replaced = put(s, put.entry());
                        out.println(put.entry().key() + (replaced ? " replaced" : " stored"));
                        continue SESSION;                              // #SESSION
                    }
                    case Get get -> {
                        s.outbranch("GET");
                        Optional<String> value = get(s, get.key());
                        out.println(get.key() + (value.isPresent() ? " = " + value.get() : ": missing"));
                        continue SESSION;
                    }
                }
            }
        }
    }

    /** One PUT: the socket is lent to this method for exactly the PutEntry part of the session. */
    static boolean put(@Session(protocol = PutEntry.class) SJSocket s, Entry entry) {
        s.send(entry);
        return s.receiveBoolean();
    }

    /** One GET. */
    static Optional<String> get(@Session(protocol = GetEntry.class) SJSocket s, String key) {
        s.send(key);
        String value = null;
        switch (s.inbranch()) {
            case "FOUND" -> value = s.receive();
            case "MISSING" -> {
            }
        }
        return Optional.ofNullable(value);
    }
}
