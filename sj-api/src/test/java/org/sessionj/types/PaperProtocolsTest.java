package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.types.SessionTypes.parse;
import static org.sessionj.types.SessionTypes.print;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sessionj.types.Payload.JavaType;

/** Every protocol printed in the two SJ papers (src/test/resources/paper-protocols.txt). */
class PaperProtocolsTest {

    record Entry(String name, String protocol, Map<String, String> defines, String dual) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Entry> entries() throws IOException {
        String text;
        try (InputStream in = PaperProtocolsTest.class.getResourceAsStream("/paper-protocols.txt")) {
            assertThat(in).as("paper-protocols.txt on the test class path").isNotNull();
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Entry> entries = new ArrayList<>();
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : (text + "\n\n").lines().toList()) {
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isBlank()) {
                if (!fields.isEmpty()) {
                    entries.add(entry(fields));
                    fields.clear();
                }
                continue;
            }
            int colon = line.indexOf(':');
            fields.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
        }
        return entries;
    }

    private static Entry entry(Map<String, String> fields) {
        Map<String, String> defines = new LinkedHashMap<>();
        String written = fields.get("defines");
        if (written != null) {
            for (String definition : written.split(" ; ")) {
                int eq = definition.indexOf('=');
                defines.put(definition.substring(0, eq).strip(), definition.substring(eq + 1).strip());
            }
        }
        return new Entry(fields.get("name"), fields.get("protocol"), defines, fields.get("dual"));
    }

    /**
     * The entry's definitions; protocols the papers never print (appletToWebmail, ...) stand for
     * an opaque message so that their references still expand, consistently for @(P) and ^(P).
     */
    private static ProtocolResolver resolver(Entry entry) {
        return name -> Optional.of(entry.defines().containsKey(name)
                ? parse(entry.defines().get(name))
                : SessionType.of(new Action.Send(JavaType.of("Unprinted_" + name))));
    }

    @Test
    void theFileHoldsTheProtocolsOfBothPapers() throws IOException {
        List<Entry> entries = entries();
        assertThat(entries).hasSizeGreaterThanOrEqualTo(25);
        assertThat(entries).extracting(Entry::name).doesNotHaveDuplicates()
                .contains("p000-fig4-masterToWorker", "p000-fig9-serverToClient", "p001-appA-p_mw");
        assertThat(entries).allSatisfy(e -> {
            assertThat(e.protocol()).as(e.name()).isNotNull();
            assertThat(e.dual()).as(e.name()).isNotNull();
        });
    }

    static Stream<Entry> entriesStream() throws IOException {
        return entries().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entriesStream")
    void parsesRoundTripsIsWellFormedAndHasTheStatedDual(Entry entry) {
        SessionType type = parse(entry.protocol());
        assertThat(parse(print(type))).isEqualTo(type);
        assertThat(print(type)).isEqualTo(entry.protocol());
        entry.defines().values().forEach(definition -> assertThat(print(parse(definition))).isEqualTo(definition));

        SessionType expanded = SessionTypes.expand(type, resolver(entry));
        SessionTypes.checkWellFormed(expanded);
        assertThat(parse(print(expanded))).isEqualTo(expanded);

        SessionType statedDual = parse(entry.dual());
        assertThat(print(statedDual)).isEqualTo(entry.dual());
        SessionType expandedDual = SessionTypes.expand(statedDual, resolver(entry));
        assertThat(SessionTypes.equivalent(SessionTypes.dual(expanded), expandedDual))
                .as("dual of %s is %s", print(expanded), print(expandedDual)).isTrue();
        if (!entry.protocol().contains("@(") && !entry.protocol().contains("^(")) {
            assertThat(print(SessionTypes.dual(type))).isEqualTo(entry.dual());
        }

        // The two sides of every session the papers declare may initiate with each other.
        if (!expanded.isEnd() && expanded.head() instanceof Action.Begin begin) {
            SessionType requester = begin.side() == Side.REQUEST ? expanded : expandedDual;
            SessionType accepter = begin.side() == Side.REQUEST ? expandedDual : expanded;
            assertThat(SessionTypes.compatible(requester, accepter, JavaSubtyping.EXACT)).isTrue();
        }
    }

    @Test
    void serverToClientIsTheDualOfClientToServerAsFigure9Says() throws IOException {
        Entry client = entries().stream().filter(e -> e.name().equals("p000-fig9-clientToServer")).findFirst()
                .orElseThrow();
        Entry server = entries().stream().filter(e -> e.name().equals("p000-fig9-serverToClient")).findFirst()
                .orElseThrow();
        SessionType clientType = SessionTypes.expand(parse(client.protocol()), resolver(client));
        SessionType serverType = SessionTypes.expand(parse(server.protocol()), resolver(server));
        assertThat(serverType).isEqualTo(SessionTypes.dual(clientType));
        assertThat(SessionTypes.compatible(clientType, serverType, JavaSubtyping.EXACT)).isTrue();
        assertThat(SessionTypes.compatible(clientType, clientType, JavaSubtyping.EXACT)).isFalse();
    }
}
