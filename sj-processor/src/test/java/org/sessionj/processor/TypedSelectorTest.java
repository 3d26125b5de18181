package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** Typed selectors (SJSelector.of) and typecase: SJ052, SJ053, SJ054, and the arms checked per member. */
class TypedSelectorTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Kv {
                @Protocol("sbegin.?(String).!<Integer>") interface Get {}
                @Protocol("sbegin.?(String).?(Integer)") interface Put {}
                @Protocol("cbegin.!<String>.?(Integer)") interface GetClient {}
            }
            """;

    /** One thread serves gets and puts: every arm completes its member. */
    static final String SERVER = """
            package demo;
            import java.util.HashMap;
            import java.util.Map;
            import org.sessionj.api.*;
            class Server {
                private final Map<String, Integer> store = new HashMap<>();
                private final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);

                void run() {
                    SJServerSocket gets = SJServerSocket.create(Kv.Get.class, 0);
                    SJServerSocket puts = SJServerSocket.create(Kv.Put.class, 0);
                    SJSocket g = gets.accept();
                    selector.register(g);
                    SJSocket p = puts.accept();
                    selector.register(p);
                    while (true) {
                        SJSocket s = selector.select();
                        switch (selector.typecase(s)) {
                            case "Get" -> {
                                String key = s.receive();
                                s.send(store.getOrDefault(key, 0));
                                s.close();
                            }
                            case "Put" -> {
                                String key = s.receive();
                                Integer value = s.receive();
                                store.put(key, value);
                                s.close();
                            }
                        }
                    }
                }
            }
            """;

    @Test
    void aServerOfTwoProtocolsOnOneThreadCompiles() {
        assertAccepted(PROTOCOLS, SERVER);
    }

    @Test
    void aLocalSelectorAndAnArmThatHandsTheSessionToASessionThread() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        var selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s = selector.select();
                        switch (selector.typecase(s)) {
                            case "Get" -> SJ.spawn(s, this::get);
                            case "Put" -> {
                                String key = s.receive();
                                Integer value = s.receive();
                                s.close();
                            }
                        }
                    }
                    void get(@Session("?(String).!<Integer>") SJSocket s) {
                        String key = s.receive();
                        s.send(1);
                    }
                }
                """);
    }

    @Test
    void anArmIsCheckedAgainstItsMember() {
        assertRejected("SJ013", 26, msg("session 's': expected ?(java.lang.Integer) but the program receives ?(java.lang.String)"),
                SERVER.replace("Integer value = s.receive();", "String value = s.receive();")
                        .replace("store.put(key, value);", ""), PROTOCOLS);
    }

    @Test
    void anArmThatLeavesTheSessionIncompleteIsSJ024() {
        assertRejected("SJ024", 22, msg("session 's' is not complete when it is closed", "!<java.lang.Integer> remains"),
                SERVER.replace("s.send(store.getOrDefault(key, 0));", ""), PROTOCOLS);
    }

    @Test
    void aMissingMemberIsSJ016() {
        assertRejected("SJ016", 9, msg("no case for label", "Put"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s = selector.select();
                        switch (selector.typecase(s)) {
                            case "Get" -> {
                                String key = s.receive();
                                s.send(1);
                                s.close();
                            }
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void registeringASessionOutsideTheSetIsSJ053() {
        assertRejected("SJ053", 9, msg("session 'g' is at !<java.lang.Integer>, which is not the start of a member",
                "{Get: ?(java.lang.String).!<java.lang.Integer>, Put: ?(java.lang.String).?(java.lang.Integer)}"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        String key = g.receive();
                        // Half way through Get: not a member.
                        selector.register(g);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void usingASessionAfterRegisteringItIsSJ025() {
        assertRejected("SJ025", 8, msg("session 'g' is used after it was registered with selector 'selector'"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        String key = g.receive();
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aSelectedSessionMustGoThroughTypecaseFirst() {
        assertRejected("SJ012", 9, msg("session 's': expected ?{Get: ?(java.lang.String).!<java.lang.Integer>, Put: ",
                "but the program receives ?(java.lang.String)"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s = selector.select();
                        String key = s.receive();
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void inbranchOnASelectedSessionIsSJ054() {
        assertRejected("SJ054", 9, msg("no label was sent", "switch (selector.typecase(s))"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s = selector.select();
                        switch (s.inbranch()) {
                            case "Get" -> { String k = s.receive(); s.send(1); }
                            case "Put" -> { String k = s.receive(); Integer v = s.receive(); }
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void typecaseOfASessionThatWasNotSelectedIsSJ054() {
        assertRejected("SJ054", 7, msg("typecase applies to a session just selected from a typed selector"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket s = gets.accept();
                        switch (selector.typecase(s)) {
                            case "Get" -> { String k = s.receive(); s.send(1); }
                            case "Put" -> { String k = s.receive(); Integer v = s.receive(); }
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void typecaseOutsideASwitchIsSJ054() {
        assertRejected("SJ054", 9, msg("typecase must be the selector of a switch"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        final SJSelector selector = SJSelector.of(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s = selector.select();
                        String member = selector.typecase(s);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aReassignedSelectorIsSJ052() {
        assertRejected("SJ052", 5, msg("typed selector 'selector': it is assigned again"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJSelector selector = SJSelector.of(Kv.Get.class);
                        selector = SJSelector.of(Kv.Put.class);
                        SJSocket s = selector.select();
                        switch (selector.typecase(s)) {
                            case "Put" -> { String k = s.receive(); Integer v = s.receive(); s.close(); }
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aMemberThatIsNotAProtocolClassLiteralIsSJ052() {
        assertRejected("SJ052", 6, msg("each member is a @Protocol interface's class literal", "found 'String.class'"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        final SJSelector selector = SJSelector.of(Kv.Get.class,
                                String.class);
                        SJSocket s = selector.select();
                        s.close();
                    }
                }
                """, PROTOCOLS);
    }

    /** The shape of {@code org.sessionj.runtime.SJRuntime}'s selector factories (the runtime is not a dependency here). */
    private static final String RUNTIME = """
            package org.sessionj.runtime;
            import org.sessionj.api.SJSelector;
            public final class SJRuntime {
                public static SJRuntime global() {
                    return new SJRuntime();
                }
                public SJSelector openSelector() {
                    return SJSelector.open();
                }
                public SJSelector openSelector(Class<?>... protocols) {
                    return SJSelector.of(protocols);
                }
            }
            """;

    /** adv11 A10: a runtime instance's openSelector(P.class, …) is SJSelector.of's twin, typed the same way. */
    @Test
    void aRuntimesTypedSelectorIsTyped() {
        String server = """
                package demo;
                import org.sessionj.api.*;
                import org.sessionj.runtime.SJRuntime;
                class Server {
                    void run(@Session(protocol = Kv.Get.class) SJServerSocket gets) {
                        SJSelector selector = SJRuntime.global().openSelector(Kv.Get.class, Kv.Put.class);
                        SJSocket g = gets.accept();
                        selector.register(g);
                        SJSocket s = selector.select();
                        switch (selector.typecase(s)) {
                            case "Get" -> {
                                String key = s.receive();
                                s.send(%s);
                                s.close();
                            }
                            case "Put" -> {
                                String key = s.receive();
                                Integer value = s.receive();
                                s.close();
                            }
                        }
                    }
                }
                """;
        assertAccepted(PROTOCOLS, RUNTIME, server.formatted("1"));
        assertRejected("SJ013", 13, msg("expected !<java.lang.Integer> but the program sends !<java.lang.String>"),
                server.formatted("key"), PROTOCOLS, RUNTIME);
    }

    /** Its members are checked as SJSelector.of's are. */
    @Test
    void aRuntimesTypedSelectorOfANonProtocolIsRejected() {
        assertRejected("SJ052", 6, msg("each member is a @Protocol interface's class literal"), """
                package demo;
                import org.sessionj.api.*;
                import org.sessionj.runtime.SJRuntime;
                class Server {
                    void run() {
                        SJSelector selector = SJRuntime.global().openSelector(String.class);
                    }
                }
                """, PROTOCOLS, RUNTIME);
    }
}
