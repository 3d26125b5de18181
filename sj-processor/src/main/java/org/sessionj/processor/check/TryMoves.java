package org.sessionj.processor.check;

import com.sun.source.tree.Tree;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.lang.model.element.Element;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;

/**
 * The {@code @NoAlias} values moved inside each enclosing try block: a catch or finally block may
 * start after any of those moves (an exception may follow one), so it starts with them moved
 * ({@link #catchEntry}, {@link #alsoMovedIn}); used by {@link TryStatements}.
 */
final class TryMoves {
    private final MethodChecker flow;

    TryMoves(MethodChecker flow) {
        this.flow = flow;
    }

    /** For each enclosing try block, the @NoAlias variables moved anywhere inside it. */
    private final Deque<Set<Element>> movedInTry = new ArrayDeque<>();

    /**
     * How many of the outermost try blocks collecting moves see a move now: all, except while a
     * finally block is run for a jump that leaves the inner ones (their catch and finally blocks
     * cannot follow a move made after the jump left them).
     */
    private int recordingLimit = Integer.MAX_VALUE;

    /** A {@code @NoAlias} value {@code var} was moved: every try block collecting moves sees it. */
    void record(Element var) {
        int index = movedInTry.size();
        for (Set<Element> set : movedInTry) { // innermost first
            if (--index < recordingLimit) {
                set.add(var);
            }
        }
    }

    /** How many try blocks collect moves now. */
    int tryDepth() {
        return movedInTry.size();
    }

    /** Lets only the outermost {@code depth} try blocks see moves; returns the previous limit. */
    int limitTryRecording(int depth) {
        int previous = recordingLimit;
        recordingLimit = depth;
        return previous;
    }

    /** Starts collecting the values moved inside a try block; returns the collection. */
    Set<Element> enterTry() {
        Set<Element> moved = new LinkedHashSet<>();
        movedInTry.push(moved);
        return moved;
    }

    /** Ends the innermost try block's collection. */
    void exitTry() {
        movedInTry.pop();
    }

    /**
     * {@code target} with every {@code @NoAlias} value that is moved in {@code other} moved too: a
     * finally block reached by an exception starts where the try block threw, where a value moved
     * before the try statement and refilled inside it may still be moved.
     */
    FlowState<Element> alsoMovedIn(FlowState<Element> target, FlowState<Element> other) {
        if (target == null || other == null) {
            return target;
        }
        FlowState<Element> result = target;
        for (Element var : other.variables()) {
            VarInfo info = flow.infos.get(var);
            if (info != null && info.kind().moves() && other.get(var) instanceof VarState.Moved moved
                    && result.get(var) instanceof VarState.Owned) {
                result = result.with(var, moved);
            }
        }
        return result;
    }

    /** Where a catch block starts: a value the try block moved may have been moved before the exception. */
    FlowState<Element> catchEntry(FlowState<Element> entry, Set<Element> moved, Tree tree) {
        FlowState<Element> result = entry;
        for (Element var : moved) {
            if (result != null && result.get(var) instanceof VarState.Owned) {
                result = result.with(var, new VarState.Moved("in the try block starting on line " + flow.line(tree)
                        + " (an exception may follow the move)"));
            }
        }
        return result;
    }
}
