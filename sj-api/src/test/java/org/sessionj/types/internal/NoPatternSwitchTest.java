package org.sessionj.types.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The type algorithms a session's set-up runs use no pattern {@code switch} (issue 15, cold start): each
 * is linked through {@code java.lang.runtime.SwitchBootstraps} on first use, which spins a class with the
 * classfile API; 14 such sites cost a fresh JVM's first session 11–16 ms of CPU even with an AOT cache.
 * They test the class with {@code instanceof} instead. The check reads each class file's constant pool:
 * a class that links a pattern switch names {@code SwitchBootstraps} there.
 */
class NoPatternSwitchTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "org.sessionj.types.SessionType", "org.sessionj.types.SessionType$Equality",
        "org.sessionj.types.internal.Printer", "org.sessionj.types.internal.WellFormedness",
        "org.sessionj.types.internal.Duality", "org.sessionj.types.internal.TypeRewriter",
        "org.sessionj.types.internal.Subtyping", "org.sessionj.types.internal.Unfolding",
        "org.sessionj.types.internal.Unfolding$Substitution", "org.sessionj.types.internal.Expander",
        "org.sessionj.types.internal.Expander$Inliner",
        "org.sessionj.types.internal.FreeVariables",
    })
    void linksNoSwitchBootstrap(String className) throws IOException {
        assertThat(constantPoolText(className)).as(className).doesNotContain("java/lang/runtime/SwitchBootstraps");
    }

    /**
     * Nor do the algorithms every compilation runs on every protocol (parse, well-formedness,
     * expansion) create a lambda or method reference (issue 12, compile time): javac loads sj-api with
     * the processor afresh for every compilation, so each would be linked through
     * {@code LambdaMetafactory}, spinning a class, every time.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "org.sessionj.types.Action", "org.sessionj.types.ParsedProtocol", "org.sessionj.types.SessionTypes",
        "org.sessionj.types.SessionType", "org.sessionj.types.internal.WellFormedness",
        "org.sessionj.types.internal.Expander", "org.sessionj.types.internal.ProtocolParser",
        "org.sessionj.types.internal.TypeRewriter", "org.sessionj.types.internal.FreeVariables",
    })
    void spinsNoLambda(String className) throws IOException {
        assertThat(constantPoolText(className)).as(className).doesNotContain("java/lang/invoke/LambdaMetafactory");
    }

    /** The class file of {@code className} as Latin-1 text (its constant pool's names are readable in it). */
    static String constantPoolText(String className) throws IOException {
        String resource = "/" + className.replace('.', '/') + ".class";
        try (InputStream in = NoPatternSwitchTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("class file of " + className).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
