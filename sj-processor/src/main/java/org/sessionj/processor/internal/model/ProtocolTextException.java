package org.sessionj.processor.internal.model;

/**
 * A protocol text that does not parse, with the position of the problem inside the text. The
 * processor adds the position to its message because javac cannot point inside a string literal.
 */
public final class ProtocolTextException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;
    private final String excerpt;

    public ProtocolTextException(String message, int line, int column, String excerpt) {
        super(message);
        this.line = line;
        this.column = column;
        this.excerpt = excerpt;
    }

    /** 1-based line inside the protocol text. */
    public int line() {
        return line;
    }

    /** 1-based column inside the protocol text. */
    public int column() {
        return column;
    }

    /** The offending line of the protocol text followed by a caret line under the problem. */
    public String excerpt() {
        return excerpt;
    }
}
