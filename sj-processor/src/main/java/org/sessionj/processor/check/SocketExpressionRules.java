package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.type.TypeMirror;

/**
 * Invariant: <em>the expressions of socket type are exactly the tracked socket variables</em>. A
 * socket that reaches code any other way — a pattern binding ({@code o instanceof SJSocket t},
 * {@code case SJSocket t ->}), a field, an array element, a cast, a method result
 * ({@code selector.select()}, {@code list.get(0)}, a record accessor), a constructor — has no known
 * session type, so it is reported (SJ010) where it appears instead of being used unchecked.
 * "Socket type" means {@code SJSocket}, any subtype, and type variables bounded by it
 * ({@link SessionApi#isSocket}). Exempt are the forms another rule reports or handles: a local of an
 * enclosing body (a capture, SJ032 there), {@code request()}/{@code accept()} (SJ017 unless they
 * initialise a socket variable) and session operations on tracked sockets.
 */
final class SocketExpressionRules {
    private static final String ADVICE = "keep each session in a local SJSocket variable initialised by "
            + "request()/accept() or a delegation receive, or in a @Session parameter";

    private static final String FIELD_WHY = "a session kept in a field is not tracked (any method may act on it "
            + "at any time, so its state is not known here)";

    private final MethodChecker flow;
    /** Expressions already reported, so that an enclosing rule does not report them again. */
    private final Set<Tree> reported = Collections.newSetFromMap(new IdentityHashMap<>());

    SocketExpressionRules(MethodChecker flow) {
        this.flow = flow;
    }

    /** Whether {@code tree} was reported as an untracked socket expression. */
    boolean reported(Tree tree) {
        return reported.contains(FlowScanner.strip((ExpressionTree) tree));
    }

    /** The static type of {@code tree}, looked up only when its declared type may hide a socket. */
    private boolean socketTyped(Tree tree, TypeMirror declared) {
        if (flow.api.isSocket(declared)) {
            return true;
        }
        return SessionApi.mayBeSocket(declared) && flow.api.isSocket(flow.trees.getTypeMirror(flow.pathOf(tree)));
    }

    /** SJ010 at {@code tree}: {@code what} it is (naming the expression) and {@code why} it has no session type here. */
    private void report(ExpressionTree tree, String what, String why) {
        Tree parent = flow.getCurrentPath().getParentPath().getLeaf();
        if (parent instanceof AssignmentTree assignment && assignment.getVariable() == tree) {
            return; // written, not read: what is stored there is reported (SJ031 for a socket)
        }
        if (flow.state != null && !flow.reporter.silent() && reported.add(tree)) {
            flow.reporter.error(tree, Diagnostic.UNTYPED_SESSION, what, why + "; " + ADVICE);
        }
    }

    /**
     * A pattern variable or a {@code catch} parameter of socket type (an exception class implementing
     * the socket interface): it names a socket whose session type nobody knows.
     */
    boolean patternVariable(VariableTree tree, Element var) {
        Tree parent = flow.getCurrentPath().getParentPath().getLeaf();
        boolean pattern = parent.getKind() == Tree.Kind.BINDING_PATTERN;
        if (!pattern && !catchParameter(parent, tree)) {
            return false;
        }
        if (flow.state != null) {
            flow.reporter.error(tree, Diagnostic.UNTYPED_SESSION, (pattern ? "pattern variable '" : "catch parameter '")
                    + var.getSimpleName() + "'", (pattern ? "a socket matched by a pattern" : "a socket caught as an "
                            + "exception") + " has no known session type; " + ADVICE);
        }
        return true;
    }

    /** Whether {@code tree} is the parameter of a catch clause (scanned with its try statement as parent). */
    static boolean catchParameter(Tree parent, VariableTree tree) {
        if (parent instanceof CatchTree clause) {
            return clause.getParameter() == tree;
        }
        if (parent instanceof TryTree statement) {
            for (CatchTree clause : statement.getCatches()) {
                if (clause.getParameter() == tree) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The result of a call that is not a session operation: a socket from anywhere else is untyped. */
    void callResult(MethodInvocationTree call, ExecutableElement method) {
        for (ExpressionTree argument : call.getArguments()) {
            if (flow.trackedSocket(argument) != null) {
                return; // Objects.requireNonNull(s), map.put(k, s): the socket's escape is reported already
            }
        }
        if (socketTyped(call, method.getReturnType())) {
            report(call, "the session returned by '" + call + "'", "a method's result carries no session type (only "
                    + "request()/accept(), a delegation receive and a @Session parameter give one): what '"
                    + FlowScanner.calleeName(call) + "' returns could be any session, in any state");
        }
    }

    /** A name that is not a tracked variable: a field or constant of socket type. */
    void name(IdentifierTree tree, Element element) {
        if (element != null && isField(element) && socketTyped(tree, element.asType())) {
            report(tree, "field '" + element.getSimpleName() + "'", FIELD_WHY);
        }
    }

    /** {@code x.f} of socket type. */
    void fieldAccess(MemberSelectTree tree, Element element) {
        if (element != null && isField(element) && socketTyped(tree, element.asType())) {
            report(tree, "field '" + tree + "'", FIELD_WHY);
        }
    }

    void arrayElement(ArrayAccessTree tree) {
        if (flow.api.isSocket(flow.trees.getTypeMirror(flow.getCurrentPath()))) {
            report(tree, "array element '" + tree + "'", "the elements of an array are not tracked one by one (any "
                    + "index may name any of them)");
        }
    }

    /** A cast to a socket type of a value that is not already a socket (which its own rule reports). */
    void cast(TypeCastTree tree) {
        TypeMirror target = flow.trees.getTypeMirror(flow.getCurrentPath());
        if (flow.api.isSocket(target)
                && !flow.api.isSocket(flow.trees.getTypeMirror(flow.pathOf(tree.getExpression())))) {
            report(tree, "the cast '" + tree + "'", "a cast from '" + flow.trees.getTypeMirror(
                    flow.pathOf(tree.getExpression())) + "' does not tell which session the value is");
        }
    }

    void construction(NewClassTree tree) {
        if (flow.api.isSocket(flow.trees.getTypeMirror(flow.getCurrentPath()))) {
            report(tree, "the socket created by '" + tree + "'", "a socket made with new has no session (request() or"
                    + " accept() begins one)");
        }
    }

    private static boolean isField(Element element) {
        return element.getKind() == ElementKind.FIELD || element.getKind() == ElementKind.ENUM_CONSTANT;
    }
}
