package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/** Complete SJ sessions over the tcp transport: in one JVM, and with a second JVM in both roles. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpSessionTest {
    private static final SJRuntime TCP = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());

    private static Process peer(String... args) throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String[] command = new String[args.length + 4];
        command[0] = java;
        command[1] = "-cp";
        command[2] = System.getProperty("java.class.path");
        command[3] = SessionPeerProcess.class.getName();
        System.arraycopy(args, 0, command, 4, args.length);
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    @Test
    void aSessionRunsOverTcpInOneJvm() throws Exception {
        SJServerSocket server = TCP.serverSocket(SessionProtocols.PingServer.class, 0);
        try {
            PingRounds.run(TCP, server, 1000);
        } finally {
            server.close();
        }
    }

    @Test
    void sessionsWithAServerInASecondJvmIncludingAnIncompatibleRequest() throws Exception {
        Process peer = peer("serve", "1");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8))) {
            String first = out.readLine();
            assertThat(first).as("the peer's port line").startsWith("port ");
            int port = Integer.parseInt(first.substring("port ".length()));

            assertThatThrownBy(() -> TCP.service(SessionProtocols.TextClient.class, "localhost", port).request())
                    .isInstanceOf(SJIncompatibleSessionException.class)
                    .hasMessageContaining("!<java.lang.String>");

            try (SJSocket s = TCP.service(SessionProtocols.PingClient.class, "localhost", port).request()) {
                for (int i = 0; i < 100; i++) {
                    s.outwhile(true);
                    s.send(i);
                    assertThat(s.receiveInt()).isEqualTo(2 * i);
                }
                s.outwhile(false);
                assertThat((String) s.receive()).isEqualTo("served 100 in pid " + peer.pid());
            }
            assertThat(out.readLine()).as("the server's accept() skipped the incompatible request").isEqualTo("refused 1");
            assertThat(peer.waitFor(30, TimeUnit.SECONDS)).as("the peer finished").isTrue();
            assertThat(peer.exitValue()).isZero();
        } finally {
            peer.destroyForcibly();
        }
    }

    @Test
    void aSessionWithAClientInASecondJvm() throws Exception {
        SJServerSocket server = TCP.serverSocket(SessionProtocols.PingServer.class, 0);
        Process peer = peer("request", Integer.toString(server.port()), "100");
        try (SJSocket s = server.accept(java.time.Duration.ofSeconds(30))) {
            int count = 0;
            while (s.inwhile()) {
                s.send(s.receiveInt() + 1);
                count++;
            }
            s.send("done");
            assertThat(count).isEqualTo(100);
            assertThat(peer.waitFor(30, TimeUnit.SECONDS)).as("the peer finished").isTrue();
            assertThat(peer.exitValue()).as("the peer saw every answer right").isZero();
        } finally {
            server.close();
            peer.destroyForcibly();
        }
    }
}
