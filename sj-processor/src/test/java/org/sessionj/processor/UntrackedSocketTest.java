package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 1: every expression of socket type is a tracked variable or is reported (SJ010) —
 * pattern bindings, type-variable parameters, fields, array elements, casts, method results.
 */
class UntrackedSocketTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>") interface One {}
                @Protocol("cbegin.!<int>.!<int>") interface Two {}
            }
            """;

    private static String cls(String members) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class User {
                %s
                }
                """.formatted(members);
    }

    @Test
    void instanceofPatternBinding() {
        assertRejected("SJ010", 6, msg("pattern variable 't'", "has no known session type"), cls("""
                    void run(Object o) {
                        if (o instanceof SJSocket t) {
                            t.send(1);
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void switchPatternBinding() {
        assertRejected("SJ010", 7, msg("pattern variable 't'"), cls("""
                    void run(Object o) {
                        switch (o) {
                            case SJSocket t -> t.send(1);
                            default -> { }
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void recordPatternComponent() {
        assertRejected("SJ010", 7, msg("pattern variable 't'"), cls("""
                    record Box(SJSocket socket) {}
                    void run(Object o) {
                        if (o instanceof Box(SJSocket t)) {
                            t.send(1);
                        }
                    }
                """), PROTOCOLS);
    }

    /** An exception class implementing the socket interface: the caught value's session type is unknown. */
    @Test
    void catchParameterOfASocketType() {
        assertRejected("SJ010", 9, msg("catch parameter 'b'", "has no known session type"), cls("""
                    static abstract class Bad extends RuntimeException implements SJSocket {}
                    void run(Runnable r) {
                        try {
                            r.run();
                        } catch (Bad b) {
                            b.send(1);
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void typeVariableParameterWithoutSession() {
        assertRejected("SJ010", 5, msg("session parameter 's'", "annotate it with @Session"), cls("""
                    <S extends SJSocket> void run(S s) {
                        s.send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void typeVariableParameterWithSessionIsChecked() {
        assertRejected("SJ013", 6, msg("expected !<int>"), cls("""
                    <S extends SJSocket> void run(@Session("!<int>") S s) {
                        s.send("one");
                    }
                """), PROTOCOLS);
        assertAccepted(PROTOCOLS, cls("""
                    <S extends SJSocket> void run(@Session("!<int>") S s) {
                        s.send(1);
                    }
                """));
    }

    @Test
    void subinterfaceOfSocketIsASocket() {
        assertRejected("SJ024", 6, msg("session 's' is not complete"), cls("""
                    interface Mine extends SJSocket {}
                    void run(@Session("!<int>.!<int>") Mine s) {
                        s.send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void fieldRead() {
        assertRejected("SJ010", 7, msg("field 'kept'"), cls("""
                    private SJSocket kept;
                    void run() {
                        kept.send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void qualifiedFieldReadPassedToASessionMethod() {
        assertRejected("SJ010", 7, msg("field 'other.kept'"), cls("""
                    private SJSocket kept;
                    void run(User other) {
                        part(other.kept);
                    }
                    void part(@Session("!<int>") SJSocket s) {
                        s.send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void methodResultGivenToASessionMethod() {
        assertRejected("SJ010", 6, msg("the session returned by 'all.get(0)'"), cls("""
                    void run(List<SJSocket> all) {
                        part(all.get(0));
                    }
                    void part(@Session("!<int>") SJSocket s) {
                        s.send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void selectorResultUsedDirectly() {
        assertRejected("SJ010", 6, msg("the session returned by 'selector.select()'"), cls("""
                    void run(SJSelector selector) {
                        selector.select().send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void arrayElement() {
        assertRejected("SJ010", 6, msg("array element 'all[0]'"), cls("""
                    void run(SJSocket[] all) {
                        all[0].send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void castFromObject() {
        assertRejected("SJ010", 6, msg("the cast '(SJSocket)o'"), cls("""
                    void run(Object o) {
                        ((SJSocket) o).send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void recordAccessor() {
        assertRejected("SJ010", 7, msg("the session returned by 'box.socket()'"), cls("""
                    record Box(SJSocket socket) {}
                    void run(Box box) {
                        box.socket().send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void genericFieldOfSocketType() {
        assertRejected("SJ010", 7, msg("field 'holder.value'"), cls("""
                    static final class Holder<T> { T value; }
                    void run(Holder<SJSocket> holder) {
                        holder.value.send(1);
                    }
                """), PROTOCOLS);
    }

    @Test
    void discardedSessionFromAMethod() {
        assertRejected("SJ010", 6, msg("the session returned by 'selector.select()'"), cls("""
                    void run(SJSelector selector) {
                        selector.select();
                    }
                """), PROTOCOLS);
    }

    @Test
    void socketsInCollectionsAreFineWhileUntouchedAndScopeAddIsTransparent() {
        assertAccepted(PROTOCOLS, cls("""
                    private final List<SJSocket> none = new ArrayList<>();
                    void run() {
                        SJService one = SJService.create(P.One.class, "h", 1);
                        try (SJScope scope = SJ.scope(); SJSocket a = scope.add(one.request())) {
                            a.send(none.size());
                        }
                    }
                """));
    }

    @Test
    void scopeAddKeepsTheSessionType() {
        assertRejected("SJ024", 7, msg("session 'a' is not complete"), cls("""
                    void run() {
                        SJService two = SJService.create(P.Two.class, "h", 1);
                        try (SJScope scope = SJ.scope(); SJSocket a = scope.add(two.request())) {
                            a.send(1);
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void fieldInitializersAreChecked() {
        assertRejected("SJ017", 5, msg("the session returned by request() must initialise a local SJSocket"), cls("""
                    private final SJSocket s = SJService.create(P.One.class, "h", 1).request();
                """), PROTOCOLS);
    }

    @Test
    void sessionInASwitchExpressionOfAFieldInitializer() {
        assertRejected("SJ024", 7, msg("session 's' is not complete"), cls("""
                    private final int n = switch (1) {
                        default -> {
                            try (SJSocket s = SJService.create(P.Two.class, "h", 1).request()) {
                                s.send(1);
                            }
                            yield 1;
                        }
                    };
                """), PROTOCOLS);
    }

    @Test
    void oneSocketGivenTwiceToOneCall() {
        assertRejected("SJ030", 8, msg("session 's' is copied into a second @Session parameter of 'both'"), cls("""
                    void run() {
                        SJService two = SJService.create(P.Two.class, "h", 1);
                        try (SJSocket s = two.request()) {
                            both(s, s);
                        }
                    }
                    void both(@Session("!<int>") SJSocket a, @Session("!<int>") SJSocket b) {
                        a.send(1);
                        b.send(2);
                    }
                """), PROTOCOLS);
    }

    @Test
    void constructorsWithSessionParametersTakeThePrefix() {
        assertAccepted(PROTOCOLS, cls("""
                    User() {
                    }
                    User(@Session("!<int>") SJSocket s) {
                        s.send(1);
                    }
                    void run() {
                        SJService two = SJService.create(P.Two.class, "h", 1);
                        try (SJSocket s = two.request()) {
                            new User(s);
                            s.send(2);
                        }
                    }
                """));
        assertRejected("SJ024", 12, msg("session 's' is not complete"), cls("""
                    User() {
                    }
                    User(@Session("!<int>") SJSocket s) {
                        s.send(1);
                    }
                    void run() {
                        SJService two = SJService.create(P.Two.class, "h", 1);
                        try (SJSocket s = two.request()) {
                            new User(s);
                        }
                    }
                """), PROTOCOLS);
    }
}
