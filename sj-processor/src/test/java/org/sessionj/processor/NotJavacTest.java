package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.tools.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * Under a compiler that is not javac (Eclipse's ECJ in an IDE: adv12 A9) the processor cannot check
 * anything, since its checks read javac's trees. It must say so once, as a warning, and let the
 * compilation go on; before, {@code Trees.instance} threw out of {@code init} and ECJ aborted the
 * compilation with a stack trace.
 */
class NotJavacTest {
    @Test
    void anotherCompilerGetsOneWarningAndTheCompilationGoesOn() {
        List<String> printed = new ArrayList<>();
        Messager messager = (Messager) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Messager.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("printMessage")) {
                        printed.add(arguments[0] + ": " + arguments[1]);
                    }
                    return null;
                });
        ProcessingEnvironment environment = (ProcessingEnvironment) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {ProcessingEnvironment.class},
                (proxy, method, arguments) -> switch (method.getName()) {
                    case "getMessager" -> messager;
                    case "getOptions" -> Map.of();
                    case "getSourceVersion" -> SourceVersion.latestSupported();
                    case "getLocale" -> Locale.ROOT;
                    case "toString" -> "ECJ-like environment";
                    default -> null;
                });
        SessionProcessor processor = new SessionProcessor();
        processor.init(environment);
        RoundEnvironment round = (RoundEnvironment) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RoundEnvironment.class}, (proxy, method, arguments) -> Set.of());
        assertThat(processor.process(Set.of(), round)).isFalse();
        assertThat(printed).containsExactly(Diagnostic.Kind.WARNING + ": " + SessionProcessor.NOT_JAVAC);
    }
}
