package org.sessionj.types;

/** Which side of session initiation a type describes. */
public enum Side {
    /** {@code cbegin}: the side that requests the session (client). */
    REQUEST("cbegin"),
    /** {@code sbegin}: the side that accepts it (server). */
    ACCEPT("sbegin");

    private final String keyword;

    Side(String keyword) {
        this.keyword = keyword;
    }

    /** The keyword in SJ notation. */
    public String keyword() {
        return keyword;
    }

    /** The other side. */
    public Side dual() {
        return this == REQUEST ? ACCEPT : REQUEST;
    }
}
