package org.sessionj.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.samples.StagedRepository.ROOT;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.samples.StagedRepository.Build;

/**
 * samples/kv-maven built by real Maven (this repository's wrapper), as a user's project would be: its
 * pom is the README's snippet, its protocols are several interfaces in one file, and its artifacts come
 * from a temporary local repository this test stages from the build's classes (the shared ~/.m2 never
 * receives SJ's snapshots; it serves the third-party artifacts, read-only, as Maven's "tail" repository;
 * Maven runs offline). The well-typed project builds and its server and client run in two JVMs; a copy
 * with one protocol mistake fails with SJ's diagnostic in Maven's output.
 */
class KvMavenSampleTest {

    @TempDir
    static Path work;
    static StagedRepository staged;

    @BeforeAll
    static void stageTheArtifacts() throws IOException {
        staged = StagedRepository.stage(work.resolve("repository"));
    }

    @Test
    @Timeout(900)
    void theWellTypedSampleBuildsAndItsServerAndClientTalkAcrossJvms() throws Exception {
        Path project = copySample("kv");
        Build build = maven(project);
        assertThat(build.status()).as("mvn package of samples/kv-maven:\n%s", build.output()).isZero();
        Path classes = project.resolve("target/classes");
        assertThat(classes.resolve("META-INF/sessionj/protocols/com.example.kv.KvClientSide.sj"))
                .as("the processor ran and wrote the protocol's descriptor").exists();
        assertThat(classes.resolve("META-INF/sessionj/protocols/com.example.kv.PutEntry.sj")).exists();
        assertDescriptorClass(classes, "com.example.kv.KvClientSide");
        assertThat(project.resolve("target/generated-sources/annotations/com/example/kv/KvClientSide$$SJProtocol.java"))
                .as("the descriptor class is written as a class file, not generated as a source").doesNotExist();

        // The built classes first: they, not sj-examples' copy of the sample, are what runs.
        String classPath = classes + java.io.File.pathSeparator + System.getProperty("java.class.path");
        try (ChildJvm server = ChildJvm.start(classPath, "com.example.kv.KvServer", "0")) {
            String port = server.await(Pattern.compile("listening on session port (\\d+)"), Duration.ofSeconds(60));
            try (ChildJvm client = ChildJvm.start(classPath, "com.example.kv.KvClient", "localhost", port,
                    "put", "greeting", "hello", "get", "greeting")) {
                ChildJvm.Result result = client.finish(Duration.ofSeconds(60));
                assertThat(result.status()).as(result.output()).isZero();
                // Nor a word about a class compiled without the processor: Maven's output carries its mark (adv15 A25).
                assertThat(result.output()).containsSubsequence("greeting stored", "greeting = hello")
                        .doesNotContain("has no descriptor").doesNotContain("compiled without sj-processor");
                assertThat(classes.resolve("META-INF/sessionj/checked")).isRegularFile();
            }
        }
    }

    /**
     * An incremental build (no clean: the previous classes, descriptor classes included, are in
     * {@code target/classes}, which Maven puts on javac's class path) after the protocols' file changed,
     * with every lint warning an error: the descriptor classes are written again, without "a file for type
     * … already exists" (which a generated type would cause under {@code -Xlint:processing}).
     */
    @Test
    @Timeout(900)
    void anIncrementalBuildWithEveryLintWarningAnErrorWritesTheDescriptorClassesAgain() throws Exception {
        Path project = copySample("kv-incremental");
        Path pom = project.resolve("pom.xml");
        String release = "<release>21</release>";
        Files.writeString(pom, Files.readString(pom).replace(release, release
                + "<compilerArgs><arg>-Xlint:all,-auxiliaryclass</arg><arg>-Werror</arg></compilerArgs>"));
        Build first = maven(project);
        assertThat(first.status()).as("mvn package:\n%s", first.output()).isZero();
        Path protocols = project.resolve("src/main/java/com/example/kv/Protocols.java");
        Files.writeString(protocols, Files.readString(protocols) + "// changed\n");
        Build second = maven(project);
        assertThat(second.status()).as("the incremental mvn package:\n%s", second.output()).isZero();
        assertThat(second.output()).doesNotContain("already exists").doesNotContain("duplicate class");
        assertDescriptorClass(project.resolve("target/classes"), "com.example.kv.KvClientSide");
    }

    /**
     * The descriptor class of {@code protocol} in {@code classes}, defined from that file (sj-examples
     * compiles the sample too, so the test's class path has a copy) and initialised, defines the text of
     * its {@code .sj} resource there.
     */
    private static void assertDescriptorClass(Path classes, String protocol) throws Exception {
        String name = protocol + "$$SJProtocol";
        byte[] bytes = Files.readAllBytes(classes.resolve(name.replace('.', '/') + ".class"));
        String file = Files.readString(classes.resolve("META-INF/sessionj/protocols/" + protocol + ".sj"));
        // The descriptor, before the "// source" lines that record which @Protocol texts it was made from (SJ009).
        int record = file.indexOf("\n// source ");
        String resource = (record < 0 ? file : file.substring(0, record)).strip();
        ClassLoader loader = new ClassLoader(KvMavenSampleTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
                if (!className.equals(name)) {
                    return super.loadClass(className, resolve);
                }
                synchronized (getClassLoadingLock(className)) {
                    Class<?> loaded = findLoadedClass(className);
                    return loaded != null ? loaded : defineClass(className, bytes, 0, bytes.length);
                }
            }
        };
        Class<?> descriptor = Class.forName(name, true, loader);
        assertThat(descriptor.getClassLoader()).isSameAs(loader);
        assertThat(org.sessionj.api.spi.ProtocolDescriptors.defined(descriptor)).map(String::strip).contains(resource);
    }

    @Test
    @Timeout(900)
    void aProtocolMistakeFailsTheMavenBuildWithTheCheckersDiagnostic() throws Exception {
        Path project = copySample("kv-mistake");
        Path client = project.resolve("src/main/java/com/example/kv/KvClient.java");
        String source = Files.readString(client);
        String forgotten = "        return s.receiveBoolean();";
        assertThat(source).contains(forgotten);
        // The PUT exchange no longer waits for the server's answer: ?(boolean) is never received.
        Files.writeString(client, source.replace(forgotten, "        return true;"));

        Build build = maven(project);
        assertThat(build.status()).as("a protocol mistake must fail the build:\n%s", build.output()).isNotZero();
        assertThat(build.output()).containsPattern("KvClient\\.java:\\[\\d+,\\d+\\] \\[SJ\\d{3}\\]")
                .contains("?(boolean)")
                .doesNotContain("duplicate class");
    }

    /**
     * With {@code useIncrementalCompilation=false} the compiler plugin compiles only the files changed
     * since the last build: a changed protocol must not leave its users checked against the old one (SJ009),
     * and the build after that checks them (their class files were removed, so the plugin compiles them).
     */
    @Test
    @Timeout(900)
    void aBuildThatCompilesOnlyAChangedProtocolDoesNotLeaveItsUsersUnchecked() throws Exception {
        Path project = copySample("kv-stale");
        String onlyChanged = "-Dmaven.compiler.useIncrementalCompilation=false";
        Build first = staged.maven(project, onlyChanged, "compile");
        assertThat(first.status()).as("the first build:\n%s", first.output()).isZero();

        Path protocols = project.resolve("src/main/java/com/example/kv/Protocols.java");
        String source = Files.readString(protocols);
        String put = "@Protocol(\"!<Entry>.?(boolean)\")";
        assertThat(source).contains(put);
        Files.writeString(protocols, source.replace(put, "@Protocol(\"!<Entry>.?(String)\")"));
        Path compiled = project.resolve("target/classes/com/example/kv/PutEntry.class");
        Files.setLastModifiedTime(protocols, FileTime.fromMillis(Files.getLastModifiedTime(compiled).toMillis() + 10_000));

        Build second = staged.maven(project, onlyChanged, "compile");
        assertThat(second.status()).as("a changed protocol compiled alone:\n%s", second.output()).isNotZero();
        assertThat(second.output()).containsPattern("Protocols\\.java:\\[\\d+,\\d+\\] \\[SJ009\\] com\\.example\\.kv\\.KvClient "
                + "was checked against an earlier version");

        Build third = staged.maven(project, onlyChanged, "compile");
        assertThat(third.status()).as("the next build:\n%s", third.output()).isNotZero();
        assertThat(third.output()).containsPattern("KvClient\\.java:\\[\\d+,\\d+\\] \\[SJ\\d{3}\\]")
                .contains("?(java.lang.String)").doesNotContain("SJ009");
    }

    /**
     * Two modules built by one reactor with the README's snippet in their parent: the library module's
     * {@code @Session} helper closes the socket it is lent, and the app module lends its session to it
     * with a receive still due. The app sees the helper only as a class file (the library's output), so
     * what the helper does comes from the resource the library's compilation wrote
     * ({@code META-INF/sessionj/ends/}): the app fails with SJ024, as it would with both in one module;
     * with the receive gone from the protocol and the code, the reactor builds.
     */
    @Test
    @Timeout(900)
    void aLibraryModulesHelperThatClosesItsSocketIsSeenInTheAppModule() throws Exception {
        Path project = work.resolve("two-modules");
        String parent = Files.readString(ROOT.resolve("samples/kv-maven/pom.xml"))
                .replace("<artifactId>kv</artifactId>", "<artifactId>two</artifactId><packaging>pom</packaging>"
                        + "<modules><module>lib</module><module>app</module></modules>");
        write(project.resolve("pom.xml"), parent);
        write(project.resolve("lib/pom.xml"), module("lib", ""));
        write(project.resolve("app/pom.xml"), module("app", "<dependencies><dependency><groupId>com.example</groupId>"
                + "<artifactId>lib</artifactId><version>1.0-SNAPSHOT</version></dependency></dependencies>"));
        write(project.resolve("lib/src/main/java/com/example/lib/Finish.java"), """
                package com.example.lib;

                import org.sessionj.api.*;

                /** Sends the last value of a session and closes it: the caller's session ends here. */
                public final class Finish {
                    private Finish() {
                    }

                    public static void send(@Session("!<int>") SJSocket s, int value) {
                        s.send(value);
                        s.close();
                    }
                }
                """);
        Path client = project.resolve("app/src/main/java/com/example/app/Client.java");
        String source = """
                package com.example.app;

                import com.example.lib.Finish;
                import org.sessionj.api.*;

                public final class Client {
                    @Protocol("cbegin.!<int>.?(String)") public interface Ask {}

                    public static String run(@Session(protocol = Ask.class) SJService service) {
                        SJSocket s = service.request();
                        Finish.send(s, 1);
                        return s.receive();
                    }
                }
                """;
        write(client, source);
        Build wrong = staged.maven(project, "compile");
        assertThat(wrong.status()).as("the app lends its session to a library method that closes it:\n%s",
                wrong.output()).isNotZero();
        assertThat(wrong.output()).containsPattern("Client\\.java:\\[11,\\d+\\] \\[SJ024\\] session 's' is not complete "
                + "when it is lent to 'send', which closes it");
        assertThat(project.resolve("lib/target/classes/META-INF/sessionj/ends/com.example.lib.Finish.txt")).exists();

        write(client, source.replace(".?(String)", "").replace("String run", "void run")
                .replace("        return s.receive();\n", ""));
        Build right = staged.maven(project, "compile");
        assertThat(right.status()).as("the corrected app:\n%s", right.output()).isZero();
    }

    /**
     * adv12 A10: a multi-module build with {@code useIncrementalCompilation=false} recompiles a changed
     * protocol module but not the module that uses it ("Nothing to compile", BUILD SUCCESS): no compiler can
     * report that. The user module's record says which descriptor its classes were checked against, and
     * the runtime (with {@code -Dsessionj.checkUsers=true}) refuses the changed protocol when it loads,
     * naming the stale class, before any session.
     */
    @Test
    @Timeout(900)
    void aUserModuleTheBuildDidNotRecompileAfterItsProtocolChangedFailsWhenTheProtocolLoads() throws Exception {
        Path project = work.resolve("stale-module");
        String parent = Files.readString(ROOT.resolve("samples/kv-maven/pom.xml"))
                .replace("<artifactId>kv</artifactId>", "<artifactId>two</artifactId><packaging>pom</packaging>"
                        + "<modules><module>protocols</module><module>client</module></modules>");
        write(project.resolve("pom.xml"), parent);
        write(project.resolve("protocols/pom.xml"), module("protocols", ""));
        write(project.resolve("client/pom.xml"), module("client", "<dependencies><dependency><groupId>com.example"
                + "</groupId><artifactId>protocols</artifactId><version>1.0-SNAPSHOT</version></dependency></dependencies>"));
        Path protocols = project.resolve("protocols/src/main/java/com/example/proto/Kv.java");
        write(protocols, """
                package com.example.proto;

                import org.sessionj.api.Protocol;

                public interface Kv {
                    @Protocol("cbegin.!<Integer>") interface Put {}
                }
                """);
        write(project.resolve("client/src/main/java/com/example/client/Client.java"), """
                package com.example.client;

                import com.example.proto.Kv;
                import org.sessionj.api.*;

                public final class Client {
                    public static void put(@Session(protocol = Kv.Put.class) SJService service) {
                        try (SJSocket s = service.request()) {
                            s.send(Integer.valueOf(1));
                        }
                    }
                }
                """);
        String onlyChanged = "-Dmaven.compiler.useIncrementalCompilation=false";
        Build first = staged.maven(project, onlyChanged, "compile");
        assertThat(first.status()).as("the first build:\n%s", first.output()).isZero();
        Path users = project.resolve("client/target/classes/META-INF/sessionj/users/com.example.proto.Kv$Put.txt");
        assertThat(users).content().contains("com.example.client.Client ").contains(" descriptor=");

        Path compiled = project.resolve("protocols/target/classes/com/example/proto/Kv$Put.class");
        Files.writeString(protocols, Files.readString(protocols).replace("!<Integer>", "!<Long>"));
        Files.setLastModifiedTime(protocols, FileTime.fromMillis(Files.getLastModifiedTime(compiled).toMillis() + 10_000));
        Build second = staged.maven(project, onlyChanged, "compile");
        assertThat(second.status()).as("Maven compiles the protocol module only:\n%s", second.output()).isZero();
        assertThat(second.output()).contains("Nothing to compile");

        java.net.URL[] output = {project.resolve("protocols/target/classes").toUri().toURL(),
                project.resolve("client/target/classes").toUri().toURL()};
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(output, getClass().getClassLoader())) {
            Class<?> put = Class.forName("com.example.proto.Kv$Put", false, loader);
            System.setProperty("sessionj.checkUsers", "true"); // off by default (cold start: docs/configuration.md)
            try {
                assertThatThrownBy(() -> org.sessionj.api.SJService.create(put, "localhost", 1))
                        .isInstanceOf(org.sessionj.api.SJException.class)
                        .hasMessageContaining("protocol com.example.proto.Kv$Put is not the version that "
                                + "com.example.client.Client was checked against at compile time")
                        .hasMessageContaining("client/target/classes/META-INF/sessionj/users/")
                        .hasMessageContaining("recompile the module that contains it");
            } finally {
                System.clearProperty("sessionj.checkUsers");
            }
        }
    }

    private static String module(String artifactId, String dependencies) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent><groupId>com.example</groupId><artifactId>two</artifactId><version>1.0-SNAPSHOT</version></parent>
                  <artifactId>%s</artifactId>
                  %s
                </project>
                """.formatted(artifactId, dependencies);
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void theReadmeShowsTheSamplesSnippetVerbatim() throws IOException {
        String pom = Files.readString(ROOT.resolve("samples/kv-maven/pom.xml"));
        List<String> readme = Files.readString(ROOT.resolve("README.md")).lines().map(String::strip).toList();
        Matcher part = Pattern.compile("<!-- snippet:begin -->\\n(.*?)\\n\\s*<!-- snippet:end -->", Pattern.DOTALL)
                .matcher(pom);
        int parts = 0;
        while (part.find()) {
            List<String> lines = part.group(1).lines().map(String::strip).toList();
            assertThat(java.util.Collections.indexOfSubList(readme, lines))
                    .as("README.md shows these lines of samples/kv-maven/pom.xml, in this order:\n%s", part.group(1))
                    .isNotNegative();
            parts++;
        }
        assertThat(parts).isEqualTo(2);
        String rootPom = Files.readString(ROOT.resolve("pom.xml"));
        for (String plugin : List.of("compiler", "resources", "surefire", "jar")) {
            Matcher version = Pattern.compile("<" + plugin + "-plugin.version>([^<]+)<").matcher(rootPom);
            assertThat(version.find()).isTrue();
            assertThat(pom).as("the sample pins maven-%s-plugin at the build's version (it builds offline)", plugin)
                    .containsPattern("<artifactId>maven-" + plugin + "-plugin</artifactId>\\s*<version>"
                            + Pattern.quote(version.group(1)) + "</version>");
        }
    }

    private static Path copySample(String name) throws IOException {
        Path source = ROOT.resolve("samples/kv-maven");
        Path target = work.resolve(name);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.filter(f -> !source.relativize(f).startsWith("target")).toList()) {
                Path copy = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
        return target;
    }

    /** {@code mvnw -o package} on {@code project}, with the staged repository in front of the shared one. */
    private static Build maven(Path project) throws IOException, InterruptedException {
        return staged.maven(project, "package");
    }
}
