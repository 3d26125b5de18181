package org.sessionj.types;

/**
 * The protocol text is not valid SJ notation. Always carries a position; the message reads
 * {@code line L, column C: expected X but found Y}, followed by the offending line and a caret.
 */
public class ProtocolSyntaxException extends ProtocolException {
    private static final long serialVersionUID = 1L;

    /** A syntax error at {@code offset} in {@code text}. */
    public ProtocolSyntaxException(ProtocolProblem.Kind kind, String text, int offset, String expected,
                                   String found) {
        super(kind, "expected " + expected + " but found " + found, expected, found, text, offset);
    }

    /** A syntax error whose detail is more specific than "expected X but found Y". */
    public ProtocolSyntaxException(ProtocolProblem.Kind kind, String detail, String text, int offset,
                                   String expected, String found) {
        super(kind, detail, expected, found, text, offset);
    }
}
