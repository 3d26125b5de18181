package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * Set protocols, {@code @Protocol("{S1, …}")} (docs/session-types.md §8, §9): validated member by
 * member, given a descriptor that keeps the member references, usable to declare a typed selector,
 * and refused wherever one session's type is wanted.
 */
class SetProtocolTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Kv {
                @Protocol("sbegin.?(String).!<Integer>") interface Get {}
                @Protocol("sbegin.?(String).?(Integer)") interface Put {}
                @Protocol("sbegin.?(String)") interface Del {}
                @Protocol("{@(Get), @(Put)}") interface Server {}
            }
            """;

    /** {@link TypedSelectorTest#SERVER} with its selector declared by the set protocol. */
    static final String SERVER = TypedSelectorTest.SERVER.replace("SJSelector.of(Kv.Get.class, Kv.Put.class)",
            "SJSelector.of(Kv.Server.class)");

    @Test
    void aSelectorDeclaredWithASetProtocolServesItsMembers() {
        assertThat(SERVER).contains("SJSelector.of(Kv.Server.class)");
        assertAccepted(PROTOCOLS, SERVER);
    }

    @Test
    void theDescriptorKeepsTheMemberReferencesByBinaryName() throws IOException {
        Compilation compilation = assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.Protocol;
                import java.util.List;
                @Protocol("{?(List<String>).!<int>, @(Kv.Del), end}")
                public interface Mixed {}
                """);
        assertThat(descriptor(compilation, "demo.Kv$Server")).isEqualTo("{@(demo.Kv$Get), @(demo.Kv$Put)}");
        assertThat(descriptor(compilation, "demo.Mixed"))
                .isEqualTo("{?(java.util.List<java.lang.String>).!<int>, @(demo.Kv$Del), end}");
    }

    @Test
    void setProtocolsAndSequenceProtocolsMixInOneSelector() {
        assertAccepted(PROTOCOLS, SERVER.replace("SJSelector.of(Kv.Server.class)",
                "SJSelector.of(Kv.Server.class, Kv.Del.class)").replace("""
                            case "Put" -> {""", """
                            case "Del" -> {
                                String key = s.receive();
                                store.remove(key);
                                s.close();
                            }
                            case "Put" -> {"""));
    }

    @Test
    void theArmsAreCheckedAgainstTheMembersTheSetNames() {
        assertRejected("SJ013", 26, msg("session 's': expected ?(java.lang.Integer) but the program receives"
                        + " ?(java.lang.String)"),
                SERVER.replace("Integer value = s.receive();", "String value = s.receive();")
                        .replace("store.put(key, value);", ""), PROTOCOLS);
    }

    @Test
    void aMissingMemberOfTheSetIsSJ016() {
        assertRejected("SJ016", 18, msg("no case for label", "Put"), SERVER.replaceAll(
                "(?s)case \"Put\" -> \\{.*?store.put\\(key, value\\);\\s*s.close\\(\\);\\s*}", ""), PROTOCOLS);
    }

    @Test
    void registeringASessionOfAnotherProtocolIsSJ053() {
        assertRejected("SJ053", 15, msg("which is not the start of a member"),
                SERVER.replace("SJServerSocket puts = SJServerSocket.create(Kv.Put.class, 0);",
                        "SJServerSocket puts = SJServerSocket.create(Kv.Del.class, 0);"), PROTOCOLS);
    }

    @Test
    void aSetWhoseMemberIsNoProtocolReferenceDeclaresNoSelectorSJ052() {
        assertRejected("SJ052", 4, msg("typed selector 'selector': member 2 of the set protocol 'Anon', ?(java.lang.String),"
                + " is not a protocol reference @(P)"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    final SJSelector selector = SJSelector.of(Anon.class);
                }
                """, PROTOCOLS, """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("{@(Kv.Get), ?(String)}")
                public interface Anon {}
                """);
    }

    @Test
    void twoMembersOfOneNameAcrossSetsAreSJ052() {
        assertRejected("SJ052", 4, msg("two members are named 'Get'"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    final SJSelector selector = SJSelector.of(Kv.Server.class, Kv.Get.class);
                }
                """, PROTOCOLS);
    }

    @Test
    void aSetProtocolOpensNoSessionSJ010() {
        assertRejected("SJ010", 5, msg("protocol 'Server'", "it is a set protocol"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJServerSocket all = SJServerSocket.create(Kv.Server.class, 0);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aSetProtocolTypesNoSessionParameterSJ007() {
        assertRejected("SJ007", 4, msg("'demo.Kv.Server' is a set protocol"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void serve(@Session(protocol = Kv.Server.class) SJSocket s) {
                        s.close();
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aReferenceToASetIsSJ004() {
        assertRejected("SJ004", 3, msg("refers to demo.Kv$Server, a set protocol"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.@(Kv.Server)")
                public interface Wrapper {}
                """, PROTOCOLS);
    }

    @Test
    void aSetThatDoesNotParseIsSJ001AtItsPosition() {
        assertRejected("SJ001", 3, msg("line 1, column 9"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("{@(Get) @(Put)}")
                public interface Broken {}
                """);
    }

    @Test
    void aMemberTwiceIsSJ001() {
        assertRejected("SJ001", 3, msg("duplicate member"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("{?(int), ?(int)}")
                public interface Twice {}
                """);
    }

    @Test
    void anUnknownNameInAMemberIsSJ002AndAnIllFormedMemberSJ005() {
        assertRejected("SJ002", 3, msg("unknown Java type 'Nope'", "line 1, column 12"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("{?(int), ?(Nope)}")
                public interface Unknown {}
                """);
        assertRejected("SJ005", 3, msg("ill-formed protocol"), """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("{?(int), rec X[!<int>.#Y]}")
                public interface IllFormed {}
                """);
    }

    private static String descriptor(Compilation compilation, String binaryName) throws IOException {
        return CompilerHarness.descriptorOf(compilation.generatedFile(StandardLocation.CLASS_OUTPUT,
                "META-INF/sessionj/protocols/" + binaryName + ".sj").orElseThrow().getCharContent(true).toString());
    }
}
