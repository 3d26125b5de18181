package org.sessionj.crosscheck.bench;

import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Set;
import javax.annotation.processing.Completion;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * A processor wrapped so that the compiling thread's CPU time <em>inside</em> it is added up: its
 * {@code init}, its {@code process} rounds, and the task listeners it registers in {@code init} (the
 * checker runs in one, after each class is analysed). The listeners' time is measured between two
 * listeners of this class registered around the processor's own: javac calls listeners in the order
 * they were added, so what one {@code finished} call of the processor's listener costs is the time
 * between the first and the last. Only {@code ANALYZE} events are timed (the checker ignores the
 * others), which keeps the clock reads to two per class. Far steadier than the difference of two
 * whole compilations on a loaded machine: the other load moves javac's time, not this one's share.
 */
final class TimedProcessor implements Processor {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final Processor delegate;
    private long nanos;
    private long listenerStart = -1;

    TimedProcessor(Processor delegate) {
        this.delegate = delegate;
    }

    /** The thread CPU time spent inside the processor so far, in nanoseconds. */
    long nanos() {
        return nanos;
    }

    @Override
    public void init(ProcessingEnvironment environment) {
        long start = THREADS.getCurrentThreadCpuTime();
        JavacTask task = null;
        try {
            task = JavacTask.instance(environment);
        } catch (IllegalArgumentException notJavac) {
            // No listeners to time.
        }
        if (task != null) {
            task.addTaskListener(new TaskListener() {
                @Override
                public void finished(TaskEvent event) {
                    if (event.getKind() == TaskEvent.Kind.ANALYZE) {
                        listenerStart = THREADS.getCurrentThreadCpuTime();
                    }
                }
            });
        }
        long afterFirst = THREADS.getCurrentThreadCpuTime();
        delegate.init(environment);
        long afterInit = THREADS.getCurrentThreadCpuTime();
        if (task != null) {
            task.addTaskListener(new TaskListener() {
                @Override
                public void finished(TaskEvent event) {
                    if (event.getKind() == TaskEvent.Kind.ANALYZE && listenerStart >= 0) {
                        nanos += THREADS.getCurrentThreadCpuTime() - listenerStart;
                        listenerStart = -1;
                    }
                }
            });
        }
        nanos += afterInit - afterFirst;
        if (start < 0) {
            nanos = 0; // no thread CPU clock
        }
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        long start = THREADS.getCurrentThreadCpuTime();
        try {
            return delegate.process(annotations, round);
        } finally {
            nanos += THREADS.getCurrentThreadCpuTime() - start;
        }
    }

    @Override
    public Set<String> getSupportedOptions() {
        return delegate.getSupportedOptions();
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return delegate.getSupportedAnnotationTypes();
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return delegate.getSupportedSourceVersion();
    }

    @Override
    public Iterable<? extends Completion> getCompletions(Element element, AnnotationMirror annotation,
            ExecutableElement member, String userText) {
        return delegate.getCompletions(element, annotation, member, userText);
    }
}
