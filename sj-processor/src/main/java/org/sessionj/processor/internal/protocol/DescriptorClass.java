package org.sessionj.processor.internal.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The class file of a protocol's descriptor class ({@code org.sessionj.api.spi.ProtocolDescriptors}): a
 * class in the protocol's package, named after its binary name with {@value #SUFFIX}, whose static
 * initialiser hands the descriptor text to the runtime. The runtime loads it instead of reading the
 * {@code .sj} resource, which a fresh JVM's first session paid for by opening every jar on the class
 * path (issue 15, cold start).
 *
 * <p>The processor writes the class file itself rather than a Java source: javac compiles a generated
 * source in a further processing round, which cost more than the whole check (docs/benchmarks.md,
 * "Compile time"). The class is what javac makes of
 * <pre>{@code
 * final class P$$SJProtocol {               // ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC
 *     static {
 *         ProtocolDescriptors.define(MethodHandles.lookup(), new String[] {part0, part1, ...});
 *     }
 *     private P$$SJProtocol() {}
 * }
 * }</pre>
 * in class-file version {@value #VERSION} (Java 21, the oldest release SJ runs on; no branch, so no
 * {@code StackMapTable} is needed). The text is cut into string constants of at most
 * {@value #MAX_CONSTANT_BYTES} bytes of modified UTF-8 (NUL and U+0080–U+07FF take two bytes, the rest of
 * the BMP and each surrogate three), never between the two halves of a surrogate pair. Synthetic: no
 * source declares it, and javac will not resolve a name to it.
 */
public final class DescriptorClass {
    /** The suffix the runtime looks for ({@code ProtocolDescriptors.CLASS_SUFFIX}). */
    public static final String SUFFIX = "$$SJProtocol";
    /** The class-file major version written: Java 21's. */
    static final int VERSION = 65;
    /** The most bytes a {@code CONSTANT_Utf8} holds (its length is an unsigned 16-bit number). */
    static final int MAX_CONSTANT_BYTES = 65_535;
    /** The most bytes a method's code holds (JVMS 4.7.3: {@code code_length < 65536}). */
    static final int MAX_CODE_BYTES = 65_535;

    private static final int ACC_PRIVATE = 0x0002;
    private static final int ACC_STATIC = 0x0008;
    private static final int ACC_FINAL = 0x0010;
    private static final int ACC_SUPER = 0x0020;
    private static final int ACC_SYNTHETIC = 0x1000;

    private static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";
    private static final String DEFINE_DESCRIPTOR = "(L" + LOOKUP + ";[Ljava/lang/String;)V";

    private DescriptorClass() {
    }

    /** The binary (and canonical) name of the descriptor class of the protocol {@code binaryName}. */
    public static String name(String binaryName) {
        return binaryName + SUFFIX;
    }

    /**
     * The class file of the descriptor class of the protocol {@code binaryName}, whose descriptor is
     * {@code text}.
     *
     * @throws IllegalArgumentException when the text needs more string constants than one method's code
     *                                  or one class's constant pool can hold (a descriptor of over
     *                                  ~170 million characters): the resource alone must do
     */
    public static byte[] classFile(String binaryName, String text) {
        return classFile(binaryName, parts(text, MAX_CONSTANT_BYTES));
    }

    /** The class file for {@code parts}, in order (package-private for tests of the limits). */
    static byte[] classFile(String binaryName, List<String> parts) {
        int codeLength = 3 + push(parts.size()) + 3 + 3 + 1;  // lookup, count, anewarray, define, return
        for (int i = 0; i < parts.size(); i++) {
            codeLength += 1 + push(i) + 3 + 1;              // dup, index, ldc_w, aastore
        }
        int constants = FIRST_PART + 2 * parts.size();      // constant_pool_count
        if (codeLength > MAX_CODE_BYTES || constants > 0xffff) {
            throw new IllegalArgumentException("the descriptor of " + binaryName + " needs " + parts.size()
                    + " string constants: more than one class file holds (" + codeLength + " bytes of code, at"
                    + " most " + MAX_CODE_BYTES + "; " + constants + " constants, at most 65535)");
        }
        Bytes out = new Bytes(512 + codeLength + 3 * binaryName.length() + partsLength(parts));
        out.u4(0xCAFEBABE).u2(0).u2(VERSION).u2(constants);
        // The constant pool, in a fixed order (the indices below and in the code depend on it): the
        // class, the members the code uses, then a Utf8 and a String per part. No entry is shared
        // between parts, so the pool lists the parts in order.
        out.utf8(name(binaryName).replace('.', '/')).classRef(1);                          // 1, 2: this class
        out.utf8("java/lang/Object").classRef(3);                                           // 3, 4
        out.utf8("<init>").utf8("()V").nameAndType(5, 6).methodRef(4, 7);                   // 5-8
        out.utf8("java/lang/invoke/MethodHandles").classRef(9);                             // 9, 10
        out.utf8("lookup").utf8("()L" + LOOKUP + ";").nameAndType(11, 12).methodRef(10, 13); // 11-14
        out.utf8("java/lang/String").classRef(15);                                          // 15, 16
        out.utf8("org/sessionj/api/spi/ProtocolDescriptors").classRef(17);                  // 17, 18
        out.utf8("define").utf8(DEFINE_DESCRIPTOR).nameAndType(19, 20).methodRef(18, 21);   // 19-22
        out.utf8("<clinit>").utf8("Code");                                                  // 23, 24
        for (int i = 0; i < parts.size(); i++) {
            out.utf8(parts.get(i)).u1(8).u2(FIRST_PART + 2 * i);                            // the part, its String
        }
        out.u2(ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC).u2(2).u2(4).u2(0).u2(0);               // this, super, no interfaces, no fields
        out.u2(2);                                                                          // methods
        out.u2(ACC_PRIVATE).u2(5).u2(6).u2(1).u2(24).u4(12 + 5).u2(1).u2(1).u4(5);           // private <init>()V, Code
        out.u1(0x2a).u1(0xb7).u2(8).u1(0xb1);                                               // aload_0, invokespecial Object.<init>, return
        out.u2(0).u2(0);                                                                    // no handlers, no attributes
        out.u2(ACC_STATIC).u2(23).u2(6).u2(1).u2(24).u4(12 + codeLength).u2(5).u2(0).u4(codeLength); // <clinit>, Code
        out.u1(0xb8).u2(14);                                                                // invokestatic MethodHandles.lookup()
        out.push(parts.size()).u1(0xbd).u2(16);                                             // the count, anewarray String
        for (int i = 0; i < parts.size(); i++) {
            out.u1(0x59).push(i).u1(0x13).u2(FIRST_PART + 2 * i + 1).u1(0x53);              // dup, index, ldc_w part, aastore
        }
        out.u1(0xb8).u2(22).u1(0xb1);                                                       // invokestatic define, return
        out.u2(0).u2(0);                                                                    // no handlers, no attributes
        out.u2(0);                                                                          // no class attributes
        return out.toByteArray();
    }

    /** The constant-pool index of the first part's {@code CONSTANT_Utf8} (its String follows it). */
    private static final int FIRST_PART = 25;

    /** The bytes of the instruction {@link Bytes#push} writes for {@code value}. */
    private static int push(int value) {
        return value <= 5 ? 1 : value <= Byte.MAX_VALUE ? 2 : 3;
    }

    private static int partsLength(List<String> parts) {
        int n = 0;
        for (int i = 0; i < parts.size(); i++) {
            n += 5 + parts.get(i).length() * 3;
        }
        return n;
    }

    /**
     * {@code text} cut into pieces of at most {@code maxBytes} bytes of modified UTF-8 each, never between
     * a high and a low surrogate; one empty piece for an empty text.
     */
    static List<String> parts(String text, int maxBytes) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        int bytes = 0;
        int i = 0;
        while (i < text.length()) {
            int width = Character.isHighSurrogate(text.charAt(i)) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1)) ? 2 : 1;
            int size = 0;
            for (int k = i; k < i + width; k++) {
                size += modifiedUtf8Length(text.charAt(k));
            }
            if (bytes + size > maxBytes) {
                parts.add(text.substring(start, i));
                start = i;
                bytes = 0;
            }
            bytes += size;
            i += width;
        }
        if (start < text.length() || parts.isEmpty()) {
            parts.add(text.substring(start));
        }
        return parts;
    }

    /** The bytes {@code c} takes in a class file's modified UTF-8 (JVMS 4.4.7). */
    static int modifiedUtf8Length(char c) {
        if (c != 0 && c < 0x80) {
            return 1;
        }
        return c < 0x800 ? 2 : 3;
    }

    /**
     * A growing byte array written big-endian, as a class file is; plain calls only (the processor is
     * loaded afresh per compilation, so every lambda or {@code DataOutputStream} detour runs cold).
     */
    private static final class Bytes {
        private byte[] bytes;
        private int size;

        Bytes(int capacity) {
            bytes = new byte[capacity];
        }

        Bytes u1(int value) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, size * 2);
            }
            bytes[size++] = (byte) value;
            return this;
        }

        Bytes u2(int value) {
            return u1(value >>> 8).u1(value);
        }

        Bytes u4(int value) {
            return u2(value >>> 16).u2(value);
        }

        /** A {@code CONSTANT_Utf8}: its tag, its length and {@code value} in modified UTF-8 (JVMS 4.4.7). */
        Bytes utf8(String value) {
            u1(1);
            int length = size;
            u2(0);
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c != 0 && c < 0x80) {
                    u1(c);
                } else if (c < 0x800) {
                    u1(0xc0 | c >> 6).u1(0x80 | c & 0x3f);
                } else {
                    u1(0xe0 | c >> 12).u1(0x80 | c >> 6 & 0x3f).u1(0x80 | c & 0x3f);
                }
            }
            int bytesOfValue = size - length - 2;
            if (bytesOfValue > MAX_CONSTANT_BYTES) {
                throw new IllegalArgumentException("a class-file constant of " + bytesOfValue + " bytes");
            }
            bytes[length] = (byte) (bytesOfValue >>> 8);
            bytes[length + 1] = (byte) bytesOfValue;
            return this;
        }

        Bytes classRef(int name) {
            return u1(7).u2(name);
        }

        Bytes nameAndType(int name, int descriptor) {
            return u1(12).u2(name).u2(descriptor);
        }

        Bytes methodRef(int owner, int nameAndType) {
            return u1(10).u2(owner).u2(nameAndType);
        }

        /** The shortest instruction that pushes the non-negative {@code value} (below 32,768). */
        Bytes push(int value) {
            if (value <= 5) {
                return u1(0x03 + value);                    // iconst_<n>
            }
            return value <= Byte.MAX_VALUE ? u1(0x10).u1(value) : u1(0x11).u2(value); // bipush, sipush
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, size);
        }
    }
}
