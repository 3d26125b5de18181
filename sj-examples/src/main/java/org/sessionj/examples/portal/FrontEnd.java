package org.sessionj.examples.portal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.chat.ChatText;

/**
 * The command-line front end (the applet of paper 000 §4.2): it opens a session with the portal,
 * chooses an application and goes on with whoever the portal hands it to, with no change to its code.
 */
public final class FrontEnd {
    private FrontEnd() {
    }

    /**
     * A webmail session driven by {@code commands} ({@code list}, {@code read N},
     * {@code send TO SUBJECT | BODY}, {@code quit}; the session ends with the commands too), writing
     * what it gets to {@code out}.
     */
    public static void webmail(@Session(protocol = AppletToPortal.class) SJService portal, String user,
            Iterator<String> commands, Consumer<String> out) {
        try (SJSocket s = portal.request()) {                               // Request application session.
            s.send(user);
            s.outbranch("WEBMAIL");
            Handover handover = s.receive();
            out.accept(describe(handover));
            s.send(user);
            X:
            while (true) {
                String[] command = next(commands, out, "list", "read", "send", "quit");
                switch (command[0]) {
                    case "list" -> {
                        s.outbranch("LIST");
                        String[] headers = s.receive();
                        if (headers.length == 0) {
                            out.accept("(no mail)");
                        }
                        for (String header : headers) {
                            out.accept(ChatText.clean(header, 300));
                        }
                        continue X;
                    }
                    case "read" -> {
                        s.outbranch("READ");
                        s.send(number(command));
                        Mail mail = s.receive();
                        out.accept("From: " + ChatText.clean(mail.from(), 100) + " | Subject: "
                                + ChatText.clean(mail.subject(), 200) + " | " + ChatText.clean(mail.body(), 10_000));
                        continue X;
                    }
                    case "send" -> {
                        s.outbranch("SEND");
                        s.send(mail(user, command));
                        String answer = s.receive();
                        out.accept(ChatText.clean(answer, 200));
                        continue X;
                    }
                    default -> {
                        s.outbranch("QUIT");
                        break X;
                    }
                }
            }
        }
    }

    /**
     * A calendar session: sends {@code additions} (without waiting for anything) and returns the
     * user's whole agenda as the server sends it back.
     */
    public static List<CalendarEntry> calendar(@Session(protocol = AppletToPortal.class) SJService portal, String user,
            List<CalendarEntry> additions, Consumer<String> out) {
        List<CalendarEntry> agenda = new ArrayList<>();
        try (SJSocket s = portal.request()) {
            s.send(user);
            s.outbranch("CALENDAR");
            Handover handover = s.receive();
            out.accept(describe(handover));
            s.send(user);
            Iterator<CalendarEntry> next = additions.iterator();
            while (s.outwhile(next.hasNext())) {
                s.send(next.next());
            }
            while (s.inwhile()) {
                CalendarEntry entry = s.receive();
                agenda.add(entry);
            }
        }
        return agenda;
    }

    /** The one-line report of a hand-over. */
    static String describe(Handover handover) {
        return "portal: " + (handover.delegated() ? "handed over to " : "relaying to ")
                + ChatText.clean(handover.application(), 40) + " at " + ChatText.clean(handover.server(), 100);
    }

    /** The next valid command (words: the verb, then its arguments), or {@code quit} when there are no more. */
    private static String[] next(Iterator<String> commands, Consumer<String> out, String... verbs) {
        while (commands.hasNext()) {
            String line = commands.next().strip();
            String[] words = line.split("\\s+", 2);
            String verb = words[0].toLowerCase(java.util.Locale.ROOT);
            if (line.isEmpty()) {
                continue;
            }
            if (verb.equals("read") && (words.length < 2 || !words[1].strip().matches("\\d{1,9}"))) {
                out.accept("usage: read N (a message number from list)");
            } else if (verb.equals("send") && (words.length < 2 || !words[1].contains("|"))) {
                out.accept("usage: send TO SUBJECT | BODY");
            } else if (List.of(verbs).contains(verb)) {
                return words.length == 2 ? new String[] {verb, words[1].strip()} : new String[] {verb};
            } else {
                out.accept("commands: " + String.join(", ", verbs));
            }
        }
        return new String[] {"quit"};
    }

    private static int number(String[] command) {
        return Integer.parseInt(command[1]);
    }

    private static Mail mail(String user, String[] command) {
        String[] toAndRest = command[1].split("\\s+", 2);
        String rest = toAndRest.length > 1 ? toAndRest[1] : "";
        int bar = rest.indexOf('|');
        String subject = bar < 0 ? rest : rest.substring(0, bar).strip();
        String body = bar < 0 ? "" : rest.substring(bar + 1).strip();
        return new Mail(user, toAndRest[0], subject, body);
    }
}
