package org.sessionj.types;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A session set type {@code {S1, S2, …}}: a session that is at one of the member types, and the
 * program learns which only at run time (a typed selector yields such sessions; a typecase tells the
 * members apart). Notation and rules: {@code docs/session-types.md} §8.
 *
 * <p>Immutable. Members keep their written order (printing, the arms of a typecase) but equality is
 * as sets: {@code {A, B}} equals {@code {B, A}}. A set has at least one member and no member twice.
 */
public final class SessionSet {
    private final List<SessionType> members;
    private final Set<SessionType> asSet;

    /**
     * A set of {@code members}, in order.
     *
     * @throws IllegalArgumentException when {@code members} is empty or holds a type twice
     */
    public SessionSet(List<SessionType> members) {
        Objects.requireNonNull(members, "members");
        this.members = List.copyOf(members);
        this.asSet = new LinkedHashSet<>(this.members);
        if (this.members.isEmpty()) {
            throw new IllegalArgumentException("a session set has at least one member");
        }
        if (asSet.size() != this.members.size()) {
            throw new IllegalArgumentException("a session set holds each member once: " + this.members);
        }
    }

    /** The set of the given members, in order. */
    public static SessionSet of(SessionType... members) {
        return new SessionSet(List.of(members));
    }

    /** The members, in written order (an unmodifiable list). */
    public List<SessionType> members() {
        return members;
    }

    /** How many members the set has. */
    public int size() {
        return members.size();
    }

    /** Whether {@code type} is one of the members (structural equality; see {@link SessionSets#memberOf}). */
    public boolean contains(SessionType type) {
        return asSet.contains(type);
    }

    /** This set and then the members of {@code other} not in it (the union, in order). */
    public SessionSet union(SessionSet other) {
        List<SessionType> all = new ArrayList<>(members);
        for (SessionType member : other.members) {
            if (!asSet.contains(member)) {
                all.add(member);
            }
        }
        return new SessionSet(all);
    }

    /** Equality as sets: the same members in any order. */
    @Override
    public boolean equals(Object o) {
        return o instanceof SessionSet other && asSet.equals(other.asSet);
    }

    @Override
    public int hashCode() {
        return asSet.hashCode();
    }

    /** The canonical notation, {@code {S1, S2}} ({@link SessionSets#print}). */
    @Override
    public String toString() {
        return SessionSets.print(this);
    }
}
