package org.sessionj.transport.http.real;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.session.HttpProtocols.LoopClient;
import org.sessionj.transport.http.session.HttpProtocols.LoopServer;

/**
 * The processes of the firewall test, each in its own network namespace: {@code relay ADDRESS PORT},
 * {@code server PORT} (serves the loop session until killed), {@code client HOST PORT} (runs one
 * session, prints {@code transport=T setupMillis=M}). The same program whatever the network allows:
 * the transports come from the runtime's defaults and {@code -Dsessionj.http.relay}.
 */
public final class FirewallPeers {
    private FirewallPeers() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "relay" -> {
                HttpRelay relay = HttpRelay.start(new InetSocketAddress(args[1], Integer.parseInt(args[2])), null,
                        org.sessionj.transport.http.relay.RelayLimits.defaults());
                System.out.println("relay ready on " + relay.port());
                new CountDownLatch(1).await();
            }
            case "server" -> {
                SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.defaults());
                try (SJServerSocket server = runtime.serverSocket(LoopServer.class, Integer.parseInt(args[1]))) {
                    System.out.println("server ready on " + server.port());
                    while (true) {
                        try (SJSocket s = server.accept()) {
                            while (s.inwhile()) {
                                s.send(s.receiveInt() * 2);
                            }
                            s.inbranch();
                            s.send("echo: " + s.<String>receive());
                            System.out.println("served a session over " + SJRuntime.transportOf(s));
                        } catch (RuntimeException e) {
                            System.out.println("session failed: " + e);
                        }
                    }
                }
            }
            case "client" -> {
                SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().initiationTimeout(Duration.ofSeconds(30))
                        .build());
                long start = System.nanoTime();
                try (SJSocket s = runtime.service(LoopClient.class, args[1], Integer.parseInt(args[2])).request()) {
                    long setup = (System.nanoTime() - start) / 1_000_000;
                    for (int i = 0; i < 10; i++) {
                        s.outwhile(true);
                        s.send(i);
                        if (s.receiveInt() != 2 * i) {
                            throw new IllegalStateException("wrong reply");
                        }
                    }
                    s.outwhile(false);
                    s.outbranch("ECHO");
                    s.send("through");
                    String echo = s.receive();
                    System.out.println("transport=" + SJRuntime.transportOf(s) + " setupMillis=" + setup + " " + echo);
                }
            }
            default -> throw new IllegalArgumentException("relay|server|client");
        }
    }
}
