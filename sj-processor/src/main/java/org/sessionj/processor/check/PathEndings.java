package org.sessionj.processor.check;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.util.TreePath;
import java.util.HashMap;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import org.sessionj.processor.internal.flow.VarState;

/**
 * Invariant: <em>a method or constructor ends a {@code @Session} socket parameter on every path that
 * returns, or on none</em>. A caller learns from {@link LentSessions} whether a call ends its session
 * (some path of the body closes, delegates, spawns or registers the socket, or lends it to a method
 * that does) and then counts its socket as ended: it may not act on it, nor close it (SJ025). A body
 * that ends the socket on one path and leaves it open on another would leave the session open on that
 * path with nobody to close it, so it is rejected where the two paths meet (a join) or at the
 * {@code return} (or the end of the body) that leaves it open while another exit has ended it
 * (SJ038). An exit by a {@code throw} counts on the ended side only: {@link LentSessions} finds the
 * ending on <em>any</em> path, so a close before a throw ({@code catch (SJIOException e) { s.close();
 * throw e; }}) makes every caller count the session as ended, also after a normal return that left it
 * open (adv17 A12, second form); a throw with the session open does not count (the caller's handler sees
 * it as unknown and may close it). Lambdas are not asked: the method a lambda implements
 * has no body, so a lambda that ends its parameter on any path is SJ056 already.
 */
final class PathEndings {
    private final MethodChecker flow;
    /** For each socket parameter of the method, the first normal exit that ended it (null: none yet). */
    private final Map<Element, Tree> endedAt = new HashMap<>();
    /** For each socket parameter of the method, the first {@code throw} that leaves it ended. */
    private final Map<Element, Tree> endedByThrowAt = new HashMap<>();
    /** For each socket parameter of the method, the first normal exit that left it open. */
    private final Map<Element, Tree> keptAt = new HashMap<>();

    PathEndings(MethodChecker flow) {
        this.flow = flow;
    }

    /** Whether {@code var} is a socket parameter of the method or constructor being checked. */
    private boolean lentParameter(Element var) {
        ExecutableElement method = flow.unitMethod;
        return method != null && var instanceof VariableElement parameter
                && method.getParameters().contains(parameter) && flow.api.isSocket(parameter.asType())
                && !OverrideRules.fromApi(method);
    }

    /**
     * Where two paths meet: a socket parameter ended on one and complete but open on the other is
     * SJ038. Returns the failed state then, null otherwise (the usual merge applies).
     */
    VarState merge(Element var, VarState left, VarState right, Tree at, String what) {
        if (!lentParameter(var) || !(ended(left) && open(right) || ended(right) && open(left))) {
            return null;
        }
        VarState.Moved moved = (VarState.Moved) (ended(left) ? left : right);
        flow.reporter.error(at, Diagnostic.ENDS_ON_SOME_PATHS, flow.name(var), name(),
                what + " meet with it open on one path and " + moved.how() + " on another");
        return VarState.FAILED;
    }

    /**
     * At a normal exit ({@code at}: the return's path, or null at the end of the body), the state of
     * each parameter. A return inside a try-with-resources block that names the parameter as a resource
     * closes it on the way out (the state does not show it yet: the resource is closed as the statement
     * completes).
     */
    void exit(TreePath at) {
        if (flow.state == null || flow.unitMethod == null) {
            return;
        }
        java.util.Set<Element> resources = at == null ? java.util.Set.of() : enclosingResources(at);
        for (VariableElement parameter : flow.unitMethod.getParameters()) {
            if (!lentParameter(parameter) || !flow.state.tracks(parameter)) {
                continue;
            }
            VarState state = flow.state.get(parameter);
            Tree where = at != null ? at.getLeaf() : flow.infos.get(parameter).declaration();
            if (ended(state) || open(state) && resources.contains(parameter)) {
                endedAt.putIfAbsent(parameter, where);
            } else if (open(state)) {
                keptAt.putIfAbsent(parameter, where);
            }
        }
    }

    /**
     * At a {@code throw} statement ({@code at}), before it throws: a parameter ended here (or a resource of
     * an enclosing try-with-resources block, which Java closes on the way out) is ended on an exit of the
     * method. Counted even when a catch of the method takes the exception: that catch goes on with the
     * session ended, so its own exits agree, or the join after it is reported.
     */
    void thrown(TreePath at) {
        if (flow.state == null || flow.unitMethod == null) {
            return;
        }
        java.util.Set<Element> resources = enclosingResources(at);
        for (VariableElement parameter : flow.unitMethod.getParameters()) {
            if (!lentParameter(parameter) || !flow.state.tracks(parameter)) {
                continue;
            }
            VarState state = flow.state.get(parameter);
            // a session its failed action ended is not one the method ended: its caller's handler sees it failed
            if (ended(state) && !LinearityRules.failed(state)
                    || state instanceof VarState.Live && resources.contains(parameter)) {
                endedByThrowAt.putIfAbsent(parameter, at.getLeaf());
            }
        }
    }

    /** The variables named as resources by the try-with-resources statements whose block encloses {@code at}. */
    private java.util.Set<Element> enclosingResources(TreePath at) {
        java.util.Set<Element> found = new java.util.HashSet<>();
        Tree child = at.getLeaf();
        for (TreePath path = at.getParentPath(); path != null; path = path.getParentPath()) {
            if (path.getLeaf() instanceof TryTree tryTree && tryTree.getBlock() == child) {
                for (Tree resource : tryTree.getResources()) {
                    if (resource instanceof ExpressionTree expression
                            && FlowScanner.strip(expression) instanceof IdentifierTree identifier) {
                        Element var = flow.trees.getElement(new TreePath(path, identifier));
                        if (var != null) {
                            found.add(var);
                        }
                    }
                }
            }
            if (path.getLeaf() instanceof MethodTree || path.getLeaf() instanceof ClassTree) {
                break;
            }
            child = path.getLeaf();
        }
        return found;
    }

    /** At the end of the method's analysis: one exit ended a parameter that another left open. */
    void finish() {
        for (Map.Entry<Element, Tree> kept : keptAt.entrySet()) {
            Element parameter = kept.getKey();
            Tree ended = endedAt.containsKey(parameter) ? endedAt.get(parameter) : endedByThrowAt.get(parameter);
            if (ended == null) {
                continue;
            }
            String what = "it is open " + exit(kept.getValue(), parameter) + " but ended " + exit(ended, parameter);
            flow.reporter.error(kept.getValue(), Diagnostic.ENDS_ON_SOME_PATHS, flow.name(parameter), name(), what);
        }
    }

    private String exit(Tree at, Element parameter) {
        return at == flow.infos.get(parameter).declaration() ? "at the end of the body"
                : at instanceof com.sun.source.tree.ThrowTree ? "before the throw on line " + flow.line(at)
                : "at the return on line " + flow.line(at);
    }

    private String name() {
        return flow.unitMethod.getKind() == javax.lang.model.element.ElementKind.CONSTRUCTOR
                ? "the constructor of " + flow.unitMethod.getEnclosingElement().getSimpleName()
                : "'" + flow.unitMethod.getSimpleName() + "'";
    }

    /** Ended on this path: moved, closed, handed over — not merely null (an unchecked caller's, adv14 A3). */
    private static boolean ended(VarState state) {
        return state instanceof VarState.Moved moved && !moved.isNull();
    }

    private static boolean open(VarState state) {
        return state instanceof VarState.Live live && live.complete();
    }
}
