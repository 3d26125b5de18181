package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12 (adv11 A10, protocol-text minors): identifiers outside the Basic Multilingual Plane are Java
 * identifiers in protocols too; a message type of more than 255 array dimensions is no Java type
 * (SJ001); a service or server socket of a protocol without a begin is SJ019 at the class literal, and
 * a {@code @Session(protocol = P.class)} service or server-socket parameter of one is SJ007.
 */
class ProtocolTextEdgesTest {
    private static final String A = "\uD835\uDD38"; // MATHEMATICAL DOUBLE-STRUCK CAPITAL A, two chars

    @Test
    void labelsRecursionVariablesAndProtocolNamesMayLeaveTheBmp() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Client {
                    @Protocol("!<int>") interface %1$sP {}
                    @Protocol("cbegin.rec %1$sX[!{%1$s: !<int>.#%1$sX, Done: @(%1$sP)}]") interface Loop {}
                    void run() {
                        try (SJSocket s = SJService.create(Loop.class, "h", 1).request()) {
                            s.outbranch("%1$s");
                            s.send(1);
                            s.outbranch("Done");
                            s.send(2);
                        }
                    }
                }
                """.formatted(A));
    }

    /** {@code 𝔹} shares {@code 𝔸}'s high surrogate: a label is its whole code point sequence. */
    @Test
    void aLabelOutsideTheBmpIsMatchedExactly() {
        assertRejected("SJ014", 7, msg("\uD835\uDD39"), """
                package demo;
                import org.sessionj.api.*;
                class Client {
                    @Protocol("cbegin.!{%1$s: !<int>, C: }") interface Pick {}
                    void run() {
                        try (SJSocket s = SJService.create(Pick.class, "h", 1).request()) {
                            s.outbranch("\uD835\uDD39");
                        }
                    }
                }
                """.formatted(A));
    }

    @Test
    void moreArrayDimensionsThanTheJvmAllowsIsNoMessageType() {
        assertRejected("SJ001", 4, msg("an array type has at most 255 dimensions (the JVM's limit)",
                "found 'int' with 256 dimensions"), """
                package demo;
                import org.sessionj.api.*;
                class Deep {
                    @Protocol("cbegin.!<int%s>") interface TooDeep {}
                }
                """.formatted("[]".repeat(256)));
    }

    @Test
    void theJvmsLimitOfDimensionsIsAMessageType() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Deep {
                    @Protocol("cbegin.!<int%s>") interface Deepest {}
                }
                """.formatted("[]".repeat(255)));
    }

    private static final String PARTS = """
            // file: Parts.java
            package demo;
            import org.sessionj.api.*;
            @Protocol("") interface Empty {}
            @Protocol("!<int>.?(String)") interface Part {}
            @Protocol("^(Part)") interface DualPart {}
            @Protocol("cbegin.@(Part)") interface Whole {}
            @Protocol("^(Whole)") interface WholeServer {}
            """;

    @Test
    void aServiceOfTheEmptyProtocol() {
        assertRejected("SJ019", 5, msg("SJService.create(Empty.class, …): protocol Empty has no begin (cbegin or sbegin)",
                "makes no service; give it a protocol that begins with cbegin"), PARTS, """
                package demo;
                import org.sessionj.api.*;
                class Client {
                    void run() {
                        SJService svc = SJService.create(Empty.class, "h", 1);
                    }
                }
                """);
    }

    @Test
    void aServerSocketOfAPartInAFieldInitializer() {
        assertRejected("SJ019", 4, msg("SJServerSocket.create(DualPart.class, …): protocol DualPart has no begin",
                "makes no server socket; give it a protocol that begins with sbegin"), PARTS, """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    static final SJServerSocket SERVER = SJServerSocket.create(DualPart.class, 4000);
                }
                """);
    }

    @Test
    void aServiceParameterOfAPart() {
        assertRejected("SJ007", 4, msg("invalid @Session on parameter 'svc'", "'demo.Part' has no begin (cbegin or sbegin)",
                "not a service"), PARTS, """
                package demo;
                import org.sessionj.api.*;
                class Client {
                    void run(@Session(protocol = Part.class) SJService svc) {
                    }
                }
                """);
    }

    @Test
    void aPartTypesASocketParameterAndAWholeProtocolAService() {
        assertAccepted(PARTS, """
                package demo;
                import org.sessionj.api.*;
                class Client {
                    void part(@Session(protocol = Part.class) SJSocket s) {
                        s.send(1);
                        String reply = s.receive();
                    }
                    void run(@Session(protocol = Whole.class) SJService svc) {
                        try (SJSocket s = svc.request()) {
                            part(s);
                        }
                        SJServerSocket server = SJServerSocket.create(WholeServer.class, 4000);
                    }
                }
                """);
    }
}
