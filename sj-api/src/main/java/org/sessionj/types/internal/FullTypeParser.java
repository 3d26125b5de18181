package org.sessionj.types.internal;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseException;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Position;
import com.github.javaparser.Problem;
import com.github.javaparser.Token;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import com.github.javaparser.ast.type.ArrayType;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.PrimitiveType;
import com.github.javaparser.ast.type.Type;
import com.github.javaparser.ast.type.WildcardType;
import java.util.ArrayList;
import java.util.List;
import org.sessionj.types.Payload.JavaType;
import org.sessionj.types.ProtocolProblem.Kind;
import org.sessionj.types.ProtocolSyntaxException;

/**
 * The full parse of a message type with JavaParser, for every shape {@link SimpleTypeScanner} leaves
 * alone (annotations, wildcards, comments, non-ASCII names, errors), with JavaParser's exact errors.
 * Every JavaParser problem becomes a {@link ProtocolSyntaxException} positioned in the whole protocol
 * text. Only {@link JavaTypeParser} uses this class, and only when JavaParser is on the class path
 * (sj-processor brings it; a program's run time does not need it).
 */
final class FullTypeParser {
    private static final String EXPECTED_TYPE = JavaTypeParser.EXPECTED_TYPE;
    /**
     * The longest message type handed to JavaParser. Types the fast path does not read are rare
     * (annotations, wildcards, comments, non-ASCII names: mostly errors to report), and JavaParser
     * builds and prints nested trees recursively, so long exotic input must not reach it.
     */
    static final int MAX_FULL_PARSE = 1024;

    // JavaParser instances are not thread-safe; one per thread keeps parsing allocation-light.
    private static final ThreadLocal<JavaParser> PARSER = ThreadLocal.withInitial(() -> new JavaParser(
            new ParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_21)));

    private final String text;
    private final int start;
    private final String raw;
    private final char closer;
    private final int levelsLeft;

    /**
     * The type written at {@code text[start, end)}, which {@code closer} ({@code >} or {@code )}) ends;
     * its brackets may open at most {@code levelsLeft} levels (the caller checked that they do).
     */
    FullTypeParser(String text, int start, int end, char closer, int levelsLeft) {
        this.text = text;
        this.start = start;
        this.raw = text.substring(start, end);
        this.closer = closer;
        this.levelsLeft = levelsLeft;
    }

    /** The full parse, for every shape the fast path leaves alone, with JavaParser's exact errors. */
    JavaType parse() {
        if (raw.length() > MAX_FULL_PARSE) {
            String found = quote(raw.strip()) + " (" + raw.length() + " characters)";
            throw new ProtocolSyntaxException(Kind.SYNTAX, "a message type longer than " + MAX_FULL_PARSE
                    + " characters must be a plain Java type (names, type arguments, array brackets): expected "
                    + EXPECTED_TYPE + " but found " + found, text, start, EXPECTED_TYPE, found);
        }
        rejectDeepTrees();
        ParseResult<Type> result;
        try {
            result = PARSER.get().parseType(raw);
        } catch (RuntimeException e) {
            throw new ProtocolSyntaxException(Kind.SYNTAX, text, start, EXPECTED_TYPE, quote(raw.strip()));
        }
        if (!result.isSuccessful() || result.getResult().isEmpty()) {
            throw problem(result.getProblems());
        }
        return convert(result.getResult().get());
    }

    /**
     * JavaParser nests a node per {@code .} and {@code []} and per bracket: their total stays within
     * the levels the protocol's nesting leaves, so its recursive passes stay shallow.
     */
    private void rejectDeepTrees() {
        int nodes = 0;
        for (int i = 0; i < raw.length(); i++) {
            if (".[<(".indexOf(raw.charAt(i)) >= 0 && ++nodes > levelsLeft) {
                String expected = "at most " + levelsLeft + " of '.', '[', '<' and '(' here";
                String found = quote(String.valueOf(raw.charAt(i)));
                throw new ProtocolSyntaxException(Kind.NESTING_TOO_DEEP, "a message type with annotations,"
                        + " wildcards or other forms Java's full grammar reads nests a level per '.', '[', '<' and"
                        + " '(': expected " + expected + " but found one more " + found, text, start + i,
                        expected, found);
            }
        }
    }

    private ProtocolSyntaxException problem(List<Problem> problems) {
        if (problems.isEmpty()) {
            return new ProtocolSyntaxException(Kind.SYNTAX, text, start, EXPECTED_TYPE, quote(raw.strip()));
        }
        Problem first = problems.get(0);
        if (first.getCause().orElse(null) instanceof ParseException parse && parse.currentToken != null
                && parse.currentToken.next != null) {
            return syntaxProblem(parse);
        }
        // A problem JavaParser found after parsing, such as a primitive type argument.
        int offset = first.getLocation().flatMap(range -> range.getBegin().getRange())
                .map(range -> offsetOf(range.begin)).orElse(start);
        String detail = first.getMessage().strip();
        if (detail.endsWith(".")) {
            detail = detail.substring(0, detail.length() - 1);
        }
        String found = quote(raw.strip());
        return new ProtocolSyntaxException(Kind.INVALID_MESSAGE_TYPE, detail + ": expected " + EXPECTED_TYPE
                + " but found " + found, text, offset, EXPECTED_TYPE, found);
    }

    private ProtocolSyntaxException syntaxProblem(ParseException parse) {
        Token token = parse.currentToken.next;
        boolean atEnd = token.kind == 0 || token.image == null || token.image.isEmpty();
        int offset = atEnd ? start + raw.length()
                : offsetOf(new Position(token.beginLine, token.beginColumn));
        String found;
        if (offset >= text.length()) {
            found = "end of input";
        } else if (atEnd) {
            found = quote(text.substring(offset, offset + Character.charCount(text.codePointAt(offset))));
        } else {
            found = quote(token.image);
        }
        return new ProtocolSyntaxException(Kind.SYNTAX, text, offset, expected(parse), found);
    }

    /** JavaParser's expected tokens in protocol terms: its end of input is the closing bracket. */
    private String expected(ParseException parse) {
        int[][] sequences = parse.expectedTokenSequences;
        if (sequences == null || sequences.length == 0 || sequences.length > 3 || parse.tokenImage == null) {
            return EXPECTED_TYPE;
        }
        List<String> names = new ArrayList<>();
        for (int[] sequence : sequences) {
            if (sequence.length != 1) {
                return EXPECTED_TYPE;
            }
            names.add(sequence[0] == 0 ? "'" + closer + "'" : tokenName(parse.tokenImage[sequence[0]]));
        }
        return names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    private static String tokenName(String image) {
        return image.length() >= 2 && image.startsWith("\"") && image.endsWith("\"")
                ? "'" + image.substring(1, image.length() - 1) + "'"
                : image;
    }

    private JavaType convert(Type type) {
        rejectAnnotations(type);
        if (type instanceof PrimitiveType primitive) {
            return JavaType.of(primitive.asString());
        }
        if (type instanceof ArrayType array) {
            JavaType component = convert(array.getComponentType());
            return new JavaType(component.name(), component.typeArguments(), component.arrayDimensions() + 1);
        }
        if (type instanceof ClassOrInterfaceType classType) {
            return convertClass(classType);
        }
        if (type instanceof WildcardType) {
            throw invalid(type, "a wildcard is not a message type", "a type without wildcards");
        }
        throw invalid(type, "'" + type.asString() + "' is not a message type", EXPECTED_TYPE);
    }

    private JavaType convertClass(ClassOrInterfaceType type) {
        StringBuilder name = new StringBuilder();
        ClassOrInterfaceType scope = type.getScope().orElse(null);
        if (scope != null) {
            if (scope.getTypeArguments().isPresent()) {
                throw invalid(scope, "type arguments on an enclosing type are not supported in message types",
                        "a type without type arguments on its enclosing type");
            }
            rejectAnnotations(scope);
            name.append(scope.getNameWithScope()).append('.');
        }
        name.append(type.getNameAsString());
        List<JavaType> arguments = new ArrayList<>();
        NodeList<Type> written = type.getTypeArguments().orElse(null);
        if (written != null) {
            if (written.isEmpty()) {
                throw invalid(type, "the diamond <> is not a message type", "type arguments");
            }
            for (Type argument : written) {
                if (argument instanceof WildcardType) {
                    throw invalid(argument, "wildcards are not allowed in message types",
                            "a type argument without wildcards");
                }
                if (argument instanceof PrimitiveType) {
                    throw invalid(argument, "a primitive type cannot be a type argument",
                            "a reference type argument");
                }
                arguments.add(convert(argument));
            }
        }
        return new JavaType(name.toString(), arguments, 0);
    }

    private void rejectAnnotations(Node node) {
        if (node instanceof NodeWithAnnotations<?> annotated && !annotated.getAnnotations().isEmpty()) {
            throw invalid(annotated.getAnnotation(0), "annotations are not allowed in message types",
                    EXPECTED_TYPE + " without annotations");
        }
    }

    private ProtocolSyntaxException invalid(Node node, String detail, String expected) {
        int offset = node.getBegin().map(this::offsetOf).orElse(start);
        String found = quote(node.toString());
        return new ProtocolSyntaxException(Kind.INVALID_MESSAGE_TYPE, detail + ": expected " + expected
                + " but found " + found, text, offset, expected, found);
    }

    private int offsetOf(Position position) {
        return start + new SourceText(raw).offsetOf(position.line, position.column);
    }

    private static String quote(String s) {
        return "'" + SourceText.abbreviate(s) + "'";
    }
}
