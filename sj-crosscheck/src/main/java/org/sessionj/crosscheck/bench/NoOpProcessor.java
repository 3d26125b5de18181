package org.sessionj.crosscheck.bench;

import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

/**
 * Claims the annotations sj-processor claims and does nothing: the cost of annotation processing
 * itself (processor discovery, rounds), which any processor pays.
 */
@SupportedAnnotationTypes("org.sessionj.api.*")
public final class NoOpProcessor extends AbstractProcessor {
    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        return true;
    }
}
