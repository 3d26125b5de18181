package org.sessionj.types.internal;

/** Line and column arithmetic over a protocol text, for error positions and caret excerpts. */
public final class SourceText {
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

    /** The line holding {@code offset} and, under it, a caret at the offset's column. */
    public String excerpt(int offset) {
        int start = lineStart(offset);
        int end = text.indexOf('\n', start);
        if (end < 0) {
            end = text.length();
        }
        String line = text.substring(start, end);
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        StringBuilder caret = new StringBuilder();
        for (int i = start; i < offset; i++) {
            caret.append(text.charAt(i) == '\t' ? '\t' : ' ');
        }
        return line + "\n" + caret + '^';
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
