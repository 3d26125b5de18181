package org.sessionj.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The processor's protocol path (validation of every {@code @Protocol}, resolution of every
 * {@code @Session} text, unfolding) and the checker's paths that every compilation of sessions runs
 * (sends, receives, loops, joins, try statements, calls) use no pattern {@code switch} and no lambda or
 * method reference (issue 12, compile time): javac loads the processor in a fresh class loader for
 * every compilation (Maven's {@code annotationProcessorPaths}), so each such switch is linked through
 * {@code java.lang.runtime.SwitchBootstraps} and each lambda through {@code LambdaMetafactory} afresh
 * every time, each spinning a class with the classfile API (51 lambda classes and 5 switch classes per
 * compilation of the compile-time benchmark before they were removed). They test the class with
 * {@code instanceof} and use loops, named classes and plain map calls instead. The check reads each
 * class file's constant pool: a class that links a pattern switch names {@code SwitchBootstraps} there,
 * one that creates a lambda or method reference names {@code LambdaMetafactory}.
 */
class NoPatternSwitchTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "org.sessionj.processor.SessionProcessor",
        "org.sessionj.processor.internal.protocol.ProtocolRegistry",
        "org.sessionj.processor.internal.protocol.ProtocolRegistry$NameRewriter",
        "org.sessionj.processor.internal.model.TypeModel",
        "org.sessionj.processor.internal.model.TypeText",
        "org.sessionj.processor.internal.protocol.TypeNameResolver",
        "org.sessionj.processor.check.SessionActionRules",
        "org.sessionj.processor.check.SessionOriginRules",
        "org.sessionj.processor.check.NoAliasRules",
        "org.sessionj.processor.check.NoAliasValues",
        "org.sessionj.processor.check.NoAliasFieldWindow",
        "org.sessionj.processor.check.MoveContexts",
        "org.sessionj.processor.check.JdkCopies",
        "org.sessionj.processor.check.ChoiceRules",
    })
    void linksNoSwitchBootstrap(String className) throws IOException {
        assertThat(constantPoolText(className)).as(className).doesNotContain("java/lang/runtime/SwitchBootstraps");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "org.sessionj.processor.SessionProcessor",
        "org.sessionj.processor.internal.protocol.ProtocolRegistry",
        "org.sessionj.processor.internal.protocol.ProtocolRegistry$NameRewriter",
        "org.sessionj.processor.internal.protocol.TypeNameResolver",
        "org.sessionj.processor.internal.protocol.DescriptorClass",
        "org.sessionj.processor.internal.protocol.DescriptorClass$Bytes",
        "org.sessionj.processor.internal.model.TypeModel",
        "org.sessionj.processor.internal.model.TypeText",
        "org.sessionj.processor.internal.flow.FlowState",
        "org.sessionj.processor.check.FlowScanner",
        "org.sessionj.processor.check.IterationRules",
        "org.sessionj.processor.check.LinearityRules",
        "org.sessionj.processor.check.LentSessions",
        "org.sessionj.processor.check.NoAliasRules",
        "org.sessionj.processor.check.NoAliasValues",
        "org.sessionj.processor.check.NoAliasFieldWindow",
        "org.sessionj.processor.check.MoveContexts",
        "org.sessionj.processor.check.SessionOriginRules",
        "org.sessionj.processor.check.SessionParameters",
        "org.sessionj.processor.check.MessageTypes",
        "org.sessionj.processor.check.SessionRelevance",
        "org.sessionj.processor.check.SessionChecker",
        "org.sessionj.processor.check.LiveSessionExits",
        "org.sessionj.processor.check.CatchClauses",
        "org.sessionj.processor.check.UncheckedExits",
        "org.sessionj.processor.check.FunctionRunners",
        "org.sessionj.processor.check.LazyStreams",
        "org.sessionj.processor.check.EndingsResource",
        "org.sessionj.processor.internal.facts.OutputResources",
        "org.sessionj.processor.internal.protocol.DescriptorSources",
    })
    void spinsNoLambda(String className) throws IOException {
        assertThat(constantPoolText(className)).as(className).doesNotContain("java/lang/invoke/LambdaMetafactory");
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
