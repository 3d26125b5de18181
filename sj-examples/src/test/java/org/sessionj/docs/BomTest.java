package org.sessionj.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps sj-bom true: it is standalone (so importing it pins no test or plugin versions), hence repeats
 * the root pom's versions of the libraries SJ runs with; they must stay equal, every library module
 * must be in it, and every third-party library a library module uses must be managed by it.
 */
class BomTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final List<String> LIBRARY_MODULES = List.of("sj-api", "sj-processor", "sj-runtime",
            "sj-transport-shm", "sj-transport-netty", "sj-transport-http", "sj-all");
    private static final Pattern PROPERTY = Pattern.compile("<([a-z.]+\\.version)>([^<]+)</\\1>");
    private static final Pattern DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>(.*?)</dependency>",
            Pattern.DOTALL);

    @Test
    void theBomsThirdPartyVersionsAreTheBuildsVersions() throws IOException {
        String root = Files.readString(ROOT.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("sj-bom/pom.xml"));
        Matcher m = PROPERTY.matcher(bom);
        int checked = 0;
        while (m.find()) {
            if (m.group(1).equals("sj.version")) {
                assertThat(m.group(2)).as("sj-bom's sj.version").isEqualTo(projectVersion(root));
                continue;
            }
            assertThat(root).as("root pom.xml must define %s as sj-bom does", m.group(1))
                    .contains("<" + m.group(1) + ">" + m.group(2) + "</" + m.group(1) + ">");
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(5);
    }

    private static String projectVersion(String rootPom) {
        Matcher m = Pattern.compile("<artifactId>sj-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(rootPom);
        assertThat(m.find()).as("the root pom's version").isTrue();
        return m.group(1);
    }

    @Test
    void everyLibraryModuleAndEveryLibraryItUsesIsManaged() throws IOException {
        String bom = Files.readString(ROOT.resolve("sj-bom/pom.xml"));
        Set<String> managed = new TreeSet<>();
        Matcher managedMatcher = DEPENDENCY.matcher(bom);
        while (managedMatcher.find()) {
            managed.add(managedMatcher.group(1) + ":" + managedMatcher.group(2));
        }
        Set<String> missing = new TreeSet<>();
        for (String module : LIBRARY_MODULES) {
            if (!managed.contains("org.sessionj:" + module)) {
                missing.add("org.sessionj:" + module);
            }
            Matcher m = DEPENDENCY.matcher(Files.readString(ROOT.resolve(module).resolve("pom.xml")));
            while (m.find()) {
                String group = m.group(1);
                String rest = m.group(3);
                boolean shipped = !rest.contains("<scope>test</scope>") && !rest.contains("<scope>provided</scope>");
                if (!shipped || group.equals("org.sessionj")) {
                    continue;
                }
                boolean byImportedBom = (group.equals("io.netty") && managed.contains("io.netty:netty-bom"))
                        || (group.startsWith("com.fasterxml.jackson") && managed.contains("com.fasterxml.jackson:jackson-bom"));
                if (!byImportedBom && !managed.contains(group + ":" + m.group(2))) {
                    missing.add(group + ":" + m.group(2) + " (used by " + module + ")");
                }
            }
        }
        assertThat(missing).as("not managed by sj-bom/pom.xml").isEmpty();
    }
}
