package org.sessionj.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/configuration.md, the list of every {@code sessionj.*} system property, true: every
 * setting the library's sources read is documented there, every documented one is read, and no
 * source reads a property around {@code SystemSettings} (which owns the prefix and the deprecated names).
 */
class ConfigurationDocTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    /** A setting name handed to SystemSettings or SpinThenPark.fromSetting. */
    private static final Pattern READ = Pattern.compile(
            "\\.(?:value|string|integer|flag|duration|property|fromSetting|withYieldsFromSetting)\\(\\s*\"([a-zA-Z][a-zA-Z0-9.]*)\"");
    private static final Pattern DOCUMENTED = Pattern.compile("^\\| `sessionj\\.([a-zA-Z0-9.]+)` \\|", Pattern.MULTILINE);
    /** Reading a property around SystemSettings. */
    private static final Pattern BYPASS = Pattern.compile(
            "getProperty\\(\\s*\"(?:sessionj|sj)\\.|Integer\\.getInteger\\(|Long\\.getLong\\(|Boolean\\.getBoolean\\(");

    @Test
    void everySettingReadIsDocumentedAndEveryDocumentedOneIsRead() throws IOException {
        TreeMap<String, Path> read = new TreeMap<>();
        for (Path file : mainSources()) {
            String text = Files.readString(file);
            if (!text.contains("SystemSettings") && !text.contains("fromSetting(")) {
                continue;
            }
            Matcher m = READ.matcher(text);
            while (m.find()) {
                read.putIfAbsent(m.group(1), ROOT.relativize(file));
            }
        }
        Set<String> documented = new TreeSet<>();
        Matcher m = DOCUMENTED.matcher(Files.readString(ROOT.resolve("docs/configuration.md")));
        while (m.find()) {
            documented.add(m.group(1));
        }
        assertThat(read).as("settings read by the sources").isNotEmpty();
        assertThat(documented).as("settings in docs/configuration.md; each one read (file) must be listed")
                .containsAll(read.keySet());
        assertThat(read.keySet()).as("settings read by the sources; docs/configuration.md lists one no source reads")
                .containsAll(documented);
    }

    @Test
    void noSourceReadsAPropertyAroundSystemSettings() {
        List<String> bypasses = mainSources().stream()
                .filter(file -> !file.endsWith("SystemSettings.java"))
                .filter(file -> BYPASS.matcher(read(file)).find())
                .map(file -> ROOT.relativize(file).toString())
                .toList();
        assertThat(bypasses).as("read sessionj.* settings through SystemSettings").isEmpty();
    }

    private static List<Path> mainSources() {
        try (Stream<Path> modules = Files.list(ROOT)) {
            return modules.filter(dir -> dir.getFileName().toString().startsWith("sj-"))
                    .map(dir -> dir.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .flatMap(ConfigurationDocTest::javaFiles)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stream<Path> javaFiles(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
