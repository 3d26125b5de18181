package org.sessionj.types.internal;

import org.sessionj.types.Payload.JavaType;
import org.sessionj.types.ProtocolProblem.Kind;
import org.sessionj.types.ProtocolSyntaxException;

/**
 * Parses the Java type written inside {@code !<…>} or {@code ?(…)} and converts it to a
 * {@link JavaType}: the common shapes through {@link SimpleTypeScanner} (JavaParser is costly per
 * call, and a compilation parses every message type of every protocol), everything else with
 * JavaParser ({@link FullTypeParser}).
 *
 * <p>JavaParser is an optional dependency of sj-api: the processor brings it, so compile-time errors
 * are JavaParser's exact ones, but a program's run time does without it. The runtime reads the
 * processor's descriptors, whose types the fast path always reads; without JavaParser, a type it does
 * not read is reported where the fast path stopped.
 */
final class JavaTypeParser {
    static final String EXPECTED_TYPE = "a Java type";
    /** Whether JavaParser can be loaded; looked up once, without touching its classes otherwise. */
    private static final boolean FULL_PARSER_PRESENT = present("com.github.javaparser.JavaParser");

    private final String text;
    private final int start;
    private final int end;
    private final char closer;
    private final int levelsLeft;

    /**
     * The type written at {@code text[start, end)}, which {@code closer} ({@code >} or {@code )}) ends;
     * its brackets may open at most {@code levelsLeft} levels (the caller checked that they do).
     */
    JavaTypeParser(String text, int start, int end, char closer, int levelsLeft) {
        this.text = text;
        this.start = start;
        this.end = end;
        this.closer = closer;
        this.levelsLeft = levelsLeft;
    }

    JavaType parse() {
        JavaType simple = SimpleTypeScanner.scan(text, start, end);
        if (simple != null) {
            return withinDimensionLimit(simple);
        }
        return withinDimensionLimit(FULL_PARSER_PRESENT ? parseWithJavaParser() : unreadWithoutJavaParser());
    }

    /** The JVM's limit on an array type's dimensions (JVMS §4.3.2): no class can name a deeper one. */
    static final int MAX_ARRAY_DIMENSIONS = 255;

    /**
     * {@code type}, if it and its type arguments have at most {@value #MAX_ARRAY_DIMENSIONS} array
     * dimensions: a deeper array type compiles in no Java program and loads in no JVM, so a peer could
     * never send or receive it.
     */
    private JavaType withinDimensionLimit(JavaType type) {
        if (type.arrayDimensions() > MAX_ARRAY_DIMENSIONS) {
            String expected = "an array type of at most " + MAX_ARRAY_DIMENSIONS + " dimensions";
            String found = "'" + SourceText.abbreviate(type.name()) + "' with " + type.arrayDimensions() + " dimensions";
            throw new ProtocolSyntaxException(Kind.INVALID_MESSAGE_TYPE, "an array type has at most "
                    + MAX_ARRAY_DIMENSIONS + " dimensions (the JVM's limit): expected " + expected + " but found "
                    + found, text, start, expected, found);
        }
        for (JavaType argument : type.typeArguments()) {
            withinDimensionLimit(argument);
        }
        return type;
    }

    /** The full parse with JavaParser, whatever the fast path would say. */
    JavaType parseWithJavaParser() {
        return new FullTypeParser(text, start, end, closer, levelsLeft).parse();
    }

    /** The error for a type the fast path does not read when JavaParser is not there to read it. */
    private JavaType unreadWithoutJavaParser() {
        int at = SimpleTypeScanner.stopOffset(text, start, end);
        String found = at >= end ? "'" + closer + "'" : "'" + SourceText.abbreviate(text.substring(at, end).strip()) + "'";
        String expected = "a plain Java type (names, type arguments, array brackets)";
        throw new ProtocolSyntaxException(Kind.SYNTAX, "expected " + expected + " but found " + found
                + " (other forms need JavaParser, com.github.javaparser:javaparser-core, on the class path;"
                + " sj-processor has it)", text, Math.min(at, text.length()), expected, found);
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, JavaTypeParser.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
