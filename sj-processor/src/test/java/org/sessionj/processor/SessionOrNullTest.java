package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A socket that holds a live session on some paths and null on others (adv13 A8): where the paths meet it
 * is "the session or null", which only a null test may read — the connect-retry with {@code t = null} and
 * the "maybe connect" form are accepted, and every way of using it without the test, leaving it incomplete
 * or overwriting it is rejected.
 */
class SessionOrNullTest {
    private static final String PROTOCOLS = SessionFailureTest.PROTOCOLS;

    /** The body starts on line 9. */
    private static String client(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    static void risky() throws Exception {
                    }
                    String run(@Session(protocol = P.C.class) SJService svc, boolean stop) throws Exception {
                        String result = null;
                        int tries = 0;
                %s
                        return result;
                    }
                }
                """.formatted(body);
    }

    private static final String COMPLETE = """
                        t.send(1);
                        result = t.receive();
                        t.close();
            """;

    // ---- accepted

    @Test
    void aBoundedRetryWithANullTestInTheLoopCondition() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        for (int i = 0; i < 3 && t == null; i++) {
                            try {
                                t = svc.request();
                            } catch (SJIOException e) {
                                tries++;
                            }
                        }
                        if (t == null) {
                            throw new IllegalStateException("no server after 3 tries");
                        }
                """ + COMPLETE));
    }

    @Test
    void aRetryUntilConnected() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        while (t == null) {
                            try {
                                t = svc.request();
                            } catch (SJIOException e) {
                                tries++;
                            }
                        }
                """ + COMPLETE));
    }

    @Test
    void aDoWhileRetry() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        do {
                            try {
                                t = svc.request();
                            } catch (SJIOException e) {
                                tries++;
                            }
                        } while (t == null && tries < 5);
                        if (t != null) {
                """ + COMPLETE + """
                        }
                """));
    }

    @Test
    void maybeConnectThenTestForNull() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                        if (t != null) {
                """ + COMPLETE + """
                        }
                """));
    }

    @Test
    void anEarlyReturnForNullLeavesTheSession() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        if (!stop) {
                            t = svc.request();
                        }
                        if (t == null || stop) {
                            if (t != null) {
                """ + COMPLETE + """
                            }
                            return "none";
                        }
                """ + COMPLETE));
    }

    @Test
    void aLoopWhileTheSocketIsNotNull() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = svc.request();
                        while (t != null) {
                """ + COMPLETE + """
                            t = null;
                        }
                """));
    }

    @Test
    void aRequestThenCodeThatThrowsThenANullTestAfterTheCatch() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        try {
                            t = svc.request();
                            risky();
                        } catch (Exception e) {
                            tries++;
                        }
                        if (t != null) {
                """ + COMPLETE + """
                        }
                """));
    }

    @Test
    void aConditionalExpressionSeesTheNullTest() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                        int n = t != null ? 1 : 0;
                        if (t != null) {
                            t.send(n);
                            result = t.receive();
                            t.close();
                        }
                """));
    }

    @Test
    void aConditionalThatRequestsOrGivesNull() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = stop ? null : svc.request();
                        if (t != null) {
                """ + COMPLETE + """
                        }
                """));
    }

    // ---- rejected

    @Test
    void aConditionalThatRequestsOrGivesNullNeedsTheTest() {
        assertRejected("SJ025", 10, msg("session 't' is used after it was set to null on line 9"), PROTOCOLS, client("""
                        SJSocket t = stop ? null : svc.request();
                """ + COMPLETE));
    }

    @Test
    void anActionWithoutTheNullTest() {
        assertRejected("SJ025", 13, msg("session 't' is used after it was set to null on line 9 on a path that reaches "
                + "here (on others it holds !<int>.?(java.lang.String)): test it first, if (t != null)"), PROTOCOLS,
                client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                        t.send(1);
                """));
    }

    @Test
    void aSessionLeftIncompleteOnThePathsWhereItIsThere() {
        assertRejected("SJ024", 14, msg("session 't' is not complete at this return: !<int>.?(java.lang.String) "
                + "(on the paths where it holds a session; on others it was set to null on line 9) remains"), PROTOCOLS, client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                """));
    }

    @Test
    void aRetryWithoutTheNullTestOverwritesTheSessionOfAnEarlierRound() {
        assertRejected("SJ033", 12, msg("session 't' is reassigned while its session is not complete",
                "on the paths where it holds a session"), PROTOCOLS, client("""
                        SJSocket t = null;
                        for (int i = 0; i < 3; i++) {
                            try {
                                t = svc.request();
                            } catch (SJIOException e) {
                                tries++;
                            }
                        }
                        if (t != null) {
                """ + COMPLETE + """
                        }
                """));
    }

    @Test
    void anOrThatMayLetNullThrough() {
        assertRejected("SJ025", 14, msg("session 't' is used after it was", "test it first"), PROTOCOLS, client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                        if (t != null || tries == 0) {
                            t.send(1);
                            result = t.receive();
                            t.close();
                        }
                """));
    }

    @Test
    void theNonNullBranchMustStillFollowTheProtocol() {
        assertRejected("SJ013", 17, msg("session 't'", "!<int>", "java.lang.String"), PROTOCOLS, client("""
                        SJSocket t = null;
                        while (t == null) {
                            try {
                                t = svc.request();
                            } catch (SJIOException e) {
                                tries++;
                            }
                        }
                        t.send("one");
                        t.close();
                """));
    }

    @Test
    void aRetryLoopThatLeavesTheSessionIncompleteOnAnotherRound() {
        assertRejected("SJ020", 11, msg("session 't'", "the branches of this if"), PROTOCOLS, client("""
                        SJSocket t = null;
                        while (tries < 3) {
                            if (t == null) {
                                t = svc.request();
                            } else {
                                t.send(1);
                            }
                            tries++;
                        }
                """));
    }
    @Test
    void aCloseWithoutTheNullTest() {
        assertRejected("SJ025", 13, msg("session 't' is used after it was set to null on line 9", "test it first"),
                PROTOCOLS, client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                        t.close();
                """));
    }

    @Test
    void aCloseInAFinallyWithoutTheNullTest() {
        assertRejected("SJ025", 16, msg("session 't' is used after it was set to null on line 9", "test it first"), PROTOCOLS, client("""
                        SJSocket t = null;
                        try {
                            t = svc.request();
                            risky();
                        } catch (Exception e) {
                            tries++;
                        } finally {
                            t.close();
                        }
                """));
    }

    @Test
    void lendingItWithoutTheNullTest() {
        assertRejected("SJ025", 18, msg("session 't' is used after it was set to null on line 14", "test it first"),
                PROTOCOLS, client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                        finish(t);
                """).replace("    static void risky()", """
                    static void finish(@Session("!<int>.?(String)") SJSocket s) throws Exception {
                        s.send(1);
                        s.receive();
                        s.close();
                    }
                    static void risky()"""));
    }

    @Test
    void aDoWhileThatUsesTheSessionOfTheLastRoundLeavesTheLastOneIncomplete() {
        assertRejected("SJ024", 20, msg("session 't' is not complete"), PROTOCOLS, client("""
                        SJSocket t = null;
                        do {
                            if (t != null) {
                                t.send(1);
                                result = t.receive();
                                t.close();
                            }
                            t = svc.request();
                            tries++;
                        } while (tries < 3);
                """));
    }
    @Test
    void theRightOperandOfAndOrOrKnowsWhatTheLeftOneTested() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                        if (t != null && t.protocol() != null) {
                """ + COMPLETE + """
                        } else if (t != null) {
                """ + COMPLETE + """
                        }
                        SJSocket u = stop ? null : svc.request();
                        if (u == null || u.protocol() == null) {
                            if (u != null) {
                                u.send(0);
                                result = u.receive();
                                u.close();
                            }
                            return "none";
                        }
                        u.send(1);
                        result = u.receive();
                        u.close();
                """));
    }

    @Test
    void withoutTheTestOnTheLeftTheRightOperandMayMeetNull() {
        assertRejected("SJ025", 13, msg("session 't' is used after it was set to null on line 9", "test it first"),
                PROTOCOLS, client("""
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                        }
                        if (tries == 0 && t.protocol() != null) {
                            tries++;
                        }
                """));
    }

    /**
     * adv15 A15: the bounded attempts nested in a loop of their own ("try three times, back off, try again").
     * Inside the outer loop's silent pass the inner loop is not widened; its rounds, differing only in
     * nullness, used to fail the socket there, so the outer head was never widened and the program was SJ021.
     */
    @Test
    void aRetryNestedInAnOuterRetryLoop() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        while (t == null) {
                            int i = 0;
                            while (i < 3 && t == null) {
                                try {
                                    t = svc.request();
                                } catch (SJIOException e) {
                                    i++;
                                }
                            }
                            if (t == null) {
                                Thread.sleep(10);
                            }
                        }
                """ + COMPLETE));
        assertAccepted(PROTOCOLS, client("""
                        SJSocket t = null;
                        while (t == null) {
                            for (int i = 0; i < 3; i++) {
                                if (t == null) {
                                    try {
                                        t = svc.request();
                                    } catch (SJIOException e) {
                                        tries++;
                                    }
                                }
                            }
                        }
                """ + COMPLETE));
    }

    @Test
    void aNestedRetryThatOverwritesOrSkipsTheTestIsStillRejected() {
        assertRejected("SJ033", 14, msg("session 't' is reassigned while its session is not complete"), PROTOCOLS, client("""
                        SJSocket t = null;
                        while (t == null) {
                            int i = 0;
                            while (i < 3) {
                                try {
                                    t = svc.request();
                                } catch (SJIOException e) {
                                    i++;
                                }
                            }
                        }
                """ + COMPLETE));
        assertRejected("SJ025", 20, msg("session 't' is used after it was set to null"), PROTOCOLS, client("""
                        SJSocket t = null;
                        for (int k = 0; k < 2; k++) {
                            int i = 0;
                            while (i < 3 && t == null) {
                                try {
                                    t = svc.request();
                                } catch (SJIOException e) {
                                    i++;
                                }
                            }
                        }
                """ + COMPLETE));
    }
}
