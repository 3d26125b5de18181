package org.sessionj.runtime.internal.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * adv13 A4: a message class in a package its named module does not open gets the line to add; the JDK's
 * own classes and the class path get no advice (a protocol of !<Number> used to be told to change java.base).
 */
class ModuleOpensTest {
    @TempDir
    Path root;

    @Test
    void aClassInAPackageItsModuleDoesNotOpenNamesTheOpensLineOnce() throws Exception {
        Path sources = root.resolve("src");
        Files.createDirectories(sources.resolve("demo/msg"));
        Files.writeString(sources.resolve("module-info.java"), "module demo.msg { exports demo.msg; }");
        Files.writeString(sources.resolve("demo/msg/Pt.java"), "package demo.msg; public record Pt(int x) {}");
        Path classes = root.resolve("classes");
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                sources.resolve("module-info.java").toString(), sources.resolve("demo/msg/Pt.java").toString())).isZero();
        ModuleLayer boot = ModuleLayer.boot();
        Configuration configuration = boot.configuration().resolve(ModuleFinder.of(classes), ModuleFinder.of(),
                Set.of("demo.msg"));
        Class<?> point = boot.defineModulesWithOneLoader(configuration, ClassLoader.getSystemClassLoader())
                .findLoader("demo.msg").loadClass("demo.msg.Pt");

        String advice = ModuleOpens.advice(point.arrayType());
        assertThat(advice).contains("module demo.msg does not open package demo.msg", "add 'opens demo.msg;'");
        assertThat(advice).doesNotContain("ALL-UNNAMED and ALL-UNNAMED");
    }

    @Test
    void theJdksClassesAndTheClassPathGetNoAdvice() {
        assertThat(ModuleOpens.advice(Number.class)).isNull();
        assertThat(ModuleOpens.advice(String[].class)).isNull();
        assertThat(ModuleOpens.advice(int.class)).isNull();
        assertThat(ModuleOpens.advice(ModuleOpensTest.class)).isNull();
    }
}
