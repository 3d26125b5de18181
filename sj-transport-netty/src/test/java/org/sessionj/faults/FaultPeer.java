package org.sessionj.faults;

import java.time.Duration;
import java.util.Properties;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The peer JVM of the fault tests: a server on the given transports that prints {@code PORT <n>},
 * then per scenario: {@code waiting} (one round trip, prints {@code READY}, then blocks forever inside
 * the session: the test kills or stops it), {@code flooding} (accepts, prints {@code READY}, never
 * reads), {@code ping <n>} (serves n sessions one after another, then prints {@code SERVED <n>}),
 * {@code serve} (serves ping sessions until killed, printing {@code SERVED <k>} after each). As a
 * requester, {@code client <port> <n> <mode>} makes n ping sessions to that port, prints {@code FILES <k>}
 * (its ipc memory files in the directory then), and then per mode: {@code exit} (exits normally),
 * {@code hold} (prints {@code HOLDING} and blocks: the test kills it), {@code loop} (one more session every
 * 200 ms until its standard input ends, then exits normally).
 * Configuration comes from the sessionj.* system properties (so the test can set timeouts).
 */
public final class FaultPeer {
    private FaultPeer() {
    }

    public static void main(String[] args) throws Exception {
        String transports = args[0];
        String scenario = args[1];
        Properties properties = new Properties();
        properties.putAll(System.getProperties());
        properties.setProperty("sessionj.transports", transports);
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.fromProperties(properties));
        if (scenario.equals("client")) {
            client(runtime, Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4]);
            return;
        }
        Class<?> protocol = switch (scenario) {
            case "waiting" -> FaultProtocols.WaitingServer.class;
            case "flooding" -> FaultProtocols.FloodingServer.class;
            default -> FaultProtocols.PingServer.class;
        };
        try (SJServerSocket server = runtime.serverSocket(protocol, 0)) {
            System.out.println("PORT " + server.port());
            System.out.flush();
            switch (scenario) {
                case "waiting" -> {
                    SJSocket s = server.accept(Duration.ofSeconds(120));
                    s.send(1);
                    s.receiveInt();
                    System.out.println("READY " + SJRuntime.transportOf(s));
                    System.out.flush();
                    Thread.sleep(Long.MAX_VALUE);
                }
                case "flooding" -> {
                    SJSocket s = server.accept(Duration.ofSeconds(120));
                    System.out.println("READY " + SJRuntime.transportOf(s));
                    System.out.flush();
                    Thread.sleep(Long.MAX_VALUE);
                }
                case "ping" -> {
                    int sessions = Integer.parseInt(args[2]);
                    for (int i = 0; i < sessions; i++) {
                        ping(server);
                    }
                    System.out.println("SERVED " + sessions);
                }
                case "serve" -> {
                    for (int i = 1; ; i++) {
                        try {
                            ping(server);
                            System.out.println("SERVED " + i);
                            System.out.flush();
                        } catch (RuntimeException e) {
                            System.out.println("FAILED " + e);
                            System.out.flush();
                        }
                    }
                }
                default -> throw new IllegalArgumentException(scenario);
            }
        }
        System.out.flush();
    }

    private static void client(SJRuntime runtime, int port, int sessions, String mode) throws Exception {
        org.sessionj.api.SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", port);
        for (int i = 0; i < sessions; i++) {
            request(service, i);
        }
        System.out.println("FILES " + FaultSupport.ringFilesOf(ProcessHandle.current().pid()).size());
        System.out.flush();
        switch (mode) {
            case "exit" -> {
            }
            case "hold" -> {
                System.out.println("HOLDING");
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
            case "loop" -> {
                Thread stdin = Thread.ofVirtual().start(() -> {
                    try {
                        System.in.readAllBytes();
                    } catch (java.io.IOException e) {
                        // ended either way
                    }
                });
                for (int i = 0; stdin.isAlive(); i++) {
                    request(service, i);
                    stdin.join(200);
                }
            }
            default -> throw new IllegalArgumentException(mode);
        }
        System.out.println("EXITING");
        System.out.flush();
    }

    private static void request(org.sessionj.api.SJService service, int i) {
        try (SJSocket s = service.request()) {
            s.send(i);
            if (s.receiveInt() != i + 1) {
                throw new IllegalStateException("wrong answer");
            }
        }
    }

    private static void ping(SJServerSocket server) {
        try (SJSocket s = server.accept(Duration.ofSeconds(60))) {
            s.send(s.receiveInt() + 1);
        }
    }
}
