package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A session selected from a typed selector is one of the set, and no label told the peer's side which:
 * before a typecase it may not be handed on — to a {@code @Session} parameter, a session thread, a
 * delegation, another selector — as if it were a branch over the member names (SJ054), nor meet a real
 * branch where paths join (SJ020). Inside a typecase arm it is at the member's type and is handed on
 * like any session at that type.
 */
class SelectedSessionHandOverTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Kv {
                @Protocol("sbegin.?(String).!<Integer>") interface Get {}
                @Protocol("sbegin.?(String).?(Integer)") interface Put {}
                @Protocol("?{Get: ?(String).!<Integer>, Put: ?(String).?(Integer)}") interface Either {}
                @Protocol("cbegin.!<@(Either)>") interface HandEither {}
                @Protocol("?(String).!<Integer>") interface GetRest {}
                @Protocol("cbegin.!<@(GetRest)>") interface HandGet {}
                @Protocol("sbegin.?{Get: ?(String).!<Integer>, Put: ?(String).?(Integer)}") interface Branchy {}
            }
            """;

    /** The selected session {@code s}, then {@code %s}. */
    private static String selected(String rest) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s = selector.select();
                %s
                    }
                    void either(@Session("?{Get: ?(String).!<Integer>, Put: ?(String).?(Integer)}") SJSocket t) {
                        switch (t.inbranch()) {
                            case "Get" -> { String k = t.receive(); t.send(1); }
                            case "Put" -> { String k = t.receive(); Integer v = t.receive(); }
                        }
                    }
                    void get(@Session("?(String).!<Integer>") SJSocket t) {
                        String k = t.receive();
                        t.send(1);
                    }
                    void key(@Session("?(String)") SJSocket t) {
                        String k = t.receive();
                    }
                }
                """.formatted(rest);
    }

    @Test
    void aSelectedSessionPassedToASessionParameterTypedAsTheBranchIsSJ054() {
        assertRejected("SJ054", 9, msg("session 's'", "is one of the set {Get: ", "passed to 'either'",
                "switch (selector.typecase(s))"), selected("        either(s);"), PROTOCOLS);
    }

    @Test
    void aSelectedSessionPassedToAConstructorsSessionParameterIsSJ054() {
        assertRejected("SJ054", 9, msg("session 's'", "is one of the set {Get: "), selected("        new Holder(s);"),
                PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Holder {
                    Holder(@Session("?{Get: ?(String).!<Integer>, Put: ?(String).?(Integer)}") SJSocket t) {
                        switch (t.inbranch()) {
                            case "Get" -> { String k = t.receive(); t.send(1); }
                            case "Put" -> { String k = t.receive(); Integer v = t.receive(); }
                        }
                    }
                }
                """);
    }

    @Test
    void aSelectedSessionSpawnedIntoABodyTypedAsTheBranchIsSJ054() {
        assertRejected("SJ054", 9, msg("session 's'", "is one of the set {Get: ", "spawned"),
                selected("        SJ.spawn(s, this::either);"), PROTOCOLS);
    }

    @Test
    void aSelectedSessionSpawnedIntoALambdaTypedAsTheBranchIsSJ054() {
        assertRejected("SJ054", 9, msg("session 's'", "is one of the set {Get: ", "spawned"), selected("""
                        SJ.spawn(s, (@Session("?{Get: ?(String).!<Integer>, Put: ?(String).?(Integer)}") SJSocket t) -> {
                            switch (t.inbranch()) {
                                case "Get" -> { String k = t.receive(); t.send(1); }
                                case "Put" -> { String k = t.receive(); Integer v = t.receive(); }
                            }
                        });"""), PROTOCOLS);
    }

    @Test
    void aSelectedSessionDelegatedAsTheBranchIsSJ054() {
        assertRejected("SJ054", 10, msg("session 's'", "is one of the set {Get: ", "delegated"), selected("""
                        try (SJSocket d = SJService.create(Kv.HandEither.class, "h", 1).request()) {
                            d.send(s);
                        }"""), PROTOCOLS);
    }

    @Test
    void aSelectedSessionRegisteredWithASelectorOfTheBranchIsSJ054() {
        assertRejected("SJ054", 10, msg("session 's'", "is one of the set {Get: ", "registered"), selected("""
                        final SJSelector other = SJSelector.of(Kv.Branchy.class);
                        other.register(s);"""), PROTOCOLS);
    }

    @Test
    void aSelectedSessionAndARealBranchMeetingWhereTwoPathsJoinIsRejected() {
        assertRejected("SJ020", 10, msg("session 's'"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets,
                             @Session(protocol = Kv.Branchy.class) SJServerSocket branchy, boolean c) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s;
                        if (c) {
                            s = selector.select();
                        } else {
                            s = branchy.accept();
                        }
                        switch (selector.typecase(s)) {
                            case "Get" -> { String k = s.receive(); s.send(1); }
                            case "Put" -> { String k = s.receive(); Integer v = s.receive(); }
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aRealBranchAndASelectedSessionMeetingWhereTwoPathsJoinIsRejected() {
        assertRejected("SJ020", 10, msg("session 's'"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets,
                             @Session(protocol = Kv.Branchy.class) SJServerSocket branchy, boolean c) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s;
                        if (c) {
                            s = branchy.accept();
                        } else {
                            s = selector.select();
                        }
                        switch (s.inbranch()) {
                            case "Get" -> { String k = s.receive(); s.send(1); }
                            case "Put" -> { String k = s.receive(); Integer v = s.receive(); }
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aLoopThatGoesRoundWithARealBranchWhereItStartedWithASelectedSessionIsSJ021() {
        assertRejected("SJ021", 10, msg("session 's'", "one of the set {Get: ", "(selected, before its typecase)"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets,
                             @Session(protocol = Kv.Branchy.class) SJServerSocket branchy, boolean c) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s = selector.select();
                        while (c) {
                            switch (selector.typecase(s)) {
                                case "Get" -> { String k = s.receive(); s.send(1); s.close(); }
                                case "Put" -> { String k = s.receive(); Integer v = s.receive(); s.close(); }
                            }
                            s = branchy.accept();
                        }
                        switch (s.inbranch()) {
                            case "Get" -> { String k = s.receive(); s.send(1); s.close(); }
                            case "Put" -> { String k = s.receive(); Integer v = s.receive(); s.close(); }
                        }
                    }
                }
                """, PROTOCOLS);
    }

    // ------------------------------------------------------------------ accepted: inside a typecase arm

    @Test
    void anArmPassesItsSessionToAMethodTypedAtTheMembersRemainingType() {
        assertAccepted(PROTOCOLS, selected("""
                        switch (selector.typecase(s)) {
                            case "Get" -> { get(s); s.close(); }
                            case "Put" -> { key(s); Integer v = s.receive(); s.close(); }
                        }"""));
    }

    @Test
    void anArmPassingItsSessionToAMethodOfTheOtherMemberIsSJ035() {
        assertRejected("SJ035", 11, msg("session 's'", "'get'"), selected("""
                        switch (selector.typecase(s)) {
                            case "Get" -> { get(s); s.close(); }
                            case "Put" -> { get(s); s.close(); }
                        }"""), PROTOCOLS);
    }

    @Test
    void anArmSpawnsItsSessionIntoALambdaAtTheMembersType() {
        assertAccepted(PROTOCOLS, selected("""
                        switch (selector.typecase(s)) {
                            case "Get" -> SJ.spawn(s, (@Session("?(String).!<Integer>") SJSocket t) -> {
                                String k = t.receive();
                                t.send(1);
                            });
                            case "Put" -> SJ.spawn(s, (@Session("?(String).?(Integer)") SJSocket t) -> {
                                String k = t.receive();
                                Integer v = t.receive();
                            });
                        }"""));
    }

    @Test
    void anArmSpawningItsSessionIntoABodyOfTheOtherMemberIsSJ051() {
        assertRejected("SJ051", 11, msg("session 's'", "but the session is at ?(java.lang.String).?(java.lang.Integer)"),
                selected("""
                        switch (selector.typecase(s)) {
                            case "Get" -> SJ.spawn(s, this::get);
                            case "Put" -> SJ.spawn(s, this::get);
                        }"""), PROTOCOLS);
    }

    @Test
    void anArmDelegatesItsSessionAtTheMembersType() {
        assertAccepted(PROTOCOLS, selected("""
                        switch (selector.typecase(s)) {
                            case "Get" -> {
                                try (SJSocket d = SJService.create(Kv.HandGet.class, "h", 1).request()) {
                                    d.send(s);
                                }
                            }
                            case "Put" -> { String k = s.receive(); Integer v = s.receive(); s.close(); }
                        }"""));
    }

    @Test
    void anArmDelegatingItsSessionAtTheOtherMembersTypeIsSJ034() {
        assertRejected("SJ034", 13, msg("session 's'"), selected("""
                        switch (selector.typecase(s)) {
                            case "Get" -> { String k = s.receive(); s.send(1); s.close(); }
                            case "Put" -> {
                                try (SJSocket d = SJService.create(Kv.HandGet.class, "h", 1).request()) {
                                    d.send(s);
                                }
                            }
                        }"""), PROTOCOLS);
    }
}
