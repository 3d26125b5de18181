package org.sessionj.examples.chat;

/**
 * Where a chat client shows what happens: one line per event, already cleaned of control characters.
 * Called from several threads; implementations must be thread-safe.
 */
@FunctionalInterface
public interface ChatDisplay {

    /** Shows one line. */
    void show(String line);
}
