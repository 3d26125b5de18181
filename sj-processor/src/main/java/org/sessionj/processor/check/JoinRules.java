package org.sessionj.processor.check;

import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.util.TreePath;
import com.sun.source.tree.MethodInvocationTree;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;

/**
 * Join over sessions, {@code List<T> values = SJ.join(s1, …, sn)}: one receive on each socket, checked
 * like a multicast. Invariant: every socket is at {@code ?(P_i)} with each {@code P_i} a Java type the
 * result's element type {@code T} accepts (as a receive into a {@code T} variable would be checked),
 * and each moves past its receive — whatever order the messages arrive in at run time, every session
 * takes exactly that one step. Codes are those of a receive (SJ012 wrong action, SJ013 wrong message
 * type), SJ030 for one socket named twice, SJ017 for an argument that is not a socket variable.
 */
final class JoinRules {
    private final MethodChecker flow;

    JoinRules(MethodChecker flow) {
        this.flow = flow;
    }

    void join(MethodInvocationTree call) {
        List<? extends ExpressionTree> arguments = call.getArguments();
        TypeMirror element = elementType(flow.trees.getTypeMirror(flow.getCurrentPath()));
        List<Element> sockets = new java.util.ArrayList<>();
        for (Element socket : flow.actions.multicastSockets(call, arguments)) {
            if (sockets.contains(socket)) {
                flow.linearity.lentTwice(socket, call, (javax.lang.model.element.ExecutableElement)
                        flow.trees.getElement(flow.getCurrentPath()));
            } else {
                sockets.add(socket);
            }
        }
        for (Element socket : sockets) {
            receive(socket, call, element);
        }
    }

    /**
     * Where the join's list, used in place, hands a received box to an unboxing context (adv11 A14):
     * {@code int v = SJ.<Integer>join(s).get(0)} or {@code for (int v : SJ.<Integer>join(a, b))}, as
     * {@code int v = s.<Integer>receive()} is (SJ013); null when it does not. A list kept in a variable
     * is the program's own collection: unboxing its elements later is an explicit choice, as unboxing a
     * received {@code Integer} variable is.
     */
    private String unboxedElement() {
        TreePath path = flow.getCurrentPath();
        TreePath parent = path.getParentPath();
        while (parent != null && parent.getLeaf() instanceof ParenthesizedTree) {
            path = parent;
            parent = parent.getParentPath();
        }
        if (parent == null) {
            return null;
        }
        if (parent.getLeaf() instanceof EnhancedForLoopTree loop && loop.getExpression() == path.getLeaf()) {
            return flow.trees.getElement(new TreePath(parent, loop.getVariable())) instanceof Element variable
                    && variable.asType().getKind().isPrimitive() ? "by the loop variable" : null;
        }
        if (parent.getLeaf() instanceof MemberSelectTree select && select.getExpression() == path.getLeaf()
                && ELEMENT_READS.contains(select.getIdentifier().toString())
                && parent.getParentPath() != null
                && parent.getParentPath().getLeaf() instanceof MethodInvocationTree read
                && read.getMethodSelect() == select
                && new UnboxingContexts(flow.trees, flow.contracts).unboxed(parent.getParentPath())) {
            return "where " + select.getIdentifier() + "(…) returns it";
        }
        return null;
    }

    /** The methods of {@code List} that return one of its elements. */
    private static final java.util.Set<String> ELEMENT_READS = java.util.Set.of("get", "getFirst", "getLast");

    /** The element type of the join's {@code List<T>} as javac inferred it, or null when unknown. */
    private static TypeMirror elementType(TypeMirror list) {
        if (list instanceof DeclaredType declared && declared.getTypeArguments().size() == 1) {
            TypeMirror element = declared.getTypeArguments().get(0);
            return element.getKind() == TypeKind.DECLARED || element.getKind() == TypeKind.ARRAY ? element : null;
        }
        return null;
    }

    private void receive(Element var, MethodInvocationTree call, TypeMirror element) {
        VarState.Live live = flow.actions.usable(var, call);
        if (live == null) {
            return;
        }
        String name = flow.name(var);
        String found = "receives ?(" + (element == null ? "T" : element) + ") in a join";
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Receive expected)) {
            flow.reporter.error(call, Diagnostic.WRONG_ACTION, name, SessionActionRules.expected(unfolded, live),
                    found + SessionActionRules.hint(unfolded, live, Action.Receive.class));
            flow.fail(var);
            return;
        }
        if (!(expected.payload() instanceof Payload.JavaType javaType)) {
            flow.reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expected),
                    found + "; a session or service is received on its own, into an SJSocket or SJService variable");
            flow.fail(var);
            return;
        }
        TypeMirror payload = flow.messages.mirror(javaType);
        if (payload != null && element != null && !flow.messages.receiveCompatible(payload, element)) {
            flow.reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expected), found);
            flow.fail(var);
            return;
        }
        String unboxing = payload != null && flow.messages.isBox(payload) ? unboxedElement() : null;
        if (unboxing != null) {
            flow.reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expected),
                    "receives ?(" + payload + ") in a join whose element is unboxed " + unboxing + " (a box, which "
                            + "the peer may send as null: take the element as " + payload + " and unbox it explicitly)");
            flow.fail(var);
            return;
        }
        flow.actions.advance(var, unfolded, live, call);
    }
}
