package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Keeps docs/diagnostics.md in sync with the catalogue: every code has a section, and each section's
 * wrong examples fail with exactly that code while their corrected versions compile cleanly (the
 * examples come in pairs: wrong, corrected).
 */
class DiagnosticsDocumentationTest {
    private static final Pattern SECTION = Pattern.compile("^## (SJ\\d{3}) — (.+)$", Pattern.MULTILINE);
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    private static String document() throws IOException {
        return Files.readString(Path.of("..", "docs", "diagnostics.md"), StandardCharsets.UTF_8);
    }

    /**
     * Marks a section whose wrong example is a build of several compilations, not one snippet: its
     * examples are shown, not compiled here (the named tests run that build).
     */
    private static final String BUILD_EXAMPLE = "<!-- a build, not one compilation:";

    private record Section(String code, String title, String wrong, String corrected, boolean build) {
    }

    private static List<Section> sections() throws IOException {
        String doc = document();
        List<Section> sections = new ArrayList<>();
        Matcher heading = SECTION.matcher(doc);
        List<int[]> bounds = new ArrayList<>();
        List<String[]> names = new ArrayList<>();
        while (heading.find()) {
            bounds.add(new int[] {heading.start(), heading.end()});
            names.add(new String[] {heading.group(1), heading.group(2)});
        }
        for (int i = 0; i < bounds.size(); i++) {
            int end = i + 1 < bounds.size() ? bounds.get(i + 1)[0] : doc.length();
            String text = doc.substring(bounds.get(i)[1], end);
            Matcher block = JAVA_BLOCK.matcher(text);
            List<String> blocks = new ArrayList<>();
            while (block.find()) {
                blocks.add(block.group(1));
            }
            // A wrong example and its corrected version, and more such pairs where a rule has several sides.
            assertThat(blocks).as("java blocks of " + names.get(i)[0]).isNotEmpty();
            assertThat(blocks.size() % 2).as("java blocks of " + names.get(i)[0] + " come in pairs").isZero();
            for (int pair = 0; pair < blocks.size(); pair += 2) {
                sections.add(new Section(names.get(i)[0], names.get(i)[1], blocks.get(pair), blocks.get(pair + 1),
                        text.contains(BUILD_EXAMPLE)));
            }
        }
        return sections;
    }

    @Test
    void everyCatalogueCodeIsDocumentedWithItsTitleAndNothingElse() throws IOException {
        List<String> documented = sections().stream().map(s -> s.code() + " " + s.title()).distinct().toList();
        List<String> catalogue = Arrays.stream(org.sessionj.processor.check.Diagnostic.values())
                .map(d -> d.code() + " " + d.title()).toList();
        assertThat(documented).containsExactlyElementsOf(catalogue);
    }

    @Test
    void onlyTheStaleCheckIsExemplifiedByABuild() throws IOException {
        assertThat(sections().stream().filter(Section::build).map(Section::code).distinct()).containsExactly("SJ009");
    }

    @TestFactory
    Stream<DynamicTest> everyExampleBehavesAsDocumented() throws IOException {
        return sections().stream().filter(section -> !section.build()).flatMap(section -> Stream.of(
                DynamicTest.dynamicTest(section.code() + " wrong example is rejected with " + section.code(), () -> {
                    Compilation compilation = CompilerHarness.compile(section.wrong());
                    List<String> errors = compilation.errors().stream()
                            .map(d -> d.getMessage(Locale.ROOT)).toList();
                    assertThat(errors).as(CompilerHarness.describe(compilation)).hasSize(1);
                    assertThat(errors.get(0)).startsWith("[" + section.code() + "]");
                }),
                DynamicTest.dynamicTest(section.code() + " corrected example compiles cleanly", () -> {
                    Compilation compilation = CompilerHarness.compile(section.corrected());
                    List<Diagnostic<? extends JavaFileObject>> diagnostics = new ArrayList<>(compilation.diagnostics());
                    assertThat(diagnostics).as(CompilerHarness.describe(compilation)).isEmpty();
                })));
    }
}
