package org.sessionj.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.processor.StepwiseBuild.Result;

/**
 * The processor writes its files (protocol descriptors, descriptor classes, the endings of socket
 * parameters) straight into a class output directory, and through javac's Filer where the output is not
 * one (issue 12: the Filer compares each new file with every earlier one). Invariant: the same bytes at
 * the same paths either way. Compiled once in memory (compile-testing's file manager: the Filer) and once
 * into a directory on disk.
 */
class OutputResourcesTest {
    @TempDir
    Path project;

    private static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Protocols {
                @Protocol("cbegin.!<int>.?(boolean)") interface Put {}
                @Protocol("sbegin.?(int)") interface A {}
                @Protocol("{@(A)}") interface Both {}
            }
            """;

    private static final String CLIENT = """
            package demo;
            import org.sessionj.api.*;
            public final class Client {
                static boolean run(@Session(protocol = Protocols.Put.class) SJService service) {
                    try (SJSocket s = service.request()) {
                        return exchange(s);
                    }
                }
                static boolean exchange(@Session(protocol = Protocols.Put.class) SJSocket s) {
                    s.send(42);
                    return s.receive();
                }
            }
            """;

    @Test
    void aClassOutputDirectoryGetsTheFilesTheFilerWouldWrite() throws IOException {
        Compilation inMemory = CompilerHarness.compile(PROTOCOLS, CLIENT);
        assertThat(inMemory).succeeded();
        Map<String, byte[]> written = new TreeMap<>();
        for (JavaFileObject file : inMemory.generatedFiles()) {
            String path = file.toUri().getPath();
            path = path.substring(path.indexOf("/CLASS_OUTPUT/") + "/CLASS_OUTPUT/".length());
            if (processorsOwn(path)) {
                try (InputStream in = file.openInputStream()) {
                    written.put(path, in.readAllBytes());
                }
            }
        }
        assertThat(written.keySet()).contains("META-INF/sessionj/protocols/demo.Protocols$Put.sj",
                "demo/Protocols$Put$$SJProtocol.class", "META-INF/sessionj/protocols/demo.Protocols$Both.sj",
                "META-INF/sessionj/ends/demo.Client.txt");

        StepwiseBuild build = new StepwiseBuild(project);
        build.write("Protocols", PROTOCOLS);
        build.write("Client", CLIENT);
        Result onDisk = build.compile("Protocols", "Client");
        assertThat(onDisk.status()).as(onDisk.output()).isZero();
        Map<String, byte[]> onDiskFiles = new TreeMap<>();
        try (Stream<Path> files = Files.walk(build.classes())) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String path = build.classes().relativize(file).toString().replace(java.io.File.separatorChar, '/');
                if (processorsOwn(path)) {
                    onDiskFiles.put(path, Files.readAllBytes(file));
                }
            }
        }
        assertThat(onDiskFiles.keySet()).isEqualTo(written.keySet());
        for (Map.Entry<String, byte[]> file : written.entrySet()) {
            assertThat(onDiskFiles.get(file.getKey())).as(file.getKey()).isEqualTo(file.getValue());
        }
    }

    /** The files written through {@code OutputResources}, not by javac or the indexes of the output directory. */
    private static boolean processorsOwn(String path) {
        return path.startsWith("META-INF/sessionj/protocols/") || path.startsWith("META-INF/sessionj/ends/")
                || path.endsWith("$$SJProtocol.class");
    }
}
