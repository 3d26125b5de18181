package org.sessionj.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sessionj.cli.SjCommandAccess;
import picocli.CommandLine;

/**
 * Keeps the README and docs/ true to the repository: every file they name exists (the docs must stand
 * alone, so nothing outside the repository is cited), and every {@code ./sj} command they show names
 * real subcommands.
 */
class DocsLinkTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    /** A repository path: docs/…, samples/…, scripts/… or a module's files. */
    private static final Pattern PATH = Pattern.compile(
            "(?<![\\w/.-])((?:docs|samples|scripts|sj-[a-z]+(?:-[a-z]+)*)/[A-Za-z0-9_./-]*[A-Za-z0-9_])");
    /** What lies outside the repository. */
    private static final Pattern OUTSIDE = Pattern.compile("shared/papers|DESIGN\\.md|/work/|\\.\\./shared");
    private static final Pattern SJ_COMMAND = Pattern.compile("(?m)\\./sj((?: +[a-z][a-z-]*)+)");

    @Test
    void everyFileTheDocsNameExistsAndNothingOutsideTheRepositoryIsCited() {
        TreeSet<String> missing = new TreeSet<>();
        TreeSet<String> outside = new TreeSet<>();
        for (Path doc : documents()) {
            String text = read(doc);
            Matcher m = PATH.matcher(text);
            while (m.find()) {
                String path = m.group(1);
                if (path.contains("/target/") || path.endsWith("/target")) {
                    continue; // build output, made by the command next to it
                }
                if (!Files.exists(ROOT.resolve(path))) {
                    missing.add(ROOT.relativize(doc) + ": " + path);
                }
            }
            Matcher o = OUTSIDE.matcher(text);
            while (o.find()) {
                outside.add(ROOT.relativize(doc) + ": " + o.group());
            }
        }
        assertThat(missing).as("files named in README.md and docs/ that do not exist").isEmpty();
        assertThat(outside).as("references to files outside the repository").isEmpty();
    }

    @Test
    void everySjCommandShownNamesRealSubcommands() {
        TreeSet<String> unknown = new TreeSet<>();
        int checked = 0;
        for (Path doc : documents()) {
            Matcher m = SJ_COMMAND.matcher(read(doc));
            while (m.find()) {
                CommandLine command = SjCommandAccess.commandLine();
                for (String word : m.group(1).strip().split(" +")) {
                    Map<String, CommandLine> subcommands = command.getSubcommands();
                    if (subcommands.isEmpty()) {
                        break; // the rest are the leaf command's arguments
                    }
                    CommandLine next = subcommands.get(word);
                    if (next == null) {
                        unknown.add(ROOT.relativize(doc) + ": ./sj" + m.group(1));
                        break;
                    }
                    command = next;
                }
                checked++;
            }
        }
        assertThat(checked).as("./sj commands found in the docs").isGreaterThan(10);
        assertThat(unknown).as("./sj commands whose subcommands do not exist").isEmpty();
    }

    private static List<Path> documents() {
        List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
