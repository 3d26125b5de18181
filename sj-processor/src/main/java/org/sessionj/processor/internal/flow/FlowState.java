package org.sessionj.processor.internal.flow;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The state of every tracked variable at one program point: an immutable map that the checker
 * threads through statements and merges where control flow joins. A missing entry means the
 * variable is not tracked (not declared yet, or out of scope).
 *
 * @param <K> how variables are identified (javac elements in the checker)
 */
public final class FlowState<K> {
    private final Map<K, VarState> vars;
    /**
     * The variables whose current session an {@code SJScope} closes, on the paths reaching this point
     * (adv18 A4: a per-path fact, joined like the states; most states: none). Absent: a member on no path.
     */
    private final Map<K, Membership> members;

    private FlowState(Map<K, VarState> vars, Map<K, Membership> members) {
        this.vars = vars;
        this.members = members;
    }

    /** The state with no tracked variables. */
    public static <K> FlowState<K> empty() {
        return new FlowState<>(Collections.emptyMap(), Collections.emptyMap());
    }

    /**
     * A variable's session is a member of a scope: {@code scope} is the scope (an opaque key: the checker's
     * element for its variable; null where paths with members of different scopes meet: the first scope to
     * close closes it), {@code everyPath} whether it is one on every path reaching the point (false: on some
     * only, where paths with and without the {@code scope.add} meet).
     */
    public static final class Membership {
        private final Object scope;
        private final boolean everyPath;

        /** A membership of {@code scope} (may be null: see the class), on every path or on some. */
        public Membership(Object scope, boolean everyPath) {
            this.scope = scope;
            this.everyPath = everyPath;
        }

        /** The scope, or null when it differs between paths. */
        public Object scope() {
            return scope;
        }

        /** Whether the session is a member on every path reaching the point. */
        public boolean everyPath() {
            return everyPath;
        }

        /**
         * Where two paths meet: the same membership stays; a member on one path only, or of two scopes,
         * is one on some paths ({@code null}: a member on neither).
         */
        public static Membership join(Membership left, Membership right) {
            if (left == null ? right == null : left.equals(right)) {
                return left;
            }
            Object scope = left == null ? right.scope : right == null ? left.scope
                    : java.util.Objects.equals(left.scope, right.scope) ? left.scope : null;
            return new Membership(scope, false);
        }

        // equals and hashCode written out (as VarState's): compared at every join
        @Override
        public boolean equals(Object other) {
            return other instanceof Membership that && everyPath == that.everyPath
                    && java.util.Objects.equals(scope, that.scope);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hashCode(scope) * 2 + (everyPath ? 1 : 0);
        }

        @Override
        public String toString() {
            return (everyPath ? "member of " : "member on some paths of ") + scope;
        }
    }

    /** The scope membership of {@code var}'s session here, or null when it is a member on no path. */
    public Membership membership(K var) {
        return members.get(var);
    }

    /** The scope memberships here (usually none). */
    public Map<K, Membership> memberships() {
        return members.isEmpty() ? Collections.emptyMap() : Collections.unmodifiableMap(members);
    }

    /** This state with {@code var}'s membership set to {@code membership} (null: a member on no path). */
    public FlowState<K> withMembership(K var, Membership membership) {
        if (membership == null ? !members.containsKey(var) : membership.equals(members.get(var))) {
            return this;
        }
        Map<K, Membership> copy = new LinkedHashMap<>(members);
        if (membership == null) {
            copy.remove(var);
        } else {
            copy.put(var, membership);
        }
        return new FlowState<>(vars, copy);
    }

    /**
     * This state with the membership of each variable it tracks joined with that in {@code other} (where
     * {@code other} tracks it too): as if the paths of {@code other} met here, for memberships only.
     */
    public FlowState<K> withMembershipsJoined(FlowState<K> other) {
        if (other == null || other.members.equals(members)) {
            return this;
        }
        FlowState<K> result = this;
        for (K var : vars.keySet()) { // loops, not lambdas (see without)
            if (other.vars.containsKey(var)) {
                result = result.withMembership(var, Membership.join(members.get(var), other.members.get(var)));
            }
        }
        return result;
    }

    /** The state of {@code var}, or null when it is not tracked. */
    public VarState get(K var) {
        return vars.get(var);
    }

    /** Whether {@code var} is tracked here. */
    public boolean tracks(K var) {
        return vars.containsKey(var);
    }

    /** The tracked variables. */
    public Set<K> variables() {
        return Collections.unmodifiableSet(vars.keySet());
    }

    /** This state with {@code var} set to {@code state}. */
    public FlowState<K> with(K var, VarState state) {
        if (state.equals(vars.get(var))) {
            return this;
        }
        Map<K, VarState> copy = new LinkedHashMap<>(vars);
        copy.put(var, state);
        return new FlowState<>(copy, members);
    }

    /** This state without the given variables (they went out of scope). */
    public FlowState<K> without(Collection<K> gone) {
        boolean any = false;
        for (K var : gone) {
            any |= vars.containsKey(var);
        }
        if (!any) {
            return this;
        }
        Map<K, VarState> copy = new LinkedHashMap<>(vars);
        Map<K, Membership> memberCopy = members.isEmpty() ? members : new LinkedHashMap<>(members);
        for (K var : gone) { // loops, not lambdas: the processor is loaded, and each lambda linked, per compilation
            copy.remove(var);
            if (!members.isEmpty()) {
                memberCopy.remove(var);
            }
        }
        return new FlowState<>(copy, memberCopy);
    }

    /** Decides the merged state of one variable whose states differ on two incoming paths. */
    @FunctionalInterface
    public interface Merger<K> {
        /** The merged state; may report a diagnostic and return {@link VarState#FAILED}. */
        VarState merge(K var, VarState left, VarState right);
    }

    /**
     * Merges two incoming paths; either may be null (unreachable). Variables tracked on only one
     * side keep that side's state; differing states go to {@code merger}.
     */
    public static <K> FlowState<K> join(FlowState<K> left, FlowState<K> right, Merger<K> merger) {
        if (left == null) {
            return right;
        }
        if (right == null || left == right) {
            return left;
        }
        Map<K, VarState> merged = new LinkedHashMap<>(left.vars);
        for (Map.Entry<K, VarState> entry : right.vars.entrySet()) {
            K var = entry.getKey();
            VarState rightState = entry.getValue();
            VarState leftState = merged.get(var);
            if (leftState == null) {
                merged.put(var, rightState);
            } else if (!leftState.equals(rightState)) {
                merged.put(var, merger.merge(var, leftState, rightState));
            }
        }
        return new FlowState<>(merged, joinMembers(left, right));
    }

    /**
     * The memberships where two paths meet: a variable tracked on one side only keeps that side's; one
     * tracked on both is a member on every path only if it is one on both ({@link Membership#join}).
     */
    private static <K> Map<K, Membership> joinMembers(FlowState<K> left, FlowState<K> right) {
        if (left.members.equals(right.members)) {
            return left.members;
        }
        Map<K, Membership> merged = new LinkedHashMap<>();
        for (Map.Entry<K, Membership> entry : left.members.entrySet()) {
            K var = entry.getKey();
            Membership joined = right.vars.containsKey(var) ? Membership.join(entry.getValue(), right.members.get(var))
                    : entry.getValue();
            merged.put(var, joined);
        }
        for (Map.Entry<K, Membership> entry : right.members.entrySet()) {
            K var = entry.getKey();
            if (!left.members.containsKey(var)) {
                merged.put(var, left.vars.containsKey(var) ? Membership.join(null, entry.getValue()) : entry.getValue());
            }
        }
        return merged;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FlowState<?> state && state.vars.equals(vars) && state.members.equals(members);
    }

    @Override
    public int hashCode() {
        return vars.hashCode() * 31 + members.hashCode();
    }

    @Override
    public String toString() {
        return members.isEmpty() ? vars.toString() : vars + " " + members;
    }
}
