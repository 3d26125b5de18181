package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.ProtocolDefinition;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;

/**
 * A service or server socket made from a protocol without a begin (SJ019): {@code SJService.create(P.class, …)},
 * {@code SJServerSocket.create(P.class, …)} or a runtime's {@code service}/{@code serverSocket} given a
 * class literal whose protocol, expanded, starts with neither {@code cbegin} nor {@code sbegin}
 * ({@code @Protocol("")}, or a part such as {@code !<int>.?(String)} written for a {@code @Session}
 * socket parameter or a {@code @(P)} reference). Such a protocol says nothing about which side begins
 * the session; the runtime refuses it at the same call. Checked at every call in the unit, whatever
 * the call's value flows into (a local, a field, an argument).
 */
final class UnbegunEndpoints {
    private final SessionApi api;
    private final Trees trees;
    private final ProtocolRegistry registry;

    UnbegunEndpoints(SessionApi api, Trees trees, ProtocolRegistry registry) {
        this.api = api;
        this.trees = trees;
        this.registry = registry;
    }

    /** Reports the call at {@code path} if it makes an endpoint of a protocol without a begin. */
    void check(TreePath path, Reporter reporter) {
        MethodInvocationTree call = (MethodInvocationTree) path.getLeaf();
        if (call.getArguments().isEmpty()) {
            return;
        }
        // The name and the class literal first: resolving every call of the unit would cost each a lookup.
        ExpressionTree select = call.getMethodSelect();
        String name = select instanceof MemberSelectTree member ? member.getIdentifier().toString()
                : select instanceof IdentifierTree identifier ? identifier.getName().toString() : "";
        if (!name.equals("create") && !name.equals("service") && !name.equals("serverSocket")) {
            return;
        }
        ExpressionTree literal = FlowScanner.strip(call.getArguments().get(0));
        if (!(literal instanceof MemberSelectTree classLiteral) || !classLiteral.getIdentifier().contentEquals("class")
                || !(trees.getElement(path) instanceof ExecutableElement method) || !api.isEndpointFactory(method)) {
            return;
        }
        Element protocol = trees.getElement(new TreePath(path, classLiteral.getExpression()));
        if (!(protocol instanceof TypeElement type) || !ProtocolRegistry.isProtocol(type)
                || !(registry.definition(type) instanceof ProtocolDefinition.Valid valid)
                || TypeModel.beginSide(valid.expanded()).isPresent()) {
            return;
        }
        boolean service = api.isService(method.getReturnType());
        reporter.error(literal, Diagnostic.UNBEGUN_ENDPOINT, select + "(" + type.getSimpleName() + ".class, …)",
                type.getSimpleName(), type.getSimpleName(), service ? "service" : "server socket",
                service ? "cbegin" : "sbegin");
    }
}
