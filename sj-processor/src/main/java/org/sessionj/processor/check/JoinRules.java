package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
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
        flow.actions.advance(var, unfolded, live, call);
    }
}
