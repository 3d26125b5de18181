package org.sessionj.types.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.sessionj.types.Payload.JavaType;

/**
 * The fast path of {@link JavaTypeParser}: reads the shapes almost every protocol uses — a primitive,
 * a (dotted) class name, type arguments on its last part, array brackets — with a hand-written scanner
 * and no allocation beyond the result. It only accepts; anything else (annotations, wildcards,
 * keywords, type arguments on an enclosing type, non-ASCII, errors) returns null, and JavaParser then
 * parses the text, so error messages and unusual forms are exactly JavaParser's (when JavaParser is on
 * the class path; see {@link JavaTypeParser}).
 */
final class SimpleTypeScanner {
    private static final Set<String> PRIMITIVES =
            Set.of("boolean", "byte", "short", "char", "int", "long", "float", "double");
    /** Reserved and contextual keywords: never a fast-path name (JavaParser decides what they mean). */
    private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "break", "case", "catch", "class",
            "const", "continue", "default", "do", "else", "enum", "extends", "final", "finally", "for", "goto",
            "if", "implements", "import", "instanceof", "interface", "native", "new", "package", "private",
            "protected", "public", "return", "static", "strictfp", "super", "switch", "synchronized", "this",
            "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "var",
            "yield", "record", "sealed", "permits", "non", "when", "module", "open", "exports", "requires", "_");

    private final String text;
    private final int end;
    private int position;

    private SimpleTypeScanner(String text, int start, int end) {
        this.text = text;
        this.position = start;
        this.end = end;
    }

    /** The type written at {@code text[start, end)} if it has a simple shape, else null. */
    static JavaType scan(String text, int start, int end) {
        SimpleTypeScanner scanner = new SimpleTypeScanner(text, start, end);
        JavaType type = scanner.type(false);
        scanner.skipSpace();
        return type != null && scanner.position == end ? type : null;
    }

    /**
     * Where the scan of {@code text[start, end)} stops: the first offset the fast path does not read,
     * or {@code end} when it reads everything (or the type ends too early).
     */
    static int stopOffset(String text, int start, int end) {
        SimpleTypeScanner scanner = new SimpleTypeScanner(text, start, end);
        scanner.type(false);
        scanner.skipSpace();
        return scanner.position;
    }

    /** A type; as a type argument ({@code argument}) a bare primitive is left to JavaParser's error. */
    private JavaType type(boolean argument) {
        skipSpace();
        String first = identifier();
        if (first == null) {
            return null;
        }
        if (PRIMITIVES.contains(first)) {
            int dimensions = dimensions();
            return dimensions < 0 || (argument && dimensions == 0) ? null : new JavaType(first, List.of(), dimensions);
        }
        StringBuilder name = new StringBuilder(first);
        while (true) {
            skipSpace();
            if (position < end && text.charAt(position) == '.') {
                position++;
                skipSpace();
                String part = identifier();
                if (part == null || PRIMITIVES.contains(part)) {
                    return null;
                }
                name.append('.').append(part);
            } else {
                break;
            }
        }
        List<JavaType> arguments = List.of();
        if (position < end && text.charAt(position) == '<') {
            position++;
            arguments = new ArrayList<>();
            while (true) {
                JavaType argumentType = type(true);
                if (argumentType == null) {
                    return null;
                }
                arguments.add(argumentType);
                skipSpace();
                if (position < end && text.charAt(position) == ',') {
                    position++;
                } else if (position < end && text.charAt(position) == '>') {
                    position++;
                    break;
                } else {
                    return null;
                }
            }
            skipSpace();
            if (position < end && text.charAt(position) == '.') {
                return null; // type arguments on an enclosing type: JavaParser reports it
            }
        }
        int dimensions = dimensions();
        return dimensions < 0 ? null : new JavaType(name.toString(), arguments, dimensions);
    }

    /** The number of {@code []} pairs that follow, or -1 if a bracket is not closed. */
    private int dimensions() {
        int dimensions = 0;
        while (true) {
            skipSpace();
            if (position >= end || text.charAt(position) != '[') {
                return dimensions;
            }
            position++;
            skipSpace();
            if (position >= end || text.charAt(position) != ']') {
                return -1;
            }
            position++;
            dimensions++;
        }
    }

    /** An ASCII Java identifier that is no keyword, or null. */
    private String identifier() {
        int from = position;
        while (position < end && isIdentifierChar(text.charAt(position), position == from)) {
            position++;
        }
        if (position == from) {
            return null;
        }
        String identifier = text.substring(from, position);
        if (KEYWORDS.contains(identifier)) {
            position = from; // where the scan stops: at the keyword
            return null;
        }
        return identifier;
    }

    private static boolean isIdentifierChar(char c, boolean first) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'
                || (!first && c >= '0' && c <= '9');
    }

    private void skipSpace() {
        while (position < end && (text.charAt(position) == ' ' || text.charAt(position) == '\t'
                || text.charAt(position) == '\n' || text.charAt(position) == '\r')) {
            position++;
        }
    }
}
