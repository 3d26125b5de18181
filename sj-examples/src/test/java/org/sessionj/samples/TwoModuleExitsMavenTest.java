package org.sessionj.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.samples.StagedRepository.ROOT;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.samples.StagedRepository.Build;

/**
 * adv20 A9 as a user meets it: a two-module Maven project (the README's snippet in the parent) built by this
 * repository's wrapper, offline, against artifacts staged from the build's classes ({@link StagedRepository}). The
 * library module's {@code book} holds a plain local session while it sends {@code LocalDate.parse(input)}; the app
 * module catches {@code DateTimeParseException} around {@code Booker.book(x)} and goes on. {@code mvn package}
 * compiles the app against the library's jar, which carries {@code META-INF/sessionj/exits/}: SJ024 at the app's
 * call, as with both files in one module. Then the library alone is corrected (try-with-resources) and the
 * project rebuilt without a clean: Maven recompiles the app (its dependency changed) and it builds; the
 * library changed back fails the app again, though the app's source never changed.
 */
class TwoModuleExitsMavenTest {
    @TempDir
    static Path work;

    private static final String PLAIN = """
                    SJSocket s = SJService.create(Booking.class, "localhost", 4000).request();
                    s.send(1);
                    s.send(LocalDate.parse(input));
                    s.close();
            """;

    private static final String RESOURCE = """
                    try (SJSocket s = SJService.create(Booking.class, "localhost", 4000).request()) {
                        s.send(1);
                        s.send(LocalDate.parse(input));
                    }
            """;

    private static final String BOOKER = """
            package com.example.lib;

            import java.time.LocalDate;
            import org.sessionj.api.*;

            /** Books a date with the booking server. */
            public final class Booker {
                @Protocol("cbegin.!<int>.!<java.time.LocalDate>") public interface Booking {}

                private Booker() {
                }

                /** Sends a booking for {@code input}, a date. */
                public static void book(String input) {
            %s    }
            }
            """;

    @Test
    @Timeout(1800)
    void anAppModulesCatchAroundALibraryMethodThatAbandonsItsSessionFailsTheBuild() throws Exception {
        StagedRepository staged = StagedRepository.stage(work.resolve("repository"));
        Path project = work.resolve("booking");
        String parent = Files.readString(ROOT.resolve("samples/kv-maven/pom.xml"))
                .replace("<artifactId>kv</artifactId>", "<artifactId>two</artifactId><packaging>pom</packaging>"
                        + "<modules><module>lib</module><module>app</module></modules>");
        write(project.resolve("pom.xml"), parent);
        write(project.resolve("lib/pom.xml"), module("lib", ""));
        write(project.resolve("app/pom.xml"), module("app", "<dependencies><dependency><groupId>com.example</groupId>"
                + "<artifactId>lib</artifactId><version>1.0-SNAPSHOT</version></dependency></dependencies>"));
        Path booker = project.resolve("lib/src/main/java/com/example/lib/Booker.java");
        write(booker, BOOKER.formatted(PLAIN));
        write(project.resolve("app/src/main/java/com/example/app/Main.java"), """
                package com.example.app;

                import com.example.lib.Booker;
                import java.time.format.DateTimeParseException;

                public final class Main {
                    public static void main(String[] args) {
                        for (String input : args) {
                            try {
                                Booker.book(input);
                            } catch (DateTimeParseException e) {
                                System.out.println("bad date, next: " + input);
                            }
                        }
                    }
                }
                """);

        Build wrong = staged.maven(project, "package");
        assertThat(wrong.status()).as("the app goes on after the library abandoned its session:\n%s", wrong.output())
                .isNotZero();
        assertThat(wrong.output()).containsPattern("Main\\.java:\\[10,\\d+\\] \\[SJ024\\] session 's' is not complete if, "
                + "in 'book', the call of 'parse' on line 17 throws an unchecked exception, which leaves 'book' \\(as the "
                + "compilation of com\\.example\\.lib\\.Booker recorded in META-INF/sessionj/exits/com\\.example\\.lib\\.Booker"
                + "\\.txt\\) and comes out of the call on line 10, where the catch on line 11 takes it and goes on");
        Path jar = project.resolve("lib/target/lib-1.0-SNAPSHOT.jar");
        try (JarFile library = new JarFile(jar.toFile())) {
            assertThat(library.getEntry("META-INF/sessionj/exits/com.example.lib.Booker.txt"))
                    .as("the app was compiled against the library's jar, which carries the record").isNotNull();
        }

        write(booker, BOOKER.formatted(RESOURCE));
        Build right = staged.maven(project, "package");
        assertThat(right.status()).as("the library closes its session on the way out:\n%s", right.output()).isZero();
        assertThat(project.resolve("lib/target/classes/META-INF/sessionj/exits/com.example.lib.Booker.txt")).content()
                .startsWith("# sj-processor exits 1:").doesNotContain("book(java.lang.String)");

        write(booker, BOOKER.formatted(PLAIN));
        Build again = staged.maven(project, "package");
        assertThat(again.status()).as("the library abandons it again, the app unchanged:\n%s", again.output()).isNotZero();
        assertThat(again.output()).containsPattern("Main\\.java:\\[10,\\d+\\] \\[SJ024\\]");
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
}
