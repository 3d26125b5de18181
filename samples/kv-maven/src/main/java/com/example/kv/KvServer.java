package com.example.kv;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;

/**
 * The key-value store's server: one session per client, any number of clients at once. Every client
 * sees the same store.
 *
 * <p>Run it with {@code java com.example.kv.KvServer [port]} (port 0: any free one).
 */
public final class KvServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(KvServer.class.getName());

    private final Map<String, String> store = new ConcurrentHashMap<>();
    private final SJServerSocket listening;
    private volatile boolean closed;

    private KvServer(int port) {
        this.listening = SJServerSocket.create(KvServerSide.class, port);
    }

    /** Opens session port {@code port} (0: a free one) and starts serving clients. */
    public static KvServer start(int port) {
        KvServer server = new KvServer(port);
        server.acceptNextOn(server.listening);
        return server;
    }

    /** Starts the server and serves until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 7000;
        try (KvServer server = start(port)) {
            System.out.println("kv server: listening on session port " + server.port() + " (Ctrl-C stops it)");
            Thread.currentThread().join(); // the accepting threads do the work
        }
    }

    /** The session port clients connect to. */
    public int port() {
        return listening.port();
    }

    // A correct concurrent accept loop: each thread accepts one client, hands the accepting over to a
    // new thread, then serves its client. A slow client never delays the next one's accept, and the
    // server socket, not a session, is what crosses to the new thread (@Session says its protocol).
    private void acceptNextOn(@Session(protocol = KvServerSide.class) SJServerSocket server) {
        Thread.ofVirtual().name("kv-accept").start(() -> serveOne(server));
    }

    private void serveOne(@Session(protocol = KvServerSide.class) SJServerSocket server) {
        try (SJSocket s = server.accept()) {          // sbegin: a client's session starts
            acceptNextOn(server);
            SESSION:                                   // rec SESSION[ … ]: a labelled loop
            while (true) {
                switch (s.inbranch()) {                // ?{PUT: …, GET: …, QUIT: }
                    case "PUT" -> {
                        put(s);
                        continue SESSION;              // #SESSION
                    }
                    case "GET" -> {
                        get(s);
                        continue SESSION;
                    }
                    case "QUIT" -> {
                        break SESSION;                 // the session ends here
                    }
                }
            }
        } catch (SJException e) {
            // A client that vanished or broke the protocol ends only its own session.
            if (!closed) {
                LOG.log(System.Logger.Level.INFO, "a client''s session failed: {0}", e.getMessage());
            }
        }
    }

    /** One PUT from the server's side: the dual of PutEntry, written out. */
    private void put(@Session("?(Entry).!<boolean>") SJSocket s) {
        Entry entry = s.receive();
        s.send(store.put(entry.key(), entry.value()) != null);
    }

    /** One GET from the server's side. */
    private void get(@Session("?(String).!{FOUND: !<String>, MISSING: }") SJSocket s) {
        String key = s.receive();
        String value = store.get(key);
        if (value != null) {
            s.outbranch("FOUND");
            s.send(value);
        } else {
            s.outbranch("MISSING");
        }
    }

    @Override
    public void close() {
        closed = true;
        listening.close();
    }
}
