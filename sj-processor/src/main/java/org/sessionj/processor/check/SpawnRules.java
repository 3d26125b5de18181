package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.types.SessionType;

/**
 * Session threads, {@code SJ.spawn(s1, …, body)}. Invariant: a session handed to a session thread is
 * owned by that thread alone and completed there. So
 * <ul>
 *   <li>the sockets move: the spawning code may not use them again (SJ050, also after the loop
 *       iteration that spawned them), and a socket that this code closes itself — a try-with-resources
 *       resource, or a member of an {@code SJScope} ({@code scope.add(s)}) — cannot be handed over (SJ051);</li>
 *   <li>the body is a lambda with {@code @Session} parameters or a reference to a method with
 *       {@code @Session} parameters, whose types are exactly the sessions' remaining types (up to
 *       unfolding) — the body is checked on its own against them and must complete them (SJ024
 *       there) — and no socket is spawned from inside its own iteration (SJ051).</li>
 * </ul>
 */
final class SpawnRules {
    /** How a spawned socket's {@link VarState.Moved} state starts: what {@link #spawned} recognises. */
    static final String SPAWNED = "spawned into a session thread";

    private final MethodChecker flow;
    /**
     * The sockets added to an {@code SJScope} in this body, with the call that added each first (for
     * messages: whether one is a member here is a per-path fact of the flow state).
     */
    private final Map<Element, Tree> scopeMembers = new HashMap<>();

    SpawnRules(MethodChecker flow) {
        this.flow = flow;
    }

    /** Whether {@code moved} records a spawn (a later use is SJ050, not SJ025). */
    static boolean spawned(VarState.Moved moved) {
        return moved.how().startsWith(SPAWNED);
    }

    /** {@code SJ.spawn(sockets…, body)}. */
    void spawn(MethodInvocationTree call) {
        List<? extends ExpressionTree> arguments = call.getArguments();
        ExpressionTree body = arguments.get(arguments.size() - 1);
        List<Element> sockets = new ArrayList<>();
        List<SessionType> remaining = new ArrayList<>();
        for (ExpressionTree argument : arguments.subList(0, arguments.size() - 1)) {
            Element var = flow.trackedSocket(argument);
            if (var == null) {
                flow.scan(argument, null);
                if (flow.state != null) {
                    flow.reporter.error(argument, Diagnostic.MISPLACED_CONSTRUCT,
                            "SJ.spawn names each session socket variable it hands over: SJ.spawn(s, body), found '"
                                    + argument + "'");
                }
                continue;
            }
            if (sockets.contains(var)) {
                flow.linearity.lentTwice(var, argument, (ExecutableElement) flow.trees.getElement(flow.getCurrentPath()));
                continue;
            }
            sockets.add(var);
            remaining.add(handedOver(var, argument));
        }
        // The body: its own sockets are its parameters; anything it captures from here is SJ032. A lambda's
        // parameters without @Session take the sessions' remaining types (the lambda is checked after this
        // body, as a body of its own: adv13 A6.3).
        if (FlowScanner.strip(body) instanceof LambdaExpressionTree lambda) {
            flow.spawnedTypes.put(lambda, remaining);
        } else if (lambdaIn(body) instanceof LambdaExpressionTree declared) {
            // SJThread.Body body = x -> …; SJ.spawn(s, body): SJ051 below says to write the lambda in the call;
            // its parameters are not reported once more as untyped (SJ010) where it is declared (adv14 A6)
            flow.spawnedTypes.putIfAbsent(declared, java.util.Collections.nCopies(sockets.size(), null));
        }
        flow.scan(body, null);
        handedNames = names(sockets);
        List<Parameter> parameters = bodyParameters(FlowScanner.strip(body));
        for (int i = 0; i < sockets.size(); i++) {
            Element var = sockets.get(i);
            SessionType type = remaining.get(i);
            if (type != null && parameters != null && i < parameters.size()) {
                Parameter parameter = parameters.get(i);
                if (parameter.type() != null && !sameSession(type, parameter.type())) {
                    flow.reporter.error(body, Diagnostic.SPAWN_MISMATCH, flow.name(var), "its body's parameter '"
                            + parameter.name() + "' is " + TypeModel.describe(parameter.type())
                            + " but the session is at " + TypeModel.describe(type)
                            + "; the body must complete exactly what remains of the session");
                    flow.fail(var);
                    continue;
                }
            }
            if (type != null) {
                flow.lastActions.put(var, call);
                flow.set(var, new VarState.Moved(SPAWNED + " on line " + flow.line(call)));
            }
        }
    }

    /** The sessions of the spawn being read, for SJ051 on its body ("'s'", "'s', 't'"). */
    private String handedNames = "handed to SJ.spawn";

    private String names(List<Element> sockets) {
        if (sockets.isEmpty()) {
            return "handed to SJ.spawn";
        }
        StringBuilder names = new StringBuilder();
        for (Element socket : sockets) {
            names.append(names.length() == 0 ? "" : "', '").append(flow.name(socket));
        }
        return names.toString();
    }

    /**
     * The lambda a spawn body names when it is a local variable initialized with one in this code
     * ({@code SJThread.Body body = x -> …}), or null.
     */
    private LambdaExpressionTree lambdaIn(ExpressionTree body) {
        if (!(FlowScanner.strip(body) instanceof IdentifierTree name)
                || !(flow.elementOf(name) instanceof VariableElement local)
                || local.getKind() != javax.lang.model.element.ElementKind.LOCAL_VARIABLE) {
            return null;
        }
        LambdaExpressionTree[] found = {null};
        new com.sun.source.util.TreeScanner<Void, Void>() {
            @Override
            public Void visitVariable(VariableTree tree, Void unused) {
                if (tree.getName().contentEquals(local.getSimpleName())
                        && FlowScanner.strip(tree.getInitializer()) instanceof LambdaExpressionTree lambda
                        && local.equals(flow.trees.getElement(flow.pathOf(tree)))) {
                    found[0] = lambda;
                }
                return super.visitVariable(tree, unused);
            }
        }.scan(flow.root.getLeaf(), null);
        return found[0];
    }

    /** The remaining type of a socket being handed over, or null when it cannot be (reported). */
    private SessionType handedOver(Element var, ExpressionTree argument) {
        VarState.Live live = flow.actions.usable(var, argument);
        if (live == null || flow.selectors.refuseHandOver(var, argument, "spawned into a session thread")) {
            return null;
        }
        String name = flow.name(var);
        if (live.iterations() > 0) {
            flow.reporter.error(argument, Diagnostic.SPAWN_MISMATCH, name, "it is inside its own session iteration "
                    + "here, whose next round this code decides; hand over a session between its iterations, "
                    + "or spawn the whole loop");
            flow.fail(var);
            return null;
        }
        String closer = closer(var);
        if (closer != null) {
            flow.reporter.error(argument, Diagnostic.SPAWN_MISMATCH, name, closer + " (the session thread closes it)");
            flow.fail(var);
            return null;
        }
        return live.remaining();
    }

    /**
     * {@code scope.add(s);} as a statement: the scope takes the duty to close {@code s} when it closes,
     * nothing else; {@code s} stays tracked here. Returns false when the call is no such statement (then
     * it is an ordinary call: its socket result is SJ010, a socket argument SJ031).
     */
    boolean scopeAdd(MethodInvocationTree call, ExpressionTree scope) {
        if (call.getArguments().size() != 1
                || !(flow.getCurrentPath().getParentPath().getLeaf() instanceof ExpressionStatementTree)) {
            return false;
        }
        Element var = flow.trackedSocket(call.getArguments().get(0));
        if (var == null) {
            return false;
        }
        flow.scan(scope, null);
        if (flow.actions.usable(var, call.getArguments().get(0)) != null) {
            member(var, call);
        }
        return true;
    }

    /**
     * Records that {@code var} is a member of a scope from {@code call} on, on this path (SJ051/SJ055 if it is
     * handed over). A member of another scope already is one of both: the first of them to close closes it
     * (both enclose this point, so the inner one), whichever it is ({@link FlowState.Membership#scope} null).
     */
    private void member(Element var, Tree call) {
        scopeMembers.putIfAbsent(var, call);
        if (flow.state == null || !flow.state.tracks(var)) {
            return;
        }
        Object scope = call instanceof MethodInvocationTree invocation
                && invocation.getMethodSelect() instanceof com.sun.source.tree.MemberSelectTree select
                ? flow.elementOf(select.getExpression()) : null;
        FlowState.Membership before = flow.state.membership(var);
        if (before != null && !java.util.Objects.equals(before.scope(), scope)) {
            scope = null;
        }
        flow.state = flow.state.withMembership(var, new FlowState.Membership(scope, true));
    }

    /**
     * adv17 A1, adv18 A4: the members of the scopes that {@code tree}, a try-with-resources statement, declares
     * as resources: the scope's close at the end of the block closes them. Each maps to its scope and
     * whether it is a member on every path reaching the end (false: on some only, where a path that added it
     * met one that did not); a member declared inside the block has left its own scope there already (not tracked any
     * more). They are members of nothing after it.
     */
    Map<Element, ClosedMember> closedByScopes(TryTree tree) {
        Map<Element, ClosedMember> closed = new java.util.LinkedHashMap<>();
        if (flow.state == null || flow.state.memberships().isEmpty()) {
            return closed;
        }
        for (Tree resource : tree.getResources()) {
            // a declared scope only: `try (sc)` on a scope declared elsewhere is SJ017 (its members' close unseen)
            Element scope = resource instanceof VariableTree variable ? flow.trees.getElement(flow.pathOf(variable)) : null;
            if (scope == null || !flow.api.isScope(scope.asType())) {
                continue;
            }
            for (Map.Entry<Element, FlowState.Membership> entry : flow.state.memberships().entrySet()) {
                FlowState.Membership membership = entry.getValue();
                // scope null: a member of two scopes (on a path, or on different paths): the first to close closes it
                if ((membership.scope() == null || membership.scope().equals(scope)) && flow.state.tracks(entry.getKey())) {
                    closed.putIfAbsent(entry.getKey(), new ClosedMember(scope.getSimpleName().toString(),
                            membership.everyPath()));
                }
            }
        }
        for (Element var : closed.keySet()) {
            flow.state = flow.state.withMembership(var, null);
        }
        return closed;
    }

    /** A member a scope closes: the scope's name, and whether it is a member on every path reaching the close. */
    record ClosedMember(String scope, boolean everyPath) {
    }

    /**
     * Whether the session {@code var} holds now is a member of a scope on every path reaching this point:
     * an exception that leaves its scope passes the scope's try-with-resources statement (a scope is always
     * one's resource, SJ017), which closes it and tells the peer (adv15 A27). A member on some paths only is
     * not one: on the others nothing closes it (adv18 A4).
     */
    boolean scopeMember(Element var) {
        FlowState.Membership membership = flow.state == null ? null : flow.state.membership(var);
        return membership != null && membership.everyPath();
    }

    /** Whether {@code var}'s session is a member of a scope on some path reaching this point, but not on every one. */
    boolean scopeMemberOnSomePaths(Element var) {
        FlowState.Membership membership = flow.state == null ? null : flow.state.membership(var);
        return membership != null && !membership.everyPath();
    }

    /** {@code SJSocket s = scope.add(…)} (or an assignment of it): {@code var} is a scope member. */
    void addedToScope(Element var, ExpressionTree initializer) {
        if (FlowScanner.strip(initializer) instanceof MethodInvocationTree call
                && flow.elementOf(call) instanceof ExecutableElement method
                && flow.api.isScopeClass(method.getEnclosingElement()) && method.getSimpleName().contentEquals("add")) {
            member(var, call);
        } else if (flow.state != null) {
            flow.state = flow.state.withMembership(var, null); // a session of its own: no scope closes it
        }
    }

    /**
     * Whether this body adds a socket to a scope anywhere (found once): only then may a loop's rounds differ
     * in a socket's scope membership, and a loop over a live socket be probed for it ({@link MethodChecker#widens}).
     */
    boolean addsToScopes() {
        if (addsToScopes == null) {
            boolean[] found = {false};
            new com.sun.source.util.TreeScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
                    if (call.getMethodSelect() instanceof com.sun.source.tree.MemberSelectTree select
                            && select.getIdentifier().contentEquals("add") && call.getArguments().size() == 1) {
                        found[0] = true; // by name: a cheap superset (a probe too many costs a silent pass)
                    }
                    return found[0] ? null : super.visitMethodInvocation(call, unused);
                }
            }.scan(flow.root.getLeaf(), null);
            addsToScopes = found[0];
        }
        return addsToScopes;
    }

    private Boolean addsToScopes;

    /**
     * Who closes {@code var} in this code, so that it may not be handed to an owner that outlives it
     * (a session thread, a selector): "it is a resource of the try-with-resources statement on line
     * N, …" or "it was added to a scope on line N, …"; null when nothing here closes it. A member of a
     * scope on some path reaching this point is one here (the scope may close it under its new owner).
     */
    String closer(Element var) {
        TryTree resourceOf = closingTry(var);
        if (resourceOf != null) {
            return "it is a resource of the try-with-resources statement on line " + flow.line(resourceOf)
                    + ", which closes it in this thread at the end of the block; declare it without try-with-resources";
        }
        Tree added = scopeMembers.get(var);
        if (added != null && flow.state != null && flow.state.membership(var) != null) {
            return "it was added to a scope on line " + flow.line(added) + " (scope.add), which closes it when the "
                    + "scope closes; hand it over without adding it to a scope";
        }
        return null;
    }

    /** The enclosing try-with-resources statement that names {@code var} as a resource, or null. */
    TryTree closingTry(Element var) {
        Tree child = flow.getCurrentPath().getLeaf();
        for (TreePath path = flow.getCurrentPath().getParentPath(); path != null; path = path.getParentPath()) {
            if (path.getLeaf() instanceof TryTree tryTree && tryTree.getBlock() == child) {
                for (Tree resource : tryTree.getResources()) {
                    Element named = resource instanceof VariableTree
                            || resource instanceof IdentifierTree ? flow.trees.getElement(new TreePath(path, resource))
                            : null;
                    if (var.equals(named)) {
                        return tryTree;
                    }
                }
            }
            child = path.getLeaf();
        }
        return null;
    }

    /** A parameter of the body: its name and {@code @Session} type (null when it has none: reported). */
    private record Parameter(String name, SessionType type) {
    }

    /** The body's socket parameters in order, or null when the body is not a form that can be checked. */
    private List<Parameter> bodyParameters(ExpressionTree body) {
        if (body instanceof LambdaExpressionTree lambda) {
            // Each parameter is declared when the lambda is checked as a body of its own: one without
            // @Session is given the spawned session's remaining type there (no type to compare here).
            TreePath lambdaPath = flow.pathOf(lambda);
            List<Parameter> parameters = new ArrayList<>();
            for (VariableTree tree : lambda.getParameters()) {
                Element element = flow.trees.getElement(new TreePath(lambdaPath, tree));
                parameters.add(new Parameter(tree.getName().toString(), element instanceof VariableElement parameter
                        ? flow.sessionParameters.of(parameter, null, flow.reporter).type() : null));
            }
            return parameters;
        }
        if (body instanceof MemberReferenceTree reference
                && flow.trees.getElement(flow.pathOf(reference)) instanceof ExecutableElement method
                && reference.getMode() == MemberReferenceTree.ReferenceMode.INVOKE
                && !(flow.api.isSocket(flow.trees.getTypeMirror(flow.pathOf(reference.getQualifierExpression()))))) {
            List<Parameter> parameters = new ArrayList<>();
            for (VariableElement parameter : method.getParameters()) {
                SessionParameters.SessionParameter declared = flow.sessionParameters.of(parameter, null, flow.reporter);
                if (!flow.api.isSocket(parameter.asType()) || !declared.annotated()) {
                    reportBody(reference, "'" + method.getSimpleName() + "' has no @Session type on its parameter '"
                            + parameter.getSimpleName() + "', so what it does with the session cannot be checked; "
                            + "annotate it: @Session(\"...remaining type...\") SJSocket " + parameter.getSimpleName());
                    return null;
                }
                boolean elsewhere = flow.trees.getTree(method) == null;
                if (declared.type() == null && (elsewhere || SessionActionRules.suppressedDeclaration(method))) {
                    // No declaration here reports the invalid type (SJ007): compiled elsewhere, or its
                    // @SuppressWarnings("sessionj") hides it; the session must not go in unchecked (adv11 A14).
                    reportBody(reference, "'" + method.getSimpleName() + "''s @Session type of parameter '"
                            + parameter.getSimpleName() + "' is invalid (" + (elsewhere
                                    ? SessionParameters.elsewhereHint(method)
                                    : "its declaration's @SuppressWarnings(\"sessionj\") hides why")
                            + "), so what it does with the session cannot be checked");
                    return null;
                }
                parameters.add(new Parameter(parameter.getSimpleName().toString(), declared.type()));
            }
            return parameters;
        }
        reportBody(body, "the body must be written in the call, as a lambda (SJ.spawn(s, t -> { … })) or a reference "
                + "to a method with @Session parameters (this::serve), so that it can be checked; found '" + body
                + "'" + (body instanceof IdentifierTree ? ", a variable: write its lambda in the call" : ""));
        return null;
    }

    private void reportBody(Tree body, String message) {
        if (flow.state != null) {
            flow.reporter.error(body, Diagnostic.SPAWN_MISMATCH, handedNames, message);
        }
    }

    private static boolean sameSession(SessionType a, SessionType b) {
        return TypeModel.sameBehaviour(a, b);
    }
}
