package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.processor.StepwiseBuild.Result;

/**
 * SJ009 for every fact a class's checks read from another class, not only protocols and {@code @Session}
 * types (adv12 A8): whether a method ends the socket it is lent, the protocol of a {@code final} service
 * field, {@code @NoAlias} on a parameter or a result, and the contracts an override must keep. Each test
 * compiles a provider and its user into a real output directory, changes one fact of the provider alone
 * and compiles the provider's file alone against the earlier output, as a build that recompiles only
 * changed files does; a recompilation that changes no fact passes, also when the user read the provider
 * from its class file (the fingerprint is the same from source and from the class path).
 */
class StaleFactsTest {
    @TempDir
    Path project;

    private Path write(String name, String text) throws IOException {
        return new StepwiseBuild(project).write(name, text);
    }

    private Result compile(String... names) throws IOException {
        return new StepwiseBuild(project).compile(names);
    }

    private Path classFile(String name) {
        return new StepwiseBuild(project).classFile(name);
    }

    private static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Protocols {
                @Protocol("cbegin.!<int>.?(String)") interface Ask {}
                @Protocol("cbegin.!<int>") interface Put {}
            }
            """;

    /** Lends its socket to {@code fin}, then receives: well-typed only while {@code fin} does not close it. */
    private static final String CLIENT = """
            package demo;
            import org.sessionj.api.*;
            public final class Client {
                static String run(@Session(protocol = Protocols.Ask.class) SJService service) {
                    SJSocket s = service.request();
                    Helper.fin(s);
                    String reply = s.receive();
                    s.close();
                    return reply;
                }
            }
            """;

    private static final String HELPER = """
            package demo;
            import org.sessionj.api.*;
            public final class Helper {
                public static void fin(@Session("!<int>") SJSocket t) {
                    t.send(1);%s
                }
            }
            """;

    private static void assertCompiles(Result result) {
        assertThat(result.status()).as(result.output()).isZero();
    }

    private void assertStale(Result alone, String user, String provider) {
        assertThat(alone.status()).as(alone.output()).isNotZero();
        assertThat(alone.output()).contains("[SJ009] demo." + user + " was checked against an earlier version of "
                + "the session declarations of demo." + provider);
        assertThat(classFile(user)).as("removed, so that the next build compiles it").doesNotExist();
    }

    @Test
    void aHelperThatStartsClosingItsLentSocketMakesItsCallersStale() throws IOException {
        write("Protocols", PROTOCOLS);
        write("Helper", HELPER.formatted(""));
        write("Client", CLIENT);
        assertCompiles(compile("Protocols", "Helper", "Client"));

        write("Helper", HELPER.formatted(" t.close();"));
        assertStale(compile("Helper"), "Client", "Helper");
        Result next = compile("Helper", "Client");
        assertThat(next.output()).contains("[SJ024]").contains("closes it").doesNotContain("SJ009");
    }

    @Test
    void aMethodThatEndsItsSocketThroughAChangedCalleeIsStaleItself() throws IOException {
        write("Protocols", PROTOCOLS);
        write("Helper", HELPER.formatted(""));
        // Relay ends its parameter exactly when Helper.fin does: its recorded endings go stale with Helper.
        write("Relay", """
                package demo;
                import org.sessionj.api.*;
                public final class Relay {
                    public static void on(@Session("!<int>") SJSocket t) {
                        Helper.fin(t);
                    }
                }
                """);
        write("Client", CLIENT.replace("Helper.fin(s)", "Relay.on(s)"));
        assertCompiles(compile("Protocols", "Helper", "Relay", "Client"));

        write("Helper", HELPER.formatted(" t.close();"));
        assertStale(compile("Helper"), "Relay", "Helper");
        // The next build compiles Helper and Relay (its class is gone): Relay's endings changed, so Client,
        // checked against Relay's earlier ones, is stale in turn.
        assertStale(compile("Helper", "Relay"), "Client", "Relay");
        Result next = compile("Helper", "Relay", "Client");
        assertThat(next.output()).contains("[SJ024]").contains("lends it to 'fin'").doesNotContain("SJ009");
    }

    @Test
    void aFinalServiceFieldOfAnotherProtocolMakesItsReadersStale() throws IOException {
        String services = """
                package demo;
                import org.sessionj.api.*;
                public final class Services {
                    static final SJService SERVICE = SJService.create(Protocols.%s.class, "localhost", 4000);
                }
                """;
        write("Protocols", PROTOCOLS);
        write("Services", services.formatted("Put"));
        write("Client", """
                package demo;
                import org.sessionj.api.*;
                public final class Client {
                    static void run() {
                        try (SJSocket s = Services.SERVICE.request()) {
                            s.send(1);
                        }
                    }
                }
                """);
        assertCompiles(compile("Protocols", "Services", "Client"));
        assertThat(project.resolve("classes/META-INF/sessionj/users/demo.Services.txt"))
                .as("a class that declares no protocol and no @Session method, but whose field others read")
                .content().contains("demo.Client ");

        write("Services", services.formatted("Ask"));
        assertStale(compile("Services"), "Client", "Services");
        assertThat(compile("Services", "Client").output()).contains("[SJ024]").doesNotContain("SJ009");
    }

    @Test
    void aParameterThatBecomesNoAliasMakesItsCallersStale() throws IOException {
        String keeper = """
                package demo;
                import org.sessionj.api.NoAlias;
                public final class Keeper {
                    public static void keep(%sint[] values) {
                    }
                }
                """;
        write("Keeper", keeper.formatted(""));
        write("Client", """
                package demo;
                import org.sessionj.api.NoAlias;
                public final class Client {
                    static final int[] SHARED = new int[3];
                    @NoAlias int[] own = new int[1]; // a class that touches no @NoAlias value nor session is not checked
                    static void run() {
                        Keeper.keep(SHARED);
                    }
                }
                """);
        assertCompiles(compile("Keeper", "Client"));

        write("Keeper", keeper.formatted("@NoAlias "));
        assertStale(compile("Keeper"), "Client", "Keeper");
        assertThat(compile("Keeper", "Client").output()).contains("[SJ040]").doesNotContain("SJ009");
    }

    @Test
    void aResultThatIsNoLongerNoAliasMakesItsCallersStale() throws IOException {
        String maker = """
                package demo;
                import org.sessionj.api.NoAlias;
                public final class Maker {
                    static final int[] SHARED = new int[3];
                    public static %sint[] make() {
                        return %s;
                    }
                }
                """;
        write("Maker", maker.formatted("@NoAlias ", "new int[3]"));
        write("Client", """
                package demo;
                import org.sessionj.api.NoAlias;
                public final class Client {
                    static int run() {
                        @NoAlias int[] mine = Maker.make();
                        return mine.length;
                    }
                }
                """);
        assertCompiles(compile("Maker", "Client"));

        write("Maker", maker.formatted("", "SHARED"));
        assertStale(compile("Maker"), "Client", "Maker");
        assertThat(compile("Maker", "Client").output()).contains("[SJ040]").doesNotContain("SJ009");
    }

    @Test
    void anOverriddenMethodThatNoLongerEndsItsSocketMakesTheOverrideStale() throws IOException {
        String base = """
                package demo;
                import org.sessionj.api.*;
                public class Base {
                    public void finish(@Session("!<int>") SJSocket t) {
                        t.send(1);%s
                    }
                }
                """;
        write("Base", base.formatted(" t.close();"));
        write("Sub", """
                package demo;
                import org.sessionj.api.*;
                public class Sub extends Base {
                    @Override
                    public void finish(@Session("!<int>") SJSocket t) {
                        t.send(2);
                        t.close();
                    }
                }
                """);
        assertCompiles(compile("Base", "Sub"));

        write("Base", base.formatted(""));
        assertStale(compile("Base"), "Sub", "Base");
        assertThat(compile("Base", "Sub").output()).contains("[SJ056]").doesNotContain("SJ009");
    }

    /**
     * The user compiled alone reads the providers from their class files (their endings and field facts
     * from the resources their compilation wrote): recompiling the providers unchanged must not find it stale.
     */
    @Test
    void providersRecompiledWithoutAChangeAfterAUserReadTheirClassFilesPass() throws IOException {
        write("Protocols", PROTOCOLS);
        write("Helper", HELPER.formatted(" t.close();"));
        write("Services", """
                package demo;
                import org.sessionj.api.*;
                public final class Services {
                    static final SJService SERVICE = SJService.create(Protocols.Put.class, "localhost", 4000);
                    static final SJService UNKNOWN = pick(); // an endpoint of no known protocol: a fact too
                    static SJService pick() {
                        return SERVICE;
                    }
                    public static void finish(@Session("!<int>") SJSocket t) {
                        Helper.fin(t);
                    }
                }
                """);
        write("Client", """
                package demo;
                import org.sessionj.api.*;
                public final class Client {
                    static void run(@Session(protocol = Protocols.Put.class) SJService service) {
                        SJSocket s = service.request();
                        Services.finish(s);
                    }
                }
                """);
        assertCompiles(compile("Protocols", "Helper", "Services", "Client"));
        assertThat(project.resolve("classes/META-INF/sessionj/fields/demo.Services.txt")).content().contains("SERVICE")
                .contains("UNKNOWN");
        Result user = compile("Client");
        assertThat(user.status()).as(user.output()).isZero();
        Result providers = compile("Helper", "Services");
        assertThat(providers.status()).as(providers.output()).isZero();
        assertThat(classFile("Client")).exists();
    }

    /**
     * A protocol's users record the hash of the descriptor they were checked against, which sj-runtime
     * compares with the descriptor it loads (StaleUsers, adv12 A10): the hash of the descriptor's text.
     */
    @Test
    void aProtocolsUsersRecordTheHashOfTheDescriptorTheyWereCheckedAgainst() throws IOException {
        write("Protocols", PROTOCOLS);
        write("Helper", HELPER.formatted(""));
        write("Client", CLIENT);
        assertCompiles(compile("Protocols", "Helper", "Client"));
        String descriptor = CompilerHarness.descriptorOf(
                Files.readString(project.resolve("classes/META-INF/sessionj/protocols/demo.Protocols$Ask.sj")));
        long hash = 0xcbf29ce484222325L;
        String text = descriptor.strip();
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        assertThat(project.resolve("classes/META-INF/sessionj/users/demo.Protocols$Ask.txt")).content()
                .containsPattern("(?m)^demo\\.Client \\S+ descriptor=" + text.length() + "-" + Long.toHexString(hash) + "$");
        assertThat(project.resolve("classes/META-INF/sessionj/users/demo.Helper.txt")).content()
                .as("not a protocol: no descriptor").doesNotContain("descriptor=");
    }
}
