package org.sessionj.types.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.ProtocolProblem.Kind;
import org.sessionj.types.ProtocolSyntaxException;
import org.sessionj.types.SessionType;
import org.sessionj.types.Side;

/**
 * Parser for SJ notation (grammar in docs/session-types.md): a recursive-descent parser whose
 * recursion is an explicit stack of open constructs, so nesting costs heap, not call stack. Java
 * message types are delimited here and parsed by {@link JavaTypeParser}. Records the offset of
 * every action, payload and sequence it creates, by identity, so later checks can point into the
 * text.
 */
public final class ProtocolParser {
    /** What may start a session action. */
    public static final String ACTION =
            "a session action (!<, ?(, !{, ?{, ![, ?[, rec, #, @(, ^(, cbegin, sbegin)";
    private static final String MESSAGE = "a message type (a Java type or a session type)";
    private static final String END_OF_INPUT = "end of input";
    /**
     * How deeply the type arguments (and annotation brackets) of one message type may nest, within
     * the overall limit: Java types nest a handful of levels, and their trees are walked recursively.
     */
    public static final int MAX_TYPE_NESTING = 64;
    /** The system property that sets the default nesting limit (read by {@code SessionTypes}). */
    public static final String NESTING_PROPERTY = "sessionj.types.maxNesting";

    /** The parsed type and the offsets of its nodes (keys compared by identity; null when not kept). */
    public record Result(SessionType type, IdentityHashMap<Object, Integer> offsets) {
    }

    private final String text;
    private final int maxNesting;
    private final IdentityHashMap<Object, Integer> offsets;
    private int pos;
    /** How many brackets (loops, choices, rec, session payloads) are open at {@code pos}. */
    private int nesting;

    private ProtocolParser(String text, int maxNesting, boolean positions) {
        this.text = text;
        this.maxNesting = maxNesting;
        this.offsets = positions ? new IdentityHashMap<>() : null;
    }

    /**
     * Parses a whole protocol text, refusing (with {@link Kind#NESTING_TOO_DEEP}) any bracket that
     * would open more than {@code maxNesting} levels. The parser itself keeps open constructs on an
     * explicit stack, so it needs no call stack per level; the limit bounds the algorithms that do.
     * With {@code positions}, the result holds the offset of every node.
     */
    public static Result parse(String text, int maxNesting, boolean positions) {
        ProtocolParser parser = new ProtocolParser(java.util.Objects.requireNonNull(text, "text"), maxNesting,
                positions);
        SessionType type = parser.run();
        parser.skip();
        if (parser.pos < text.length()) {
            throw parser.error("'.' or end of input");
        }
        return new Result(type, parser.offsets);
    }

    /**
     * The parse of one member of a session set ({@code {S1, S2}}): a sequence starting at {@code from}
     * and ending before the {@code ,} or <code>}</code> (or whatever else) that follows it; {@code end} is
     * that position, after any whitespace and comments.
     */
    public record Member(SessionType type, IdentityHashMap<Object, Integer> offsets, int end) {
    }

    /**
     * Parses the sequence that starts at {@code from} inside a session set's braces (which count as
     * one level of nesting) and stops where it ends, without requiring the end of the text there.
     */
    public static Member parseMember(String text, int from, int maxNesting, boolean positions) {
        ProtocolParser parser = new ProtocolParser(java.util.Objects.requireNonNull(text, "text"), maxNesting,
                positions);
        parser.pos = from;
        parser.nesting = 1;
        SessionType type = parser.run();
        parser.skip();
        return new Member(type, parser.offsets, parser.pos);
    }

    /** The position of the first token at or after {@code from} (whitespace and comments skipped). */
    public static int skipFrom(String text, int from) {
        ProtocolParser parser = new ProtocolParser(text, 1, false);
        parser.pos = from;
        parser.skip();
        return parser.pos;
    }

    /** A syntax error at {@code at}: expected {@code expected}, found the token there. */
    public static ProtocolSyntaxException errorAt(String text, int at, String expected) {
        ProtocolParser parser = new ProtocolParser(text, 1, false);
        parser.pos = at;
        return parser.error(expected);
    }

    /** The token at {@code at} as an error message quotes it ({@code 'word'}, {@code ','} or end of input). */
    public static String foundAt(String text, int at) {
        ProtocolParser parser = new ProtocolParser(text, 1, false);
        parser.pos = at;
        return parser.found();
    }

    /** The constructs that contain a sequence: the whole text, and each kind of bracket. */
    private enum Construct { ROOT, OUT_LOOP, IN_LOOP, REC, SELECT, BRANCH, SEND, RECEIVE }

    /** Where the parser is within the construct on top of the stack. */
    private enum Step {
        /** Before a sequence: {@code sequence := ε | 'end' | action ('.' action)*}. */
        SEQUENCE,
        /** Before an action of the sequence. */
        ACTION,
        /** After an action: a '.' and another action, or the end of the sequence. */
        AFTER_ACTION,
        /** After the '{' of a choice: {@code choices := ε | label ':' sequence (',' label ':' sequence)* [','] '}'}. */
        CHOICES,
        /** Before a label of a choice. */
        LABEL
    }

    /** A construct being parsed: where it started, and the sequence (and branches) read so far. */
    private static final class Frame {
        final Construct construct;
        final int actionAt;
        final String variable;
        final int payloadAt;
        int sequenceAt;
        List<Action> actions;
        Map<String, SessionType> branches;
        String label;

        Frame(Construct construct, int actionAt, String variable, int payloadAt) {
            this.construct = construct;
            this.actionAt = actionAt;
            this.variable = variable;
            this.payloadAt = payloadAt;
        }
    }

    private final ArrayDeque<Frame> stack = new ArrayDeque<>();

    /** The sequence of the whole text. */
    private SessionType run() {
        stack.push(new Frame(Construct.ROOT, 0, null, 0));
        Step step = Step.SEQUENCE;
        while (true) {
            Frame frame = stack.peek();
            SessionType finished = null;
            switch (step) {
                case SEQUENCE -> {
                    skip();
                    frame.sequenceAt = pos;
                    frame.actions = new ArrayList<>();
                    if (atSequenceEnd()) {
                        finished = record(new SessionType(List.of()), pos);
                    } else if (wordAt(pos).equals("end")) {
                        finished = record(new SessionType(List.of()), pos);
                        pos += 3;
                    } else {
                        step = Step.ACTION;
                    }
                }
                case ACTION -> step = action(frame);
                case AFTER_ACTION -> {
                    skip();
                    if (peek() == '.') {
                        pos++;
                        skip();
                        step = Step.ACTION;
                    } else {
                        finished = record(new SessionType(frame.actions), frame.sequenceAt);
                    }
                }
                case CHOICES -> {
                    skip();
                    if (peek() == '}') {
                        closeChoice(frame);
                        step = Step.AFTER_ACTION;
                    } else {
                        step = Step.LABEL;
                    }
                }
                case LABEL -> {
                    label(frame);
                    step = Step.SEQUENCE;
                }
            }
            if (finished != null) {
                if (frame.construct == Construct.ROOT) {
                    return finished;
                }
                step = close(frame, finished);
            }
        }
    }

    /** Reads one action: an atom is added to the frame's sequence, a bracket opens a frame of its own. */
    private Step action(Frame frame) {
        int at = pos;
        char c = peek();
        switch (c) {
            case '!' -> {
                pos++;
                skip();
                return switch (peek()) {
                    case '<' -> payload(frame, at, Construct.SEND, '>');
                    case '{' -> openChoice(at, Construct.SELECT);
                    case '[' -> openLoop(at, Construct.OUT_LOOP);
                    default -> throw error("'<', '{' or '[' after '!'");
                };
            }
            case '?' -> {
                pos++;
                skip();
                return switch (peek()) {
                    case '(' -> payload(frame, at, Construct.RECEIVE, ')');
                    case '{' -> openChoice(at, Construct.BRANCH);
                    case '[' -> openLoop(at, Construct.IN_LOOP);
                    default -> throw error("'(', '{' or '[' after '?'");
                };
            }
            case '#' -> {
                pos++;
                frame.actions.add(record(new Action.RecVar(identifier("a recursion variable name after '#'")), at));
                return Step.AFTER_ACTION;
            }
            case '@', '^' -> {
                pos++;
                skip();
                expect('(', "'(' after '" + c + "'");
                skip();
                String name = qualifiedName();
                skip();
                expect(')', "')' after the protocol name");
                frame.actions.add(record(c == '@' ? new Action.ProtocolRef(name) : new Action.DualRef(name), at));
                return Step.AFTER_ACTION;
            }
            default -> {
                String word = wordAt(pos);
                switch (word) {
                    case "cbegin", "sbegin" -> {
                        pos += word.length();
                        frame.actions.add(record(new Action.Begin(word.equals("cbegin") ? Side.REQUEST : Side.ACCEPT), at));
                        return Step.AFTER_ACTION;
                    }
                    case "rec" -> {
                        pos += 3;
                        skip();
                        String variable = identifier("a recursion variable name after 'rec'");
                        skip();
                        if (peek() != '[') {
                            throw error("'[' after 'rec " + variable + "'");
                        }
                        enter();
                        stack.push(new Frame(Construct.REC, at, variable, -1));
                        return Step.SEQUENCE;
                    }
                    default -> throw error(ACTION);
                }
            }
        }
    }

    private Step openLoop(int at, Construct construct) {
        enter();
        stack.push(new Frame(construct, at, null, -1));
        return Step.SEQUENCE;
    }

    private Step openChoice(int at, Construct construct) {
        enter();
        Frame frame = new Frame(construct, at, null, -1);
        frame.branches = new LinkedHashMap<>();
        stack.push(frame);
        return Step.CHOICES;
    }

    /**
     * A message type, from its opening {@code <} or {@code (}: a Java type is read at once, a session
     * payload opens a frame.
     */
    private Step payload(Frame frame, int actionAt, Construct construct, char closer) {
        int opening = pos;
        pos++;
        skip();
        int at = pos;
        if (atSessionPayload()) {
            open(opening);
            stack.push(new Frame(construct, actionAt, null, at));
            return Step.SEQUENCE;
        }
        int end = scanJavaType(closer);
        if (text.substring(at, end).isBlank()) {
            throw error(MESSAGE);
        }
        Payload payload = new JavaTypeParser(text, at, end, closer, maxNesting - nesting).parse();
        pos = end;
        expect(closer, "'" + closer + "' after the message type");
        record(payload, at);
        frame.actions.add(record(construct == Construct.SEND ? new Action.Send(payload) : new Action.Receive(payload),
                actionAt));
        return Step.AFTER_ACTION;
    }

    /** A label of a choice and its ':'. */
    private void label(Frame frame) {
        skip();
        int labelAt = pos;
        String label = identifier("a label");
        if (frame.branches.containsKey(label)) {
            String found = "'" + SourceText.abbreviate(label) + "'";
            throw new ProtocolSyntaxException(Kind.DUPLICATE_LABEL,
                    "duplicate label " + found + " in one choice: expected a label not already used in this"
                            + " choice but found " + found, text, labelAt,
                    "a label not already used in this choice", found);
        }
        skip();
        expect(':', "':' after the label");
        frame.label = label;
    }

    /** The sequence of {@code frame} is complete: reads what closes it and returns where to go on. */
    private Step close(Frame frame, SessionType sequence) {
        switch (frame.construct) {
            case OUT_LOOP, IN_LOOP -> {
                skip();
                expect(']', "'.' or ']'");
                nesting--;
                skip();
                expect('*', "'*' after ']' (loops are written ![…]* and ?[…]*)");
                finish(frame, frame.construct == Construct.OUT_LOOP ? new Action.OutWhile(sequence)
                        : new Action.InWhile(sequence));
            }
            case REC -> {
                skip();
                expect(']', "'.' or ']'");
                nesting--;
                finish(frame, new Action.Rec(frame.variable, sequence));
            }
            case SEND, RECEIVE -> {
                char closer = frame.construct == Construct.SEND ? '>' : ')';
                Payload payload = record(new Payload.SessionPayload(sequence), frame.payloadAt);
                skip();
                expect(closer, "'.' or '" + closer + "'");
                nesting--;
                finish(frame, frame.construct == Construct.SEND ? new Action.Send(payload) : new Action.Receive(payload));
            }
            case SELECT, BRANCH -> {
                frame.branches.put(frame.label, sequence);
                skip();
                if (peek() == ',') {
                    pos++;
                    skip();
                    if (peek() != '}') {
                        return Step.LABEL;
                    }
                } else if (peek() != '}') {
                    throw error("'.', ',' or '}'");
                }
                closeChoice(frame);
            }
            case ROOT -> throw new IllegalStateException("the whole text is closed by its end");
        }
        return Step.AFTER_ACTION;
    }

    /** Consumes the '}' of a choice and adds the choice to the enclosing sequence. */
    private void closeChoice(Frame frame) {
        pos++;
        nesting--;
        finish(frame, frame.construct == Construct.SELECT ? new Action.Select(frame.branches)
                : new Action.Branch(frame.branches));
    }

    /** Pops {@code frame} and adds the action it made to the enclosing sequence. */
    private void finish(Frame frame, Action action) {
        stack.pop();
        stack.peek().actions.add(record(action, frame.actionAt));
    }

    private boolean atSequenceEnd() {
        return pos >= text.length() || "]},>)".indexOf(text.charAt(pos)) >= 0;
    }

    private boolean atSessionPayload() {
        char c = peek();
        if ("!?#@^".indexOf(c) >= 0 && pos < text.length()) {
            return true;
        }
        return switch (wordAt(pos)) {
            case "rec", "cbegin", "sbegin", "end" -> true;
            default -> false;
        };
    }

    /**
     * The end of a Java type starting at {@code pos}: the {@code closer} outside any brackets. Fails
     * on a bracket that opens more levels than the limit leaves.
     */
    private int scanJavaType(char closer) {
        int angles = 0;
        int parens = 0;
        for (int i = pos; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == closer && (closer == '>' ? angles : parens) == 0) {
                return i;
            }
            if ((c == '<' || c == '(') && nesting + angles + parens >= maxNesting) {
                throw tooDeep(i);
            }
            if ((c == '<' || c == '(') && angles + parens >= MAX_TYPE_NESTING) {
                String expected = "at most " + MAX_TYPE_NESTING + " levels of type arguments";
                String found = "'" + c + "' opening level " + (MAX_TYPE_NESTING + 1);
                throw new ProtocolSyntaxException(Kind.NESTING_TOO_DEEP, "a message type nests its type arguments"
                        + " too deeply (Java types are trees that nest once per level): expected " + expected
                        + " but found " + found, text, i, expected, found);
            }
            switch (c) {
                case '<' -> angles++;
                case '>' -> angles--;
                case '(' -> parens++;
                case ')' -> {
                    if (parens == 0) {
                        return i;
                    }
                    parens--;
                }
                case '{', '}', '*', '#', '^', '!', ';' -> {
                    return i;
                }
                default -> {
                }
            }
        }
        return text.length();
    }

    private String identifier(String expected) {
        if (pos >= text.length() || !Character.isJavaIdentifierStart(text.codePointAt(pos))) {
            throw error(expected);
        }
        String word = wordAt(pos);
        pos += word.length();
        return word;
    }

    private String qualifiedName() {
        StringBuilder name = new StringBuilder(identifier("a protocol name"));
        while (peek() == '.') {
            pos++;
            name.append('.').append(identifier("a protocol name after '.'"));
        }
        return name.toString();
    }

    /**
     * The Java identifier starting at {@code from}, or "". Read by code point: an identifier may hold
     * letters outside the Basic Multilingual Plane ({@code 𝔸}), two {@code char}s each.
     */
    private String wordAt(int from) {
        int end = from;
        if (end < text.length() && Character.isJavaIdentifierStart(text.codePointAt(end))) {
            end += Character.charCount(text.codePointAt(end));
            while (end < text.length() && Character.isJavaIdentifierPart(text.codePointAt(end))) {
                end += Character.charCount(text.codePointAt(end));
            }
        }
        return text.substring(from, end);
    }

    private void expect(char c, String expected) {
        if (peek() != c || pos >= text.length()) {
            throw error(expected);
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    /** Skips whitespace, {@code //} line comments and {@code /* *}{@code /} block comments. */
    private void skip() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (text.startsWith("//", pos)) {
                int eol = text.indexOf('\n', pos);
                pos = eol < 0 ? text.length() : eol + 1;
            } else if (text.startsWith("/*", pos)) {
                int close = text.indexOf("*/", pos + 2);
                if (close < 0) {
                    throw new ProtocolSyntaxException(Kind.SYNTAX, text, text.length(),
                            "'*/' closing the comment opened at column " + new SourceText(text).column(pos)
                                    + " of line " + new SourceText(text).line(pos),
                            END_OF_INPUT);
                }
                pos = close + 2;
            } else {
                return;
            }
        }
    }

    /** Opens a level of nesting at the bracket at {@code pos}, and consumes the bracket. */
    private void enter() {
        open(pos);
        pos++;
    }

    /** Opens a level of nesting at the bracket at {@code at}. */
    private void open(int at) {
        if (nesting >= maxNesting) {
            throw tooDeep(at);
        }
        nesting++;
    }

    private ProtocolSyntaxException tooDeep(int at) {
        return tooDeep(text, at, maxNesting);
    }

    /** The error for a bracket at {@code at} that would open more than {@code maxNesting} levels. */
    static ProtocolSyntaxException tooDeep(String text, int at, int maxNesting) {
        String expected = "at most " + maxNesting + " levels of nesting";
        String found = "'" + text.charAt(at) + "' opening level " + (maxNesting + 1);
        return new ProtocolSyntaxException(Kind.NESTING_TOO_DEEP, "the protocol nests too deeply (loops, choices,"
                + " rec, session payloads and type arguments each add a level; the limit is set by the system"
                + " property " + NESTING_PROPERTY + "): expected " + expected + " but found " + found,
                text, at, expected, found);
    }

    private ProtocolSyntaxException error(String expected) {
        return new ProtocolSyntaxException(Kind.SYNTAX, text, pos, expected, found());
    }

    private String found() {
        if (pos >= text.length()) {
            return END_OF_INPUT;
        }
        String word = wordAt(pos);
        return "'" + SourceText.abbreviate(word.isEmpty() ? text.substring(pos, pos + Character.charCount(text.codePointAt(pos)))
                : word) + "'";
    }

    private <T> T record(T node, int at) {
        if (offsets != null) {
            offsets.put(node, at);
        }
        return node;
    }
}
