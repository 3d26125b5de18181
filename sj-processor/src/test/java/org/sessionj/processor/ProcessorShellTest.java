package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What javac asks the processor before any round (issue 12, compile time). javac loads the processor
 * afresh for every compilation; {@code AbstractProcessor} answers these questions by reading the class's
 * {@code @SupportedAnnotationTypes} and {@code @SupportedOptions} by reflection, which parses the
 * annotation and spins a proxy class for it, every time. So the processor answers in code and carries
 * no annotation that reflection can see.
 */
class ProcessorShellTest {

    @Test
    void claimsTheAnnotationsOfTheApiPackageAndNoOption() {
        SessionProcessor processor = new SessionProcessor();
        assertThat(processor.getSupportedAnnotationTypes()).containsExactly("org.sessionj.api.*");
        assertThat(processor.getSupportedOptions()).isEmpty();
    }

    @Test
    void carriesNoRuntimeVisibleAnnotation() {
        assertThat(SessionProcessor.class.getDeclaredAnnotations()).isEmpty();
    }
}
