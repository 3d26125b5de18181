package org.sessionj.processor.internal.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;
import org.sessionj.types.Side;

/**
 * Recursive-descent parser for SJ notation, used by {@link TypeModel} until the sj-api parser
 * ({@code SessionTypes.parse}) is available on this branch.
 */
final class InterimParser {
    private final String text;
    private int pos;

    private InterimParser(String text) {
        this.text = text;
    }

    static SessionType parse(String text) {
        InterimParser parser = new InterimParser(text);
        SessionType type = parser.sequence();
        parser.skipSpace();
        if (parser.pos < text.length()) {
            throw parser.error("'.' or the end of the protocol");
        }
        return type;
    }

    private SessionType sequence() {
        List<Action> actions = new ArrayList<>();
        skipSpace();
        if (atSequenceEnd()) {
            return SessionType.END;
        }
        actions.add(action());
        while (true) {
            skipSpace();
            if (!peek(".")) {
                return new SessionType(actions);
            }
            pos++;
            actions.add(action());
        }
    }

    private boolean atSequenceEnd() {
        return pos >= text.length() || "]}),>".indexOf(text.charAt(pos)) >= 0;
    }

    private Action action() {
        skipSpace();
        if (keyword("cbegin")) {
            return new Action.Begin(Side.REQUEST);
        }
        if (keyword("sbegin")) {
            return new Action.Begin(Side.ACCEPT);
        }
        if (keyword("rec")) {
            String variable = identifier("a recursion variable");
            expect("[");
            SessionType body = sequence();
            expect("]");
            return new Action.Rec(variable, body);
        }
        if (accept("#")) {
            return new Action.RecVar(identifier("a recursion variable"));
        }
        if (accept("@(")) {
            String name = qualifiedName("a protocol name");
            expect(")");
            return new Action.ProtocolRef(name);
        }
        if (accept("^(")) {
            String name = qualifiedName("a protocol name");
            expect(")");
            return new Action.DualRef(name);
        }
        if (accept("!<")) {
            Payload payload = payload();
            expect(">");
            return new Action.Send(payload);
        }
        if (accept("?(")) {
            Payload payload = payload();
            expect(")");
            return new Action.Receive(payload);
        }
        if (accept("!{")) {
            return new Action.Select(branches());
        }
        if (accept("?{")) {
            return new Action.Branch(branches());
        }
        if (accept("![")) {
            SessionType body = sequence();
            expect("]*");
            return new Action.OutWhile(body);
        }
        if (accept("?[")) {
            SessionType body = sequence();
            expect("]*");
            return new Action.InWhile(body);
        }
        throw error("a session action (cbegin, sbegin, !<T>, ?(T), !{...}, ?{...}, ![...]*, ?[...]*, rec X[...], #X, @(P), ^(P))");
    }

    private Map<String, SessionType> branches() {
        Map<String, SessionType> branches = new LinkedHashMap<>();
        skipSpace();
        if (accept("}")) {
            return branches;
        }
        do {
            int labelStart = skipSpaceAndMark();
            String label = identifier("a label");
            expect(":");
            SessionType body = sequence();
            if (branches.containsKey(label)) {
                pos = labelStart;
                throw error("a label not used before in this choice", "duplicate label '" + label + "'");
            }
            branches.put(label, body);
            skipSpace();
        } while (accept(","));
        expect("}");
        return branches;
    }

    private int skipSpaceAndMark() {
        skipSpace();
        return pos;
    }

    private Payload payload() {
        skipSpace();
        if (startsSession()) {
            return new Payload.SessionPayload(sequence());
        }
        return javaType();
    }

    private boolean startsSession() {
        return peekKeyword("cbegin") || peekKeyword("sbegin") || peekKeyword("rec") || peek("#") || peek("@(")
                || peek("^(") || peek("!") || peek("?");
    }

    private Payload.JavaType javaType() {
        String name = qualifiedName("a Java type");
        List<Payload.JavaType> arguments = new ArrayList<>();
        skipSpace();
        if (accept("<")) {
            do {
                arguments.add(javaType());
                skipSpace();
            } while (accept(","));
            expect(">");
        }
        int dimensions = 0;
        skipSpace();
        while (accept("[")) {
            expect("]");
            dimensions++;
            skipSpace();
        }
        return new Payload.JavaType(name, arguments, dimensions);
    }

    private String qualifiedName(String what) {
        StringBuilder name = new StringBuilder(identifier(what));
        while (peek(".") && pos + 1 < text.length() && Character.isJavaIdentifierStart(text.charAt(pos + 1))) {
            pos++;
            name.append('.').append(identifier(what));
        }
        return name.toString();
    }

    private String identifier(String what) {
        skipSpace();
        int start = pos;
        if (pos < text.length() && Character.isJavaIdentifierStart(text.charAt(pos))) {
            pos++;
            while (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) {
                pos++;
            }
            return text.substring(start, pos);
        }
        throw error(what);
    }

    private boolean keyword(String word) {
        if (peekKeyword(word)) {
            pos += word.length();
            return true;
        }
        return false;
    }

    private boolean peekKeyword(String word) {
        return text.startsWith(word, pos)
                && (pos + word.length() >= text.length() || !Character.isJavaIdentifierPart(text.charAt(pos + word.length())));
    }

    private boolean peek(String token) {
        return text.startsWith(token, pos);
    }

    private boolean accept(String token) {
        skipSpace();
        if (text.startsWith(token, pos)) {
            pos += token.length();
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (!accept(token)) {
            throw error("'" + token + "'");
        }
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private ProtocolTextException error(String expected) {
        String found = pos >= text.length() ? "the end of the protocol" : "'" + text.charAt(pos) + "'";
        return error(expected, found);
    }

    private ProtocolTextException error(String expected, String found) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < pos && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        int lineEnd = text.indexOf('\n', lineStart);
        String lineText = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd);
        int column = pos - lineStart + 1;
        String excerpt = lineText + "\n" + " ".repeat(column - 1) + "^";
        return new ProtocolTextException("expected " + expected + " but found " + found, line, column, excerpt);
    }
}
