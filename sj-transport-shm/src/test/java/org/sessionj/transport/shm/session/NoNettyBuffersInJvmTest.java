package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;

/**
 * The first in-JVM session of a fresh JVM loads no Netty buffer class (issue 15, cold start): the
 * in-JVM transport's frames are SJ's own heap frames, so none of Netty's buffer initialisers
 * ({@code PlatformDependent}, the leak detector, Netty's logging) runs. A fresh JVM runs one session and
 * logs every class it loads ({@code -Xlog:class+load}); class loading on one code path is
 * deterministic, so this fails as soon as any code on the path names a Netty buffer again.
 */
class NoNettyBuffersInJvmTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aFirstInJvmSessionLoadsNoNettyBufferClass() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "-Xlog:class+load=info:stdout", "-Dsessionj.missingDescriptor=ignore",
                "-cp", System.getProperty("java.class.path"), FirstSession.class.getName())
                .redirectErrorStream(true).start();
        List<String> netty = new ArrayList<>();
        boolean done = false;
        boolean heapFrames = false;
        StringBuilder tail = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals(FirstSession.DONE)) {
                    done = true;
                } else if (!done && line.contains(" org.sessionj.runtime.spi.support.HeapFrame ")) {
                    heapFrames = true;
                } else if (!done && line.contains(" io.netty.")) {
                    netty.add(line.substring(line.indexOf(" io.netty.") + 1).split(" ")[0]);
                } else if (!line.contains("[class,load]")) {
                    tail.append(line).append(File.separatorChar == '/' ? "\n" : "\r\n");
                }
            }
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(done).as("the child's session ended; its other output:%n%s", tail).isTrue();
        assertThat(child.exitValue()).isZero();
        assertThat(heapFrames).as("the class-load log names the in-JVM frames (the log is read; the path is the in-JVM one)")
                .isTrue();
        assertThat(netty).as("Netty classes loaded by the first in-JVM session")
                .noneMatch(name -> name.startsWith("io.netty.buffer.") || name.startsWith("io.netty.util.internal.")
                        || name.startsWith("io.netty.util.Recycler") || name.startsWith("io.netty.util.ResourceLeak"));
    }

    /** The child: one in-JVM session, {@code cbegin.!<int>.?(int)}, then {@link #DONE}. */
    static final class FirstSession {
        static final String DONE = "#first-session-done";

        private FirstSession() {
        }

        public static void main(String[] args) throws Exception {
            SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
            try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
                Thread accepter = Thread.ofPlatform().start(() -> {
                    try (SJSocket s = server.accept()) {
                        s.send(s.receiveInt() + 1);
                    }
                });
                try (SJSocket s = runtime.service(IntClient.class, "localhost", server.port()).request()) {
                    s.send(1);
                    if (s.receiveInt() != 2) {
                        throw new IllegalStateException("wrong answer");
                    }
                }
                accepter.join();
            }
            System.out.println(DONE);
            System.out.flush();
        }
    }
}
