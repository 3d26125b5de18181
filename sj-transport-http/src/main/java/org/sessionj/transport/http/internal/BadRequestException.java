package org.sessionj.transport.http.internal;

/**
 * A request the client got wrong in a way only its parsing finds (a malformed percent-escape in its
 * URI): answered {@code 400 Bad Request} with the message, logged at DEBUG only, since it says nothing
 * about this side and a client can send it as often as it likes.
 */
public final class BadRequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A bad request, {@code message} saying what is wrong with it. */
    public BadRequestException(String message) {
        super(message, null, false, false);
    }
}
