package org.sessionj.runtime.internal.session;

import java.util.function.Consumer;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.runtime.spi.support.LazyLogger;

/**
 * What a runtime's sessions report beyond their own callers: a session closed before its type was
 * complete (abandoned). {@code close()} does not throw for it — it is how a program leaves a session on
 * an exception path, where a throw would replace the program's own exception — so this is where it shows.
 */
public final class SessionEvents {
    private static final System.Logger LOG = LazyLogger.of(SessionEvents.class.getName());

    private volatile Consumer<? super SJProtocolViolationException> abandoned;

    /** Sets the one listener told of each abandoned session ({@code null} removes it). */
    public void onAbandoned(Consumer<? super SJProtocolViolationException> listener) {
        abandoned = listener;
    }

    /**
     * Reports a session closed before its type was complete, on the closing thread: to the listener if one
     * is set (the exception's stack trace shows the close), else to the log at DEBUG.
     */
    void abandoned(String reason) {
        Consumer<? super SJProtocolViolationException> listener = abandoned;
        if (listener == null) {
            LOG.log(System.Logger.Level.DEBUG, "abandoned: {0}", reason);
            return;
        }
        try {
            listener.accept(new SJProtocolViolationException(reason));
        } catch (VirtualMachineError e) {
            throw e; // the JVM is in trouble: not the listener's failure to log and forget
        } catch (RuntimeException | Error e) {
            // The listener's own failure (an assertion of a test's listener too, adv14 A5) must not turn the close
            // into a throw after all: from a finally block it would replace the program's own exception.
            LOG.log(System.Logger.Level.WARNING, "the abandoned-session listener threw", e);
        }
    }
}
