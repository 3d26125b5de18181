package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * adv11 A11: a lambda, method reference or constructor reference that declares a {@code @Session}
 * type for a parameter claims what its callers pass there. Its callers call the functional method, so
 * that method must promise the same type — as for an override (SJ036). {@code Consumer<SJService>}
 * promises nothing: any service got in, and a session was run against the wrong protocol.
 */
class LambdaEndpointProtocolTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            import java.util.function.*;
            class A {
              @Protocol("cbegin.!<int>") interface C1 {}
              @Protocol("sbegin.?(int)") interface S1 {}
              interface Clients { void on(@Session(protocol = C1.class) SJService svc); }
              static void use(@Session(protocol = C1.class) SJService s) { SJSocket x = s.request(); x.send(1); x.close(); }
              static void serve(@Session(protocol = S1.class) SJServerSocket ss) { SJSocket x = ss.accept(); x.receiveInt(); x.close(); }
              static final class K { K(@Session(protocol = C1.class) SJService s) { use(s); } }
              void run() {
            """;

    @ParameterizedTest
    @ValueSource(strings = {
        "Consumer<SJService> c = (@Session(protocol = C1.class) SJService s) -> use(s);",
        "BiConsumer<Integer, SJService> c = (Integer n, @Session(protocol = C1.class) SJService s) -> use(s);",
        "Consumer<SJServerSocket> c = (@Session(protocol = S1.class) SJServerSocket ss) -> serve(ss);",
    })
    void aLambdaClaimingAProtocolTheInterfaceDoesNotPromiseIsRejected(String statement) {
        assertRejected("SJ036", 11, msg("of 'the lambda' is @Session(", "declares it without a @Session type"),
                HEAD + statement + "\n}\n}\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Consumer<SJService> c = A::use;",
        "Function<SJService, K> c = K::new;",
        "Consumer<SJServerSocket> c = A::serve;",
        "java.util.Optional.<SJService>empty().ifPresent(A::use);",
    })
    void aReferenceToAMethodClaimingAProtocolIsRejected(String statement) {
        assertRejected("SJ036", 11, msg("is @Session(", "declares it without a @Session type"),
                HEAD + statement + "\n}\n}\n");
    }

    /** The socket form: a lambda's own {@code @Session} type is not what Consumer's callers promise either. */
    @Test
    void aLambdaClaimingASessionTypeForASocketTheInterfaceDoesNotTypeIsRejected() {
        assertRejected("SJ036", 11, msg("parameter 't' of 'the lambda' is @Session(\"!<int>\")",
                "declares it without a @Session type"),
                HEAD + "Consumer<SJSocket> c = (@Session(\"!<int>\") SJSocket t) -> t.send(1);\n}\n}\n");
    }

    @Test
    void aProtocolOtherThanTheInterfacesIsRejected() {
        assertRejected("SJ036", 11, msg("is @Session(\"sbegin.?(int)\")", "declares it @Session(\"cbegin.!<int>\")"),
                HEAD + "Clients c = (@Session(protocol = S1.class) SJService s) -> { };\n}\n}\n");
    }

    /** The interface promises the protocol: the same claim, no claim (it is inherited), and a reference. */
    @ParameterizedTest
    @ValueSource(strings = {
        "Clients c = (@Session(protocol = C1.class) SJService s) -> use(s);",
        "Clients c = s -> use(s);",
        "Clients c = A::use;",
        "Clients c = K::new;",
        "Consumer<SJService> c = s -> { };",
        "Consumer<SJService> c = (SJService s) -> System.out.println(s);",
    })
    void claimsTheInterfacePromisesAreAccepted(String statement) {
        assertAccepted(HEAD + statement + "\n}\n}\n");
    }

    /** A session thread's body is the API's callback, checked against the spawned sessions (SJ051). */
    @Test
    void aSessionThreadBodyKeepsItsOwnType() {
        assertAccepted(HEAD + """
                SJService svc = SJService.create(C1.class, "h", 1);
                SJSocket s = svc.request();
                SJ.spawn(s, (@Session("!<int>") SJSocket t) -> t.send(1));
                }
                }
                """);
    }
}
