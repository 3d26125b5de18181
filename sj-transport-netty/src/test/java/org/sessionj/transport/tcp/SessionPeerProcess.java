package org.sessionj.transport.tcp;

import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The session peer in a second JVM, on the {@code tcp} transport only.
 * {@code serve N}: prints the session port, then serves N ping sessions (answering each int with its
 * double), saying "incompatible" for a refused request. {@code request PORT ROUNDS}: runs one ping
 * session against {@code localhost:PORT} and exits 0 if every answer was right.
 */
public final class SessionPeerProcess {
    private SessionPeerProcess() {
    }

    public static void main(String[] args) {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
        if (args[0].equals("serve")) {
            int sessions = Integer.parseInt(args[1]);
            SJServerSocket server = runtime.serverSocket(SessionProtocols.PingServer.class, 0);
            System.out.println("port " + server.port());
            System.out.flush();
            for (int i = 0; i < sessions; i++) {
                // accept() returns only compatible sessions; refused requests show in the count.
                try (SJSocket s = server.accept()) {
                    int count = 0;
                    while (s.inwhile()) {
                        s.send(s.receiveInt() * 2);
                        count++;
                    }
                    s.send("served " + count + " in pid " + ProcessHandle.current().pid());
                }
                System.out.println("refused " + SJRuntime.failedHandshakes(server));
                System.out.flush();
            }
            server.close();
        } else {
            int port = Integer.parseInt(args[1]);
            int rounds = Integer.parseInt(args[2]);
            boolean ok = true;
            try (SJSocket s = runtime.service(SessionProtocols.PingClient.class, "localhost", port).request()) {
                for (int i = 0; i < rounds; i++) {
                    s.outwhile(true);
                    s.send(i);
                    ok &= s.receiveInt() == i + 1;
                }
                s.outwhile(false);
                ok &= s.receive().equals("done");
            }
            System.exit(ok ? 0 : 1);
        }
    }
}
