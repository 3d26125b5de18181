package org.sessionj.crosscheck.bench;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import javax.annotation.processing.Processor;

/**
 * A fresh class loader for one compilation's processor, as javac makes for {@code -processorpath}
 * under Maven, so that the processor's classes really load, link and run cold in every compilation.
 *
 * <p>Why javac's own loader would not do here: its parent is javac's class loader, which in this JVM
 * is the application class loader, and this JVM's class path holds sj-processor, sj-api and JavaParser
 * (the harness generates its program with them). Parent-first delegation then takes every processor
 * class from there: one warm copy for the whole run, however many loaders javac makes (the benchmark
 * measured exactly that before 2026-11-27's fifth session). Under Maven the parent (Maven's own
 * application class loader) holds none of them. Here the parent hides the processors' packages.
 */
final class IsolatedProcessorLoader extends URLClassLoader {
    /** Packages the parent must not supply: those of the processors and of their dependencies. */
    private static final String[] HIDDEN = {"org.sessionj.", "com.github.javaparser."};

    /**
     * @param path the processor path, entries separated by {@link File#pathSeparator}
     * @param javacLoader javac's class loader, the parent of javac's own processor loader
     */
    IsolatedProcessorLoader(String path, ClassLoader javacLoader) throws MalformedURLException {
        super(urls(path), new Hiding(javacLoader));
    }

    /** A new instance of the processor class {@code name}, loaded by this loader. */
    Processor processor(String name) {
        try {
            return loadClass(name).asSubclass(Processor.class).getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate the processor " + name + " from " + this, e);
        }
    }

    private static URL[] urls(String path) throws MalformedURLException {
        String[] entries = path.split(File.pathSeparator);
        URL[] urls = new URL[entries.length];
        for (int i = 0; i < entries.length; i++) {
            urls[i] = Path.of(entries[i]).toUri().toURL();
        }
        return urls;
    }

    /** Delegates to javac's class loader, except for the hidden packages. */
    private static final class Hiding extends ClassLoader {
        Hiding(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (hidden(name)) {
                throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
        }

        @Override
        public URL getResource(String name) {
            return hidden(name.replace('/', '.')) ? null : super.getResource(name);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return hidden(name.replace('/', '.')) ? Collections.emptyEnumeration() : super.getResources(name);
        }

        private static boolean hidden(String name) {
            for (String prefix : HIDDEN) {
                if (name.startsWith(prefix)) {
                    return true;
                }
            }
            return false;
        }
    }
}
