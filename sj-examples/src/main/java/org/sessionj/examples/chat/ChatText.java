package org.sessionj.examples.chat;

/**
 * The rules for text that comes from the network: bounded lengths, and nothing a terminal would
 * interpret. Every name and message is cleaned by the side that receives it before it is stored,
 * forwarded or printed, so a peer cannot move the cursor, change colours, retitle the window or
 * hide text (ANSI/VT escape sequences start with ESC, a C0 control; C1 controls and Unicode
 * direction overrides are removed too).
 */
public final class ChatText {
    /** The longest user name kept, in code points. */
    public static final int MAX_NAME = 24;
    /** The longest message kept, in code points; the rest is cut off with an ellipsis. */
    public static final int MAX_MESSAGE = 1000;

    private ChatText() {
    }

    /**
     * {@code text} without control characters (C0, DEL, C1, bidirectional overrides and isolates, line and
     * paragraph separators), tabs as spaces, at most {@code max} code points (then "…"); null is empty.
     */
    public static String clean(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max + 1));
        int kept = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\t') {
                cp = ' ';
            }
            if (!printable(cp)) {
                continue;
            }
            if (kept == max) {
                out.append('…');
                break;
            }
            out.appendCodePoint(cp);
            kept++;
        }
        return out.toString();
    }

    /** A user name: cleaned, inner blanks as '_', at most {@link #MAX_NAME}; empty if nothing is left. */
    public static String name(String name) {
        String cleaned = clean(name, MAX_NAME).strip();
        if (cleaned.endsWith("…")) {
            cleaned = cleaned.substring(0, cleaned.length() - 1);
        }
        return cleaned.replaceAll("\\s+", "_");
    }

    /** A message: cleaned and at most {@link #MAX_MESSAGE} code points. */
    public static String message(String text) {
        return clean(text, MAX_MESSAGE);
    }

    private static boolean printable(int cp) {
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
            return false;                                   // C0, DEL, C1 (ESC, CSI, OSC ...)
        }
        if (cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)
                || cp == 0x200e || cp == 0x200f || cp == 0x061c) {
            return false;                                   // separators, direction marks and overrides
        }
        int type = Character.getType(cp);
        return type != Character.UNASSIGNED && type != Character.SURROGATE && type != Character.PRIVATE_USE
                && type != Character.FORMAT;
    }
}
