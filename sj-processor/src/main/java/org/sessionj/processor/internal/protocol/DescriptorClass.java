package org.sessionj.processor.internal.protocol;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        String internalName = name(binaryName).replace('.', '/');
        ConstantPool pool = new ConstantPool();
        int thisClass = pool.classRef(internalName);
        int objectClass = pool.classRef("java/lang/Object");
        int objectInit = pool.methodRef("java/lang/Object", "<init>", "()V");
        int lookup = pool.methodRef("java/lang/invoke/MethodHandles", "lookup", "()L" + LOOKUP + ";");
        int stringClass = pool.classRef("java/lang/String");
        int define = pool.methodRef("org/sessionj/api/spi/ProtocolDescriptors", "define", DEFINE_DESCRIPTOR);
        int initName = pool.utf8("<init>");
        int voidDescriptor = pool.utf8("()V");
        int clinitName = pool.utf8("<clinit>");
        int codeName = pool.utf8("Code");

        Code clinit = new Code();
        clinit.op(0xb8).u2(lookup);                       // invokestatic MethodHandles.lookup()
        clinit.pushInt(parts.size());
        clinit.op(0xbd).u2(stringClass);                  // anewarray String
        for (int i = 0; i < parts.size(); i++) {
            clinit.op(0x59);                              // dup
            clinit.pushInt(i);
            clinit.op(0x13).u2(pool.string(parts.get(i))); // ldc_w
            clinit.op(0x53);                              // aastore
        }
        clinit.op(0xb8).u2(define);                       // invokestatic ProtocolDescriptors.define
        clinit.op(0xb1);                                  // return
        Code init = new Code();
        init.op(0x2a);                                    // aload_0
        init.op(0xb7).u2(objectInit);                     // invokespecial Object.<init>
        init.op(0xb1);                                    // return
        if (clinit.length() > MAX_CODE_BYTES || pool.count() > 0xffff) {
            throw new IllegalArgumentException("the descriptor of " + binaryName + " needs " + parts.size()
                    + " string constants: more than one class file holds (" + clinit.length() + " bytes of code, at"
                    + " most " + MAX_CODE_BYTES + "; " + pool.count() + " constants, at most 65535)");
        }

        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + clinit.length() + pool.size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(0xCAFEBABE);
            out.writeShort(0);                            // minor version
            out.writeShort(VERSION);
            pool.writeTo(out);
            out.writeShort(ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC);
            out.writeShort(thisClass);
            out.writeShort(objectClass);
            out.writeShort(0);                            // interfaces
            out.writeShort(0);                            // fields
            out.writeShort(2);                            // methods
            method(out, ACC_PRIVATE, initName, voidDescriptor, codeName, 1, 1, init);
            method(out, ACC_STATIC, clinitName, voidDescriptor, codeName, 5, 0, clinit);
            out.writeShort(0);                            // attributes
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    private static void method(DataOutputStream out, int access, int name, int descriptor, int codeName,
                               int maxStack, int maxLocals, Code code) throws IOException {
        out.writeShort(access);
        out.writeShort(name);
        out.writeShort(descriptor);
        out.writeShort(1);                                // attributes: Code
        out.writeShort(codeName);
        out.writeInt(2 + 2 + 4 + code.length() + 2 + 2); // max_stack, max_locals, code_length, code, no handlers, no attributes
        out.writeShort(maxStack);
        out.writeShort(maxLocals);
        out.writeInt(code.length());
        code.writeTo(out);
        out.writeShort(0);                                // exception table
        out.writeShort(0);                                // attributes
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
     * A class file's constant pool: entries in order, each distinct one once. Written out as each entry is
     * added, with plain calls: the processor is loaded afresh per compilation, and a lambda would be
     * linked through {@code LambdaMetafactory} every time.
     */
    private static final class ConstantPool {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(bytes);
        private final Map<String, Integer> entries = new HashMap<>();
        private int next = 1;

        int utf8(String value) {
            String key = "U" + value;
            Integer known = entries.get(key);
            if (known != null) {
                return known;
            }
            try {
                out.writeByte(1);
                out.writeUTF(value); // modified UTF-8 after its length; refuses more than 65,535 bytes
            } catch (IOException e) {
                throw new IllegalArgumentException("a class-file constant: " + e.getMessage(), e);
            }
            return added(key);
        }

        int classRef(String internalName) {
            return reference("C" + internalName, 7, utf8(internalName), -1);
        }

        int string(String value) {
            return reference("S" + value, 8, utf8(value), -1);
        }

        int methodRef(String owner, String name, String descriptor) {
            int ownerClass = classRef(owner);
            int nameAndType = reference("N" + name + ' ' + descriptor, 12, utf8(name), utf8(descriptor));
            return reference("M" + owner + '.' + name + descriptor, 10, ownerClass, nameAndType);
        }

        /** An entry of {@code tag} holding one or ({@code second >= 0}) two indices of other entries. */
        private int reference(String key, int tag, int first, int second) {
            Integer known = entries.get(key);
            if (known != null) {
                return known;
            }
            bytes.write(tag);
            bytes.write(first >>> 8);
            bytes.write(first & 0xff);
            if (second >= 0) {
                bytes.write(second >>> 8);
                bytes.write(second & 0xff);
            }
            return added(key);
        }

        private int added(String key) {
            entries.put(key, next);
            return next++;
        }

        /** {@code constant_pool_count}: one more than the number of entries. */
        int count() {
            return next;
        }

        int size() {
            return bytes.size();
        }

        void writeTo(DataOutputStream target) throws IOException {
            target.writeShort(next);
            bytes.writeTo(target);
        }
    }

    /** A method's bytecode. */
    private static final class Code {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Code op(int opcode) {
            bytes.write(opcode);
            return this;
        }

        Code u2(int value) {
            bytes.write(value >>> 8);
            bytes.write(value & 0xff);
            return this;
        }

        /** The shortest instruction that pushes the non-negative {@code value}. */
        void pushInt(int value) {
            if (value <= 5) {
                op(0x03 + value);                         // iconst_<n>
            } else if (value <= Byte.MAX_VALUE) {
                op(0x10).op(value);                       // bipush
            } else if (value <= Short.MAX_VALUE) {
                op(0x11).u2(value);                       // sipush
            } else {
                throw new IllegalArgumentException("too many descriptor parts: " + value);
            }
        }

        int length() {
            return bytes.size();
        }

        void writeTo(DataOutputStream out) throws IOException {
            bytes.writeTo(out);
        }
    }
}
