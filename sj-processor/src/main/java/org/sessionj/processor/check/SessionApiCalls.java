package org.sessionj.processor.check;

import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;

/**
 * Which rule family checks a call of the session API: a socket's operation
 * ({@link SessionActionRules#socketOperation}), a multicast's spawn, join or action, a typed
 * selector's register or typecase, a scope's {@code add} of a tracked socket as a statement
 * ({@link SpawnRules#scopeAdd}), or a service's request and a server socket's accept outside a
 * declaration ({@link SessionOriginRules#misplacedBegin}). Any other call is an ordinary one.
 */
final class SessionApiCalls {
    private final MethodChecker flow;

    SessionApiCalls(MethodChecker flow) {
        this.flow = flow;
    }

    /** Checks {@code call} of {@code method} if it is a session API call; returns false when it is none. */
    boolean check(MethodInvocationTree call, ExecutableElement method) {
        SessionApi api = flow.api;
        Element owner = method.getEnclosingElement();
        String methodName = method.getSimpleName().toString();
        if (api.isSocketClass(owner) && call.getMethodSelect() instanceof MemberSelectTree select) {
            flow.actions.socketOperation(call, method, select);
            return true;
        }
        if (api.isScopeClass(owner) && methodName.equals("add") && call.getMethodSelect() instanceof MemberSelectTree scope
                && flow.spawns.scopeAdd(call, scope.getExpression())) {
            return true;
        }
        if (api.isMulticastClass(owner) && methodName.equals("spawn")) {
            flow.spawns.spawn(call);
            return true;
        }
        if (api.isSelectorClass(owner) && call.getMethodSelect() instanceof MemberSelectTree target
                && (methodName.equals("register") && flow.selectors.register(call, target.getExpression())
                        || methodName.equals("typecase") && flow.selectors.misplacedTypecase(call))) {
            return true;
        }
        if (api.isMulticastClass(owner) && methodName.equals("join")) {
            flow.joins.join(call);
            return true;
        }
        if (api.isMulticastClass(owner)) {
            flow.actions.multicast(call, methodName);
            return true;
        }
        if ((api.isServiceClass(owner) && methodName.equals("request"))
                || (api.isServerSocketClass(owner) && methodName.equals("accept"))) {
            flow.scanChildren(call);
            flow.origins.misplacedBegin(call, methodName);
            return true;
        }
        return false;
    }
}
