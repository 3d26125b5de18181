package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertAcceptedInEveryOrder;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A blank {@code final} service or server-socket field has the protocol its constructors give it:
 * every constructor that assigns it stores a {@code @Session(protocol = P.class)} parameter (or a
 * {@code create(P.class, …)}) of one protocol. Constructors that disagree leave it unknown.
 */
class ConstructorStoredServiceTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class Client {
              @Protocol("cbegin.!<int>.?(String)") interface P {}
              @Protocol("cbegin.!<String>") interface Q {}
              private final SJService service;
            """;

    @Test
    void aFieldStoredFromATypedConstructorParameterHasItsProtocol() {
        assertAccepted(HEAD + """
                  Client(@Session(protocol = P.class) SJService service) { this.service = service; }
                  String run() {
                    try (SJSocket s = service.request()) {
                      s.send(1);
                      return s.receive();
                    }
                  }
                }
                """);
    }

    @Test
    void theProtocolIsEnforcedOnTheSessionsOfTheField() {
        assertRejected("SJ013", 9, msg("'s'"), HEAD + """
                  Client(@Session(protocol = P.class) SJService service) { this.service = service; }
                  String run() {
                    try (SJSocket s = service.request()) {
                      s.send("one");
                      return s.receive();
                    }
                  }
                }
                """);
    }

    @Test
    void constructorsThatAgreeIncludingACreateCallGiveTheProtocol() {
        assertAccepted(HEAD + """
                  Client(@Session(protocol = P.class) SJService given) { service = given; }
                  Client() { this.service = SJService.create(P.class, "h", 1); }
                  Client(int port) { this(SJService.create(P.class, "h", port)); }
                  String run() {
                    try (SJSocket s = service.request()) {
                      s.send(1);
                      return s.receive();
                    }
                  }
                }
                """);
    }

    @Test
    void constructorsThatDisagreeLeaveTheProtocolUnknown() {
        assertRejected("SJ010", 9, msg("service"), HEAD + """
                  Client(@Session(protocol = P.class) SJService given) { service = given; }
                  Client() { this.service = SJService.create(Q.class, "h", 1); }
                  String run() {
                    try (SJSocket s = service.request()) {
                      s.send(1);
                      return s.receive();
                    }
                  }
                }
                """);
    }

    @Test
    void anUntypedConstructorParameterLeavesTheProtocolUnknown() {
        assertRejected("SJ010", 8, msg("service"), HEAD + """
                  Client(SJService service) { this.service = service; }
                  String run() {
                    try (SJSocket s = service.request()) {
                      s.send(1);
                      return s.receive();
                    }
                  }
                }
                """);
    }

    @Test
    void anotherClassReadsTheFieldsProtocolWhicheverFileJavacCompilesFirst() {
        assertAcceptedInEveryOrder("""
                import org.sessionj.api.*;
                class Holder {
                  @Protocol("cbegin.!<int>") interface P {}
                  final SJService service;
                  Holder(@Session(protocol = P.class) SJService service) { this.service = service; }
                }
                """, """
                import org.sessionj.api.*;
                class User {
                  void run(Holder holder) {
                    try (SJSocket s = holder.service.request()) {
                      s.send(1);
                    }
                  }
                }
                """);
    }
}
