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
    private static final String STATIC_HEAD = """
            import org.sessionj.api.*;
            class Client {
              @Protocol("cbegin.!<int>.?(String)") interface P {}
            """;

    /** adv14 A2: a static final field assigned once in a static initializer is typed as one initialised in place. */
    @Test
    void aStaticFinalFieldSetInAStaticInitializerHasItsProtocol() {
        assertAccepted(STATIC_HEAD + """
                  static final SJService SVC;
                  static {
                    SVC = SJService.create(P.class, System.getProperty("host", "localhost"), 4000);
                  }
                  static String run() {
                    try (SJSocket s = SVC.request()) {
                      s.send(1);
                      return s.receive();
                    }
                  }
                }
                """);
        assertRejected("SJ013", 10, msg("'s'", "!<int>"), STATIC_HEAD + """
                  static final SJService SVC;
                  static {
                    SVC = SJService.create(P.class, "localhost", 4000);
                  }
                  static String run() {
                    try (SJSocket s = SVC.request()) {
                      s.send("one");
                      return s.receive();
                    }
                  }
                }
                """);
    }

    /** adv14 A2: SJ010 on a field says which forms of a field are typed, not "create it with create(P.class, …)". */
    @Test
    void aFieldThatIsNotFinalSaysWhyItIsUntyped() {
        assertRejected("SJ010", 6, msg("field 'SVC' is not final, so it may hold any service when this runs",
                "a service field is typed when it is final and assigned SJService.create(P.class, …) in its declaration"),
                STATIC_HEAD + """
                  static SJService SVC = SJService.create(P.class, "localhost", 4000);
                  static String run() {
                    try (SJSocket s = SVC.request()) {
                      s.send(1);
                      return s.receive();
                    }
                  }
                }
                """);
    }
}
