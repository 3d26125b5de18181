package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import com.google.testing.compile.Compilation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Maven always gives javac a {@code -sourcepath}; protocols whose message types need resolving must
 * still compile when several are declared in one file that is not named after them (the harness
 * compiles every test that way; these cases pin the shapes that used to fail with "duplicate class").
 */
class SourcePathTest {
    private static final String PROTOCOLS = """
            // file: Protocols.java
            package demo;
            import org.sessionj.api.Protocol;
            record Point(int x, int y) {}
            @Protocol("cbegin.!<Point>.?(String)") interface Echo {}
            @Protocol("sbegin.?(Point).!<String>") interface EchoServer {}
            """;

    private static final String CLIENT = """
            package demo;
            import org.sessionj.api.*;
            class Client {
                void run() {
                    try (SJSocket s = SJService.create(Echo.class, "h", 1).request()) {
                        s.send(new Point(1, 2));
                        String reply = s.receive();
                    }
                }
            }
            """;

    @Test
    void severalProtocolsInOneFileResolveTheirMessageTypes() {
        assertAccepted(PROTOCOLS, CLIENT);
    }

    @Test
    void protocolsInAnotherPackageImportedOnDemandResolve() {
        assertAccepted("""
                package shapes;
                public record Square(int side) { public record Corner(int x) {} }
                class Circle {}
                """, """
                // file: Protocols.java
                package app;
                import org.sessionj.api.Protocol;
                import shapes.*;
                record Unused() {}
                @Protocol("cbegin.!<Square>.!<Square.Corner>") interface Draw {}
                @Protocol("sbegin.?(Square).?(Square.Corner)") interface Canvas {}
                """);
    }

    @Test
    void anUnknownTypeIsStillReportedAsSuchUnderASourcePath() {
        assertRejected("SJ002", 5, msg("unknown Java type 'Poin'"), """
                // file: Protocols.java
                package demo;
                import org.sessionj.api.Protocol;
                record Point(int x, int y) {}
                @Protocol("cbegin.!<Poin>") interface Echo {}
                @Protocol("sbegin.?(Point)") interface EchoServer {}
                """);
    }

    @Test
    void theNameOfAFileThatDeclaresNoSuchTypeIsAnUnknownType() {
        assertRejected("SJ002", 4, msg("unknown Java type 'Protocols'"), """
                // file: Protocols.java
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<Protocols>") interface Echo {}
                interface Other {}
                """);
    }

    @Test
    void sessionParameterTypesResolveMessageTypesOfAFileWithSeveralTypes() {
        assertAccepted(PROTOCOLS, """
                // file: Handlers.java
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(EchoServer.class, 0); SJSocket s = ss.accept()) {
                            serve(s);
                        }
                    }

                    void serve(@Session("?(Point).!<String>") SJSocket s) {
                        Point p = s.receive();
                        s.send("at " + p.x());
                    }
                }
                """);
    }

    @Test
    void extraOptionsAreGivenToJavac() {
        Compilation compilation = CompilerHarness.compileWith(List.of("-Xlint:all"), PROTOCOLS, CLIENT);
        assertThat(compilation.errors()).isEmpty();
    }
}
