package org.sessionj.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.cli.SjCommand;

/**
 * docs/getting-started.md's commands, as written there: {@code ./sj example kv server} in one JVM and
 * {@code ./sj example kv client} in two others, which share the store across sessions.
 */
class KvExampleTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    @Timeout(180)
    void aServerAndTwoClientsInThreeJvmsShareTheStore() throws Exception {
        String classPath = System.getProperty("java.class.path");
        try (ChildJvm server = ChildJvm.start(classPath, SjCommand.class.getName(), "example", "kv", "server", "--port", "0")) {
            String port = server.await(Pattern.compile("kv server: listening on session port (\\d+)"), WAIT);

            ChildJvm.Result first;
            try (ChildJvm client = ChildJvm.start(classPath, SjCommand.class.getName(), "example", "kv", "client",
                    "--port", port, "put", "lang", "Java", "get", "lang", "put", "lang", "SJ", "get", "nobody")) {
                first = client.finish(WAIT);
            }
            assertThat(first.status()).as(first.output()).isZero();
            assertThat(first.output()).containsSubsequence("lang stored", "lang = Java", "lang replaced", "nobody: missing");

            ChildJvm.Result second;
            try (ChildJvm client = ChildJvm.start(classPath, SjCommand.class.getName(), "example", "kv", "client",
                    "--port", port, "get", "lang")) {
                second = client.finish(WAIT);
            }
            assertThat(second.status()).as(second.output()).isZero();
            assertThat(second.output()).contains("lang = SJ");
        }
    }

    @Test
    @Timeout(60)
    void aMalformedCommandIsAUsageErrorNamingIt() throws Exception {
        try (ChildJvm client = ChildJvm.start(System.getProperty("java.class.path"), SjCommand.class.getName(),
                "example", "kv", "client", "--port", "1", "put", "lang")) {
            ChildJvm.Result result = client.finish(WAIT);
            assertThat(result.status()).isEqualTo(2);
            assertThat(result.output()).contains("expected 'put KEY VALUE' or 'get KEY' but found 'put lang'");
        }
    }
}
