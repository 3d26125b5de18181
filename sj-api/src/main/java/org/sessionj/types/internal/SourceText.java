package org.sessionj.types.internal;

/** Line and column arithmetic over a protocol text, for error positions and caret excerpts. */
public final class SourceText {
    /** Characters an excerpt shows on each side of the offset. */
    public static final int EXCERPT_SIDE = 60;
    /** The longest piece of input quoted whole in a message. */
    public static final int MAX_QUOTED = 60;
    private static final String ELLIPSIS = "\u2026";

    private final String text;

    public SourceText(String text) {
        this.text = text;
    }

    /** The 1-based line of {@code offset}. */
    public int line(int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /** The 1-based column of {@code offset} (characters since the line start). */
    public int column(int offset) {
        return offset - lineStart(offset) + 1;
    }

    /**
     * The line holding {@code offset} and, under it, a caret at the offset's column. A long line is
     * cut to the {@value #EXCERPT_SIDE} characters either side of the offset, each cut marked with
     * {@code …}, so an error in a huge protocol echoes a few hundred characters, not the protocol.
     */
    public String excerpt(int offset) {
        int at = Math.max(0, Math.min(offset, text.length()));
        int start = lineStart(at);
        int end = text.indexOf('\n', at);
        if (end < 0) {
            end = text.length();
        }
        if (end > start && text.charAt(end - 1) == '\r') {
            end--;
        }
        int from = Math.max(start, at - EXCERPT_SIDE);
        int to = Math.max(from, Math.min(end, at + EXCERPT_SIDE));
        StringBuilder line = new StringBuilder();
        StringBuilder caret = new StringBuilder();
        if (from > start) {
            line.append(ELLIPSIS);
            caret.append(' ');
        }
        line.append(text, from, to);
        if (to < end) {
            line.append(ELLIPSIS);
        }
        for (int i = from; i < at; i++) {
            caret.append(text.charAt(i) == '\t' ? '\t' : ' ');
        }
        return line + "\n" + caret + '^';
    }

    /**
     * {@code s} itself when it has at most {@value #MAX_QUOTED} characters, else its start and end
     * around {@code …} and its length: for quoting what the input holds in a message.
     */
    public static String abbreviate(String s) {
        return abbreviate(s, MAX_QUOTED);
    }

    /** {@code s}, cut in the middle (marked {@code …(N characters)…}) to about {@code max} characters. */
    public static String abbreviate(String s, int max) {
        if (s == null || s.length() <= max) {
            return s;
        }
        int keep = Math.max(1, (max - 20) / 2);
        return s.substring(0, keep) + ELLIPSIS + "(" + s.length() + " characters)" + ELLIPSIS
                + s.substring(s.length() - keep);
    }

    /** The offset of the character at 1-based {@code line} and {@code column}. */
    public int offsetOf(int line, int column) {
        int offset = 0;
        for (int l = 1; l < line && offset < text.length(); offset++) {
            if (text.charAt(offset) == '\n') {
                l++;
            }
        }
        return Math.min(offset + column - 1, text.length());
    }

    private int lineStart(int offset) {
        int at = Math.min(offset, text.length());
        return text.lastIndexOf('\n', at - 1) + 1;
    }
}
