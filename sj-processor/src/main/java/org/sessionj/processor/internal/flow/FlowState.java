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

    private FlowState(Map<K, VarState> vars) {
        this.vars = vars;
    }

    /** The state with no tracked variables. */
    public static <K> FlowState<K> empty() {
        return new FlowState<>(Collections.emptyMap());
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
        return new FlowState<>(copy);
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
        for (K var : gone) { // loops, not lambdas: the processor is loaded, and each lambda linked, per compilation
            copy.remove(var);
        }
        return new FlowState<>(copy);
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
        return new FlowState<>(merged);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FlowState<?> state && state.vars.equals(vars);
    }

    @Override
    public int hashCode() {
        return vars.hashCode();
    }

    @Override
    public String toString() {
        return vars.toString();
    }
}
