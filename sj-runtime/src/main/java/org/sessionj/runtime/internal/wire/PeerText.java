package org.sessionj.runtime.internal.wire;

/**
 * Text a peer sent, made safe to quote in a log line or an exception message (hostile H8): a requester's
 * session type with newlines forged whole log records in the runtime's own log (the parse error quotes the
 * offending line), and a failure reason's NUL and ANSI escape bytes reached {@code getMessage()}, which
 * programs log to terminals and line-oriented files. Invariant: <em>every control character of peer text
 * is quoted escaped</em> — {@code \n}, {@code \r}, {@code \t} as such, the rest as {@code \}{@code uXXXX}
 * (U+0000–U+001F, U+007F–U+009F, the line and paragraph separators U+2028/U+2029 and the bidirectional
 * controls U+202A–U+202E, U+2066–U+2069, which reorder what a terminal shows). A backslash is doubled, so
 * an escape the peer wrote cannot pass for one of these.
 */
public final class PeerText {
    private PeerText() {
    }

    /** {@code text} with its control characters escaped; the same string when it has none; null for null. */
    public static String escaped(String text) {
        if (text == null) {
            return null;
        }
        int first = 0;
        while (first < text.length() && !needsEscape(text.charAt(first))) {
            first++;
        }
        if (first == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (needsEscape(c)) {
                        out.append(String.format("\\u%04X", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    private static boolean needsEscape(char c) {
        return c < 0x20 || c == '\\' || c >= 0x7F && c <= 0x9F || c == 0x2028 || c == 0x2029
                || c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069;
    }
}
