package org.sessionj.runtime.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The runtime's walks over session types on a session's set-up path use no pattern {@code switch}
 * (issue 15, cold start; sj-api's {@code NoPatternSwitchTest} says why): a class that links one names
 * {@code java.lang.runtime.SwitchBootstraps} in its constant pool.
 */
class NoPatternSwitchTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "org.sessionj.runtime.internal.monitor.StateMachine",
        "org.sessionj.runtime.internal.protocol.ReachableClasses",
        "org.sessionj.runtime.internal.protocol.TypeNameResolver",
    })
    void linksNoSwitchBootstrap(String className) throws IOException {
        String resource = "/" + className.replace('.', '/') + ".class";
        try (InputStream in = NoPatternSwitchTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("class file of " + className).isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).as(className)
                    .doesNotContain("java/lang/runtime/SwitchBootstraps");
        }
    }
}
