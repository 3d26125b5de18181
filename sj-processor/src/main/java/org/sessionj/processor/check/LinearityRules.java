package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;

/**
 * Session sockets are linear (implicitly {@code @NoAlias}): used only by session operations, never
 * copied, leaked or captured, completed before they go out of scope, and in an unknown state in a
 * catch block after the try block acted on them.
 */
final class LinearityRules {
    private final MethodChecker flow;

    LinearityRules(MethodChecker flow) {
        this.flow = flow;
    }


    void checkComplete(Element var, Tree at, String where) {
        if (flow.state.get(var) instanceof VarState.Live live && !live.complete()) {
            Tree position = at != null ? at : flow.infos.get(var).declaration();
            if (live.iterations() > 0) {
                flow.reporter.error(position, Diagnostic.JUMP_OUT_OF_ITERATION, flow.name(var),
                        where.replace("at ", ""),
                        "of its type");
            } else {
                flow.reporter.error(position, Diagnostic.INCOMPLETE_SESSION, flow.name(var), where,
                        TypeModel.describe(live.remaining()));
            }
            flow.fail(var);
        }
    }

    void checkLoopVariable(Element var, Tree at) {
        if (flow.infos.get(var).kind() == Kind.SOCKET) {
            flow.reporter.error(at, Diagnostic.UNTYPED_SESSION, "session '" + var.getSimpleName() + "'",
                    "sockets taken from an array or collection cannot be checked; keep each session in its own "
                            + "variable (multicast: SJ.send(x, s1, s2))");
            flow.set(var, VarState.FAILED);
        }
    }

    /** Where a catch block starts: sessions the try block acted on are in an unknown state there. */
    FlowState<Element> catchEntry(FlowState<Element> entry, FlowState<Element> end, Tree tree) {
        FlowState<Element> result = entry;
        for (Element var : entry.variables()) {
            VarState before = entry.get(var);
            if (before instanceof VarState.Live live && (end == null ? !live.complete()
                    : !before.equals(end.get(var)))) {
                result = result.with(var, new VarState.Moved("left in an unknown state by an exception in the try "
                        + "block on line " + flow.line(tree)));
            }
        }
        return result;
    }

    /**
     * A use of a live (or moved) socket variable as a whole value where no session operation takes it:
     * it would copy (alias) or leak (escape) the linear socket.
     */
    void wholeValueUse(IdentifierTree tree, Element var, VarInfo info) {
        if (!(flow.state.get(var) instanceof VarState.Live || flow.state.get(var) instanceof VarState.Moved)) {
            return;
        }
        TreePath parentPath = flow.getCurrentPath().getParentPath();
        Tree innermost = tree;
        while (parentPath.getLeaf() instanceof ParenthesizedTree) {
            innermost = parentPath.getLeaf();
            parentPath = parentPath.getParentPath();
        }
        Tree parent = parentPath.getLeaf();
        Tree child = innermost;
        switch (parent) {
            case VariableTree variable -> flow.reporter.error(tree, Diagnostic.ALIAS, info.name(),
                    "into variable '" + variable.getName() + "'");
            case AssignmentTree assignment when assignment.getExpression() == child -> {
                ExpressionTree lhs = FlowScanner.strip(assignment.getVariable());
                Element target = flow.trees.getElement(new TreePath(flow.getCurrentPath(), lhs));
                if (target != null && target.getKind() == ElementKind.FIELD) {
                    flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                            "into field '" + target.getSimpleName() + "'");
                } else if (target != null && target.getKind() != ElementKind.OTHER) {
                    flow.reporter.error(tree, Diagnostic.ALIAS, info.name(),
                            "into variable '" + target.getSimpleName() + "'");
                } else {
                    flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(), "into an array element");
                }
            }
            case ReturnTree ret -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(), "by being returned");
            case MethodInvocationTree call -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into a call of '" + FlowScanner.calleeName(call)
                            + "', which is not a session operation and has no @Session "
                            + "parameter there");
            case NewClassTree construction -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into a constructor call");
            case NewArrayTree array -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(), "into an array");
            default -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into an expression that is not a session operation");
        }
        flow.fail(var);
    }

    /** Assigns a socket variable; an unfinished session may not be overwritten. */
    void assign(AssignmentTree tree, Element var, VarInfo info) {
        VarState previous = flow.state.get(var);
        VarState next = flow.origins.socketSource(tree.getExpression(), info.name());
        if (flow.state == null) {
            return;
        }
        if (previous instanceof VarState.Live live && !live.complete()) {
            flow.reporter.error(tree, Diagnostic.OVERWRITE, info.name(), TypeModel.describe(live.remaining()));
            next = VarState.FAILED;
        }
        flow.set(var, next);
    }

    /** A socket named inside a lambda or local class body. */
    void captured(Element var, VarInfo info, IdentifierTree identifier, String what) {
        if (flow.state != null && !(flow.state.get(var) instanceof VarState.Failed)) {
            flow.reporter.error(identifier, Diagnostic.CAPTURE, info.name(), what);
            flow.fail(var);
        }
    }

    /** A method reference bound to a socket ({@code s::send}) captures it. */
    void boundBy(Element socket, MemberReferenceTree tree) {
        if (!(flow.state.get(socket) instanceof VarState.Failed)) {
            flow.reporter.error(tree, Diagnostic.CAPTURE, flow.name(socket), "a method reference");
            flow.fail(socket);
        }
    }

    /**
     * Merges two different states of a socket: a session closed or moved on one path may be complete
     * on the other; anything else disagrees.
     */
    VarState merge(Element var, VarState left, VarState right, Tree at, String what) {
        if (left instanceof VarState.Moved moved && (right instanceof VarState.Moved
                || right instanceof VarState.Live live && live.complete())) {
            return moved;
        }
        if (right instanceof VarState.Moved moved && left instanceof VarState.Live live && live.complete()) {
            return moved;
        }
        flow.reporter.error(at, Diagnostic.BRANCHES_DISAGREE, flow.name(var), what, MethodChecker.describe(left),
                MethodChecker.describe(right));
        return VarState.FAILED;
    }

    /** At the end of a try-with-resources block, the sockets it names as resources are closed. */
    void closeResources(List<Element> closedHere, TryTree tree) {
        for (Element var : closedHere) {
            checkComplete(var, tree, "at the end of this try-with-resources block");
            if (flow.state.get(var) instanceof VarState.Live) {
                flow.set(var, new VarState.Moved("closed at the end of the try-with-resources block on line "
                        + flow.line(tree)));
            }
        }
    }
}
