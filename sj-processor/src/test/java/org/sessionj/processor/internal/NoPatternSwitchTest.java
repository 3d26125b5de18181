package org.sessionj.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The processor's protocol path (validation of every {@code @Protocol}, resolution of every
 * {@code @Session} text, unfolding) uses no pattern {@code switch} (issue 12, compile time): javac
 * loads the processor in a fresh class loader for every compilation (Maven's
 * {@code annotationProcessorPaths}), so each such switch is linked through
 * {@code java.lang.runtime.SwitchBootstraps} afresh every time, spinning a class with the classfile
 * API. They test the class with {@code instanceof} instead. The check reads each class file's constant
 * pool: a class that links a pattern switch names {@code SwitchBootstraps} there.
 */
class NoPatternSwitchTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "org.sessionj.processor.SessionProcessor",
        "org.sessionj.processor.internal.protocol.ProtocolRegistry",
        "org.sessionj.processor.internal.protocol.ProtocolRegistry$NameRewriter",
        "org.sessionj.processor.internal.model.TypeModel",
    })
    void linksNoSwitchBootstrap(String className) throws IOException {
        assertThat(constantPoolText(className)).as(className).doesNotContain("java/lang/runtime/SwitchBootstraps");
    }

    /** The class file of {@code className} as Latin-1 text (its constant pool's names are readable in it). */
    private static String constantPoolText(String className) throws IOException {
        String resource = "/" + className.replace('.', '/') + ".class";
        try (InputStream in = NoPatternSwitchTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("class file of " + className).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
