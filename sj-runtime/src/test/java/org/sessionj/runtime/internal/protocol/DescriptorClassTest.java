package org.sessionj.runtime.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Enumeration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJException;
import org.sessionj.types.Side;

/**
 * The runtime reads a protocol's descriptor from the class sj-processor generates before it looks for the
 * resource (issue 15, cold start: a class comes from an AOT cache without opening a jar; the first
 * resource look-up of a fresh JVM opens every jar on the class path).
 */
class DescriptorClassTest {

    @Test
    void theDescriptorClassWinsOverTheResourceAndTheAnnotation() {
        CompiledProtocol protocol = ProtocolRegistry.of(ClassDescribed.class);
        assertThat(protocol.textFor(Side.REQUEST)).isEqualTo("cbegin.!<java.lang.String>");
    }

    @Test
    void aProtocolWithADescriptorClassIsCompiledWithoutAnyResourceLookUp() throws Exception {
        ClassLoader noResources = new NoResourcesLoader(getClass().getClassLoader(),
                List.of(ClassDescribed.class.getName(), ClassDescribed.class.getName() + "$$SJProtocol"));
        Class<?> protocol = Class.forName(ClassDescribed.class.getName(), false, noResources);
        assertThat(protocol.getClassLoader()).isSameAs(noResources);
        assertThat(ProtocolRegistry.of(protocol).textFor(Side.REQUEST)).isEqualTo("cbegin.!<java.lang.String>");
    }

    @Test
    void aDescriptorClassThatDefinesNothingIsRefusedByName() {
        assertThatThrownBy(() -> ProtocolRegistry.of(UndefinedDescriptor.class)).isInstanceOf(SJException.class)
                .hasMessageContaining(UndefinedDescriptor.class.getName() + "$$SJProtocol")
                .hasMessageContaining("defines no descriptor");
    }

    @Test
    void aDescriptorClassThatCannotBeLoadedIsAnSjExceptionNamingIt() {
        assertThatThrownBy(() -> ProtocolRegistry.of(BrokenDescriptor.class)).isInstanceOf(SJException.class)
                .hasMessageContaining(BrokenDescriptor.class.getName() + "$$SJProtocol")
                .hasMessageContaining("cannot be loaded").hasCauseInstanceOf(ExceptionInInitializerError.class);
    }

    /**
     * Defines the classes {@code own} itself (child first, their bytes read from {@code parent} now),
     * delegates every other class to {@code parent}, and fails any resource look-up.
     */
    private static final class NoResourcesLoader extends ClassLoader {
        private final List<String> own;
        private final java.util.Map<String, byte[]> bytes = new java.util.HashMap<>();

        NoResourcesLoader(ClassLoader parent, List<String> own) {
            super(parent);
            this.own = own;
            for (String name : own) {
                try (InputStream in = parent.getResourceAsStream(name.replace('.', '/') + ".class")) {
                    bytes.put(name, in.readAllBytes());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!own.contains(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] b = bytes.get(name);
                    loaded = defineClass(name, b, 0, b.length);
                }
                return loaded;
            }
        }

        @Override
        public URL getResource(String name) {
            throw new AssertionError("resource looked up: " + name);
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            throw new AssertionError("resource looked up: " + name);
        }

        @Override
        public Enumeration<URL> getResources(String name) {
            throw new AssertionError("resource looked up: " + name);
        }
    }
}
