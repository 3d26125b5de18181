package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * The value of an assignment to a socket variable is the socket (adv11 A12): used as a value it is a
 * second name for the session, except in a null test.
 */
class AssignmentValueTest {
    static final String PROTOCOLS = SessionFailureTest.PROTOCOLS;

    /** The body starts on line 7. */
    private static String client(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    String run(@Session(protocol = P.C.class) SJService svc) {
                        String result = null;
                        SJSocket s, t;
                %s
                        return result;
                    }
                }
                """.formatted(body);
    }

    @Test
    void aChainedAssignmentNamesTheSessionTwice() {
        assertRejected("SJ030", 7, msg("session 's' is copied into variable 't'"), PROTOCOLS, client("""
                        t = s = svc.request();
                        s.send(1);
                        result = t.receive();
                        s.close();
                """));
    }

    @Test
    void aDeclarationFromAnAssignment() {
        assertRejected("SJ030", 7, msg("session 's' is copied into variable 'u'"), PROTOCOLS, client("""
                        SJSocket u = (s = svc.request());
                        s.send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    @Test
    void anActionOnTheAssignmentsValue() {
        assertRejected("SJ031", 7, msg("session 's' escapes as the value of its assignment"), PROTOCOLS, client("""
                        (s = svc.request()).send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    @Test
    void aNullTestOfTheAssignment() {
        assertAccepted(PROTOCOLS, client("""
                        if ((s = svc.request()) != null) {
                            s.send(1);
                            result = s.receive();
                            s.close();
                        }
                """));
    }
}
