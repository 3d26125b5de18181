package org.sessionj.faults;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.spi.support.ListenerPreload;

/**
 * The server of {@link DescriptorExhaustionFaultTest}, in a JVM started with a small descriptor limit:
 * serves {@code Ping} sessions over tcp; after the first one (every class a session needs is loaded)
 * and the runtime's preload, opens {@code /dev/null} until no descriptor is left ({@code EXHAUSTED}),
 * waits until an accept failed for want of one and the JDK's console handler has written that line
 * ({@code LOGGED}, or {@code NOT-LOGGED} after a minute: the line could not be written), then closes
 * them all ({@code RELEASED}) and serves on.
 */
public final class DescriptorExhaustionPeer {
    private DescriptorExhaustionPeer() {
    }

    public static void main(String[] args) throws Exception {
        CountDownLatch acceptFailureLogged = new CountDownLatch(1);
        // After the console handler that the JDK's configuration puts on the root logger: reached only if
        // that handler could format and write the line.
        Logger.getLogger("").addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                for (Throwable t = record.getThrown(); t != null; t = t.getCause()) {
                    if (String.valueOf(t.getMessage()).contains("Too many open files")) {
                        acceptFailureLogged.countDown();
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        SJRuntime runtime = FaultSupport.runtime("tcp");
        SJServerSocket server = runtime.serverSocket(FaultProtocols.PingServer.class, 0);
        CountDownLatch served = new CountDownLatch(1);
        Thread.ofPlatform().daemon().name("serving").start(() -> {
            for (int i = 1; ; i++) {
                try (SJSocket s = server.accept()) {
                    s.send(s.receiveInt() + 1);
                    System.out.println("SERVED " + i);
                } catch (RuntimeException e) {
                    System.out.println("FAILED " + e);
                }
                System.out.flush();
                served.countDown();
            }
        });
        System.out.println("PORT " + server.port());
        System.out.flush();
        served.await();
        System.out.println(ListenerPreload.awaitLoaded(120, TimeUnit.SECONDS) ? "PRELOADED" : "NOT-PRELOADED");
        List<FileInputStream> hoard = new ArrayList<>();
        try {
            while (true) {
                hoard.add(new FileInputStream("/dev/null"));
            }
        } catch (IOException e) {
            System.out.println("EXHAUSTED " + hoard.size() + " " + e.getMessage());
            System.out.flush();
        }
        boolean logged = acceptFailureLogged.await(60, TimeUnit.SECONDS);
        for (FileInputStream in : hoard) {
            in.close();
        }
        System.out.println(logged ? "LOGGED" : "NOT-LOGGED");
        System.out.println("RELEASED");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // serving until the test kills this JVM
    }
}
