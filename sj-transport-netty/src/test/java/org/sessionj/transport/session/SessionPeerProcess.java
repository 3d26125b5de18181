package org.sessionj.transport.session;

import java.time.Duration;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;

/**
 * The peer in a second JVM, using the public API and the process-wide runtime (the program does not
 * say which transport). Arguments: {@code server <scenario>} (prints {@code PORT <n>}, then serves
 * the sessions of the scenario) or {@code client <scenario> <host> <port>}. Each session prints
 * {@code RESULT ok <transport> [<detail>]} or {@code RESULT failed <exception class> <message>}.
 * Scenarios: {@code everything} (two sessions: SUM, then ECHO), {@code ping}, {@code wrong}
 * (the requester's type is incompatible with the accepter's).
 */
public final class SessionPeerProcess {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private SessionPeerProcess() {
    }

    public static void main(String[] args) {
        String role = args[0];
        String scenario = args[1];
        int sessions = scenario.equals("everything") ? 2 : 1;
        if (role.equals("server")) {
            Class<?> protocol = scenario.equals("everything") ? Protocols.EverythingServer.class : Protocols.PingServer.class;
            try (SJServerSocket server = SJServerSocket.create(protocol, 0)) {
                System.out.println("PORT " + server.port());
                System.out.flush();
                for (int i = 0; i < sessions; i++) {
                    report(() -> {
                        try (SJSocket s = server.accept(PATIENCE)) {
                            String detail = "";
                            if (scenario.equals("everything")) {
                                detail = Scenarios.everythingServer(s);
                            } else {
                                Scenarios.pingServer(s);
                            }
                            return SJRuntime.transportOf(s) + " " + detail;
                        }
                    });
                }
            }
        } else {
            String host = args[2];
            int port = Integer.parseInt(args[3]);
            Class<?> protocol = switch (scenario) {
                case "everything" -> Protocols.EverythingClient.class;
                case "wrong" -> Protocols.WrongClient.class;
                default -> Protocols.PingClient.class;
            };
            SJService service = SJService.create(protocol, host, port);
            for (String label : sessions == 2 ? new String[] {"SUM", "ECHO"} : new String[] {""}) {
                report(() -> {
                    try (SJSocket s = service.request()) {
                        switch (scenario) {
                            case "everything" -> Scenarios.everythingClient(s, label);
                            case "wrong" -> Scenarios.wrongClient(s);
                            default -> Scenarios.pingClient(s);
                        }
                        return SJRuntime.transportOf(s) + " " + label;
                    }
                });
            }
        }
        System.out.flush();
    }

    private interface Session {
        String run();
    }

    private static void report(Session session) {
        try {
            System.out.println("RESULT ok " + session.run().strip());
        } catch (RuntimeException e) {
            System.out.println("RESULT failed " + e.getClass().getName() + " " + e.getMessage());
            e.printStackTrace(System.out);
        }
        System.out.flush();
    }
}
