package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.Element;
import org.sessionj.processor.internal.flow.VarState;

/**
 * How the states of one variable merge where two paths meet and widen round a loop. A failed
 * variable stays failed; an unassigned one takes the other path's state; a {@code @NoAlias} value
 * moved on either path is moved ({@link NoAliasRules#merge}); a socket's two session states must
 * agree ({@link LinearityRules#merge}).
 *
 * <p>Invariant for services and server sockets: <em>a service's protocol is the same on every path
 * that reaches a use of it</em>, also the paths round a loop. Different protocols become
 * {@link #CONFLICTING}, and a request or a send of it is then rejected. A service variable assigned in
 * a loop body may hold, at the top of the loop, the service of an earlier iteration, so the loop is
 * probed and the two states merged; one reassigned in a try block may hold, in its catch and finally
 * blocks, the service of any point where the try block may throw ({@link #endpointAtAny}).
 */
final class StateMerges {
    /** The protocol name of an endpoint whose protocol differs on the paths that meet. */
    static final String CONFLICTING = "of different protocols on the paths that reach here";

    private final MethodChecker flow;
    private Set<Element> assigned;

    StateMerges(MethodChecker flow) {
        this.flow = flow;
    }

    /** The merged state of {@code var} whose states differ on two paths that meet {@code at} (may report). */
    VarState merge(Element var, VarState left, VarState right, Tree at, String what) {
        if (left instanceof VarState.Failed || right instanceof VarState.Failed) {
            return VarState.FAILED;
        }
        if (left instanceof VarState.Unassigned) {
            return right;
        }
        if (right instanceof VarState.Unassigned) {
            return left;
        }
        VarState endpoint = endpoints(left, right);
        if (endpoint != null) {
            return endpoint;
        }
        if (flow.infos.containsKey(var) && flow.infos.get(var).kind().moves()) {
            return NoAliasRules.merge(left, right);
        }
        return flow.linearity.merge(var, left, right, at, what);
    }

    /** The merged state of an endpoint variable, or null when neither state is an endpoint's. */
    private static VarState endpoints(VarState left, VarState right) {
        if (left instanceof VarState.Endpoint l && right instanceof VarState.Endpoint r) {
            // Two known protocols meet: the endpoint may be either, which a send of a service must not accept.
            boolean conflict = CONFLICTING.equals(l.protocolName()) || CONFLICTING.equals(r.protocolName())
                    || l.protocol() != null && r.protocol() != null && !l.protocol().equals(r.protocol());
            if (!conflict && l.protocol() != null && l.protocol().equals(r.protocol())) {
                return l; // one protocol, described two ways
            }
            return conflict ? new VarState.Endpoint(null, CONFLICTING) : VarState.Endpoint.unknown();
        }
        if (left instanceof VarState.Endpoint || right instanceof VarState.Endpoint) {
            return VarState.Endpoint.unknown();
        }
        return null;
    }

    /** The endpoint a value has that is one of two endpoint values (the arms of a conditional). */
    static VarState endpointValues(VarState left, VarState right) {
        VarState merged = endpoints(left, right);
        return merged instanceof VarState.Endpoint ? merged : VarState.Endpoint.unknown();
    }

    /**
     * The state of a service or server socket that may hold any of {@code states} (the throw points of
     * a try block, for its catch and finally blocks): as where that many paths meet.
     */
    static VarState endpointAtAny(java.util.Collection<VarState> states) {
        VarState merged = null;
        for (VarState state : states) {
            if (state == null || state instanceof VarState.Unassigned) {
                continue; // not assigned yet on that path: javac rejects a use there
            }
            if (state instanceof VarState.Failed) {
                return VarState.FAILED;
            }
            merged = merged == null ? state : endpointValues(merged, state);
        }
        return merged == null ? states.iterator().next() : merged;
    }

    /** Whether a loop must be probed for {@code var}: an endpoint the body assigns. */
    boolean widens(Element var, VarState value) {
        return value instanceof VarState.Endpoint && assigned().contains(var);
    }

    /**
     * Whether a loop must be probed for socket {@code var}: the body assigns it, so whether it holds null
     * may differ between the first round and later ones (a connect-retry, {@code t = null} after a close).
     */
    boolean nullWidens(Element var, VarState value) {
        return (value instanceof VarState.Live || value instanceof VarState.Moved || value instanceof VarState.Nullable)
                && assigned().contains(var) && flow.infos.get(var).kind() == FlowScanner.Kind.SOCKET;
    }

    /** The state of an endpoint at the top of a loop when {@link #decides}; null: the entry state holds. */
    static VarState widened(VarState atEntry, VarState atBackEdge) {
        VarState merged = endpoints(atEntry, atBackEdge);
        return merged.equals(atEntry) ? null : merged;
    }

    /** Whether {@link #widened} decides for these states (both an endpoint's, and different). */
    static boolean decides(VarState atEntry, VarState atBackEdge) {
        return atEntry instanceof VarState.Endpoint && atBackEdge instanceof VarState.Endpoint
                && !atEntry.equals(atBackEdge);
    }

    /** The socket, service and server-socket variables the body assigns after their declaration (found once). */
    private Set<Element> assigned() {
        if (assigned == null) {
            Set<Element> found = new HashSet<>();
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitAssignment(AssignmentTree tree, Void unused) {
                    if (FlowScanner.strip(tree.getVariable()) instanceof IdentifierTree target
                            && flow.trees.getElement(new TreePath(getCurrentPath(), target)) instanceof Element var
                            && (flow.api.isService(var.asType()) || flow.api.isServerSocket(var.asType())
                                    || flow.api.isSocket(var.asType()))) {
                        found.add(var);
                    }
                    return super.visitAssignment(tree, unused);
                }

                @Override
                public Void visitClass(ClassTree tree, Void unused) {
                    return null; // another body
                }

                @Override
                public Void visitLambdaExpression(LambdaExpressionTree tree, Void unused) {
                    return null; // another body
                }
            }.scan(flow.root.getLeaf() instanceof LambdaExpressionTree lambda
                    ? new TreePath(flow.root, lambda.getBody()) : flow.root, null);
            assigned = found;
        }
        return assigned;
    }
}
