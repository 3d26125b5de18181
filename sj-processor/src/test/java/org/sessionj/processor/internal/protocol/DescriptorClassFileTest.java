package org.sessionj.processor.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.spi.ProtocolDescriptors;

/**
 * The class file {@link DescriptorClass} writes byte by byte: loaded by a class loader of its own (so
 * the JVM verifies it), initialised, it defines exactly the text it was given, whatever the text; the
 * constants stay within a class file's limits; what cannot fit is refused, never written broken.
 */
class DescriptorClassFileTest {

    /** Texts that stress the constants: every width of modified UTF-8, NUL, surrogates, part boundaries. */
    @ParameterizedTest
    @ValueSource(strings = {"empty", "plain", "quotes", "controls", "widths", "surrogates", "lone", "boundary",
        "boundary+1", "pairAtBoundary", "huge"})
    void anyTextSurvivesTheClassFileExactly(String name) throws Exception {
        String text = switch (name) {
            case "empty" -> "";
            case "plain" -> "cbegin.!<java.lang.String>.?(int)";
            case "quotes" -> "q\"b\\c\\u0041\n'd";
            case "controls" -> "\0\1\r\t\37\177\0";
            case "widths" -> "a\u007f\u0080\u07ff\u0800é€\uffff\ufffe";
            case "surrogates" -> "\uD83D\uDE00x\uD83D\uDE00";
            case "lone" -> "\uD800 \uDC00 \uDBFF";
            // 21,845 three-byte characters are 65,535 bytes: exactly one constant, and then one byte more
            case "boundary" -> "€".repeat(21_845);
            case "boundary+1" -> "€".repeat(21_845) + "a";
            case "pairAtBoundary" -> "a".repeat(65_533) + "\uD83D\uDE00" + "b";
            case "huge" -> "!<String>.?(int).".repeat(20_000) + "€\0".repeat(50_000) + "end";
            default -> throw new IllegalArgumentException(name);
        };
        assertThat(defined("demo.Weird$$SJProtocol", DescriptorClass.classFile("demo.Weird", text))).contains(text);
    }

    @Test
    void unpackagedAndNestedProtocolsGetTheirBinaryNames() throws Exception {
        assertThat(defined("Top$$SJProtocol", DescriptorClass.classFile("Top", "end"))).contains("end");
        assertThat(defined("a.b.Outer$Inner$$SJProtocol", DescriptorClass.classFile("a.b.Outer$Inner", "x")))
                .contains("x");
    }

    @Test
    void theTextIsCutIntoConstantsOfAtMost65535BytesNeverInsideASurrogatePair() {
        String text = "ab\uD83D\uDE00c€\0d";
        // a pair is six bytes (three per surrogate), NUL two
        assertThat(DescriptorClass.parts(text, 6)).containsExactly("ab", "\uD83D\uDE00", "c€\0", "d");
        assertThat(DescriptorClass.parts("", 65_535)).containsExactly("");
        assertThat(DescriptorClass.parts("€".repeat(21_845), 65_535)).hasSize(1);
        assertThat(DescriptorClass.parts("€".repeat(21_845) + "\0", 65_535)).hasSize(2);
        String mixed = "x€\0é\uD83D\uDE00".repeat(30_000);
        List<String> cut = DescriptorClass.parts(mixed, 65_535);
        assertThat(String.join("", cut)).isEqualTo(mixed);
        for (String part : cut) {
            assertThat(modifiedUtf8(part)).isLessThanOrEqualTo(65_535);
            assertThat(Character.isLowSurrogate(part.charAt(0))).as("a part starting inside a pair").isFalse();
        }
    }

    @Test
    void moreConstantsThanOneMethodCanPushAreRefusedNotWrittenBroken() throws Exception {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < 9_000; i++) {
            parts.add("p" + i);
        }
        assertThatThrownBy(() -> DescriptorClass.classFile("demo.Big", parts))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("demo.Big")
                .hasMessageContaining("9000 string constants").hasMessageContaining("bytes of code");
        List<String> fewer = parts.subList(0, 8_000);
        assertThat(defined("demo.Big$$SJProtocol", DescriptorClass.classFile("demo.Big", fewer)))
                .contains(String.join("", fewer));
    }

    /** The shape javap sees: Java 21's version, a final synthetic class, a private constructor, an initialiser. */
    @Test
    void javapSeesAFinalSyntheticJava21ClassWithAPrivateConstructor() throws Exception {
        Path file = Files.createTempDirectory("descriptor-class").resolve("Shape$$SJProtocol.class");
        Files.write(file, DescriptorClass.classFile("demo.Shape", "cbegin.!<int>"));
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = javap.run(new PrintWriter(out, true, StandardCharsets.UTF_8), new PrintWriter(System.err, true),
                "-v", "-p", file.toString());
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(text).isZero();
        assertThat(text).contains("major version: 65", "flags: (0x1030) ACC_FINAL, ACC_SUPER, ACC_SYNTHETIC",
                "final class demo.Shape$$SJProtocol", "private demo.Shape$$SJProtocol();", "static {};",
                "cbegin.!<int>", "org/sessionj/api/spi/ProtocolDescriptors.define:"
                        + "(Ljava/lang/invoke/MethodHandles$Lookup;[Ljava/lang/String;)V");
        Class<?> loaded = loader(Map.of("demo.Shape$$SJProtocol", Files.readAllBytes(file)))
                .loadClass("demo.Shape$$SJProtocol");
        assertThat(loaded.isSynthetic()).isTrue();
        assertThat(Modifier.isFinal(loaded.getModifiers())).isTrue();
        assertThat(loaded.getDeclaredConstructors()).singleElement()
                .satisfies(c -> assertThat(Modifier.isPrivate(c.getModifiers())).isTrue());
    }

    private static int modifiedUtf8(String s) {
        int n = 0;
        for (char c : s.toCharArray()) {
            n += c != 0 && c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
        return n;
    }

    /** What the class {@code className}, from {@code bytes}, defines once loaded, verified and initialised. */
    private static Optional<String> defined(String className, byte[] bytes) throws Exception {
        return ProtocolDescriptors.defined(Class.forName(className, true, loader(Map.of(className, bytes))));
    }

    /** A loader defining {@code classes} itself (a loader other than the boot loader: verified), the rest from the test's. */
    static ClassLoader loader(Map<String, byte[]> classes) {
        return new ClassLoader(DescriptorClassFileTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String className) throws ClassNotFoundException {
                byte[] b = classes.get(className);
                if (b == null) {
                    throw new ClassNotFoundException(className);
                }
                return defineClass(className, b, 0, b.length);
            }
        };
    }
}
