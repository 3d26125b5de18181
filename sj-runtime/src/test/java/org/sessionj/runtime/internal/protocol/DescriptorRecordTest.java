package org.sessionj.runtime.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.Protocol;
import org.sessionj.types.Side;

/**
 * sj-processor ends a descriptor resource with a record of the {@code @Protocol} texts it was made from,
 * as {@code // source} comment lines (for its SJ009). The runtime cuts them off: the descriptor it loads,
 * and hashes for its stale-users check ({@link StaleUsers}), is the text before them, the one the
 * processor hashed.
 */
class DescriptorRecordTest {
    @TempDir
    Path classes;

    /** A protocol whose descriptor these tests give it as a resource (no descriptor class). */
    @Protocol("cbegin.!<int>")
    interface ResourceDescribed {
    }

    @Test
    void theRecordAfterTheDescriptorIsNotPartOfIt() {
        assertThat(ProtocolRegistry.withoutRecord("cbegin.!<int>\n// source demo.P 13-ab\n// source demo.Q 4-cd\n"))
                .isEqualTo("cbegin.!<int>");
        assertThat(ProtocolRegistry.withoutRecord("cbegin.!<int>\n")).isEqualTo("cbegin.!<int>");
        // Only the processor's record lines are cut, not another comment.
        assertThat(ProtocolRegistry.withoutRecord("cbegin.!<int> // a note\n")).isEqualTo("cbegin.!<int> // a note");
    }

    @Test
    void aDescriptorResourceWithItsRecordLoadsAsTheDescriptorAndHashesAsTheProcessorDid() throws Exception {
        String name = ResourceDescribed.class.getName();
        String descriptor = "cbegin.!<java.lang.String>";
        String file = descriptor + "\n// source " + name + " 13-a3f9e1c2b4d5e6f7\n";
        write(ProtocolRegistry.DESCRIPTOR_PREFIX + name + ".sj", file);
        write(StaleUsers.DIRECTORY + name + ".txt", "com.example.Client 12-ab descriptor=" + StaleUsers.hash(descriptor) + "\n");
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class")) {
            write(name.replace('.', '/') + ".class", in.readAllBytes());
        }
        try (URLClassLoader loader = new ChildFirst(classes, name, getClass().getClassLoader())) {
            Class<?> protocol = Class.forName(name, false, loader);
            assertThat(protocol.getClassLoader()).isSameAs(loader);
            assertThat(ProtocolRegistry.of(protocol).textFor(Side.REQUEST)).isEqualTo(descriptor);
            assertThatCode(() -> StaleUsers.check(protocol, loader, ProtocolRegistry.withoutRecord(file)))
                    .doesNotThrowAnyException();
        }
    }

    private void write(String path, String text) throws IOException {
        write(path, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private void write(String path, byte[] bytes) throws IOException {
        Path target = classes.resolve(path);
        Files.createDirectories(target.getParent());
        Files.write(target, bytes);
    }

    /** Defines the class {@code own} from {@code root} itself; every other class, and resources, parent first. */
    private static final class ChildFirst extends URLClassLoader {
        private final String own;

        ChildFirst(Path root, String own, ClassLoader parent) throws IOException {
            super(new URL[] {root.toUri().toURL()}, parent);
            this.own = own;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(own)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }
    }
}
