package org.sessionj.types;

import org.sessionj.types.internal.SourceText;

/**
 * A protocol is unusable: it does not parse, is not well-formed, or refers to protocols that are
 * unknown or refer to themselves. Unchecked, because protocols are usually constants whose errors
 * are programming errors.
 *
 * <p>When the problem has a place in the protocol text, {@link #offset()}, {@link #line()} and
 * {@link #column()} locate it and {@link #excerpt()} shows it; otherwise they are {@code -1} and
 * the excerpt is empty. The excerpt shows the neighbourhood of the column, not the whole line, and
 * no part of the message grows with the size of the protocol.
 */
public class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The longest detail, expected or found text kept (longer ones are cut in the middle). */
    private static final int MAX_DETAIL = 2000;

    private final ProtocolProblem.Kind kind;
    private final String detail;
    private final int offset;
    private final int line;
    private final int column;
    private final String expected;
    private final String found;
    private final String excerpt;

    /** A problem without a position in any text. */
    public ProtocolException(ProtocolProblem.Kind kind, String detail, String expected, String found) {
        this(kind, detail, expected, found, null, -1);
    }

    /**
     * A problem at {@code offset} in {@code text} (either may be absent: {@code null} text or a
     * negative offset).
     */
    public ProtocolException(ProtocolProblem.Kind kind, String detail, String expected, String found,
                             String text, int offset) {
        super(message(SourceText.abbreviate(detail, MAX_DETAIL), text, offset));
        this.kind = java.util.Objects.requireNonNull(kind, "kind");
        this.detail = SourceText.abbreviate(detail, MAX_DETAIL);
        this.expected = expected == null ? "" : SourceText.abbreviate(expected, MAX_DETAIL);
        this.found = found == null ? "" : SourceText.abbreviate(found, MAX_DETAIL);
        if (text != null && offset >= 0) {
            SourceText source = new SourceText(text);
            this.offset = Math.min(offset, text.length());
            this.line = source.line(this.offset);
            this.column = source.column(this.offset);
            this.excerpt = source.excerpt(this.offset);
        } else {
            this.offset = -1;
            this.line = -1;
            this.column = -1;
            this.excerpt = "";
        }
    }

    private static String message(String detail, String text, int offset) {
        if (text == null || offset < 0) {
            return detail;
        }
        SourceText source = new SourceText(text);
        int at = Math.min(offset, text.length());
        return "line " + source.line(at) + ", column " + source.column(at) + ": " + detail
                + "\n" + source.excerpt(at);
    }

    /** What kind of problem this is; {@link ProtocolProblem.Kind#code()} is its stable code. */
    public ProtocolProblem.Kind kind() {
        return kind;
    }

    /** The stable code of this problem, e.g. {@code SJT100}. */
    public String code() {
        return kind.code();
    }

    /** The message without position and excerpt. */
    public String detail() {
        return detail;
    }

    /** The 0-based character offset of the problem in the protocol text, or -1. */
    public int offset() {
        return offset;
    }

    /** The 1-based line of the problem, or -1. */
    public int line() {
        return line;
    }

    /** The 1-based column of the problem, or -1. */
    public int column() {
        return column;
    }

    /** What was expected at the problem's place (may be empty). */
    public String expected() {
        return expected;
    }

    /** What was found there instead (may be empty). */
    public String found() {
        return found;
    }

    /** The offending line and a caret line under the problem's column; empty without a position. */
    public String excerpt() {
        return excerpt;
    }
}
