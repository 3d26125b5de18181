package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.DefaultCaseLabelTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.ProtocolDefinition;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;
import org.sessionj.types.Side;

/**
 * Checks one body (method, initializer or lambda): session sockets against their session types and
 * {@code @NoAlias} variables for unique ownership, as rules over the {@link FlowScanner} engine
 * (which threads the immutable {@link FlowState} through the statements and merges it at joins).
 * After the first error on a variable it stops checking that variable ({@link VarState.Failed}).
 */
final class MethodChecker extends FlowScanner {
    private static final Map<String, TypeKind> PRIMITIVE_RECEIVES = Map.of(
            "receiveInt", TypeKind.INT, "receiveLong", TypeKind.LONG, "receiveDouble", TypeKind.DOUBLE,
            "receiveFloat", TypeKind.FLOAT, "receiveBoolean", TypeKind.BOOLEAN, "receiveByte", TypeKind.BYTE,
            "receiveShort", TypeKind.SHORT, "receiveChar", TypeKind.CHAR);

    private final Types types;
    private final SessionApi api;
    private final ProtocolRegistry registry;
    private final ProcessingEnvironment environment;

    private static final String NO_ALIAS = "org.sessionj.api.NoAlias";

    private record Control(Element var, boolean out, Tree call) {
    }

    private record IterationCondition(List<Control> controls, ExpressionTree operand) {
    }

    /** For each enclosing try block, the @NoAlias variables moved anywhere inside it. */
    private final Deque<Set<Element>> movedInTry = new ArrayDeque<>();
    private String unitName = "its body";
    private ExecutableElement unitMethod;

    private final Map<Element, VarState> capturedEndpoints;
    private final SessionParameters sessionParameters;
    private final MessageTypes messages;

    /**
     * @param capturedEndpoints services and server sockets that enclosing bodies let lambdas and local
     *                          classes capture (they are effectively final, so one state each); shared
     *                          between the checkers of one class, filled by the enclosing body first
     */
    MethodChecker(ProcessingEnvironment environment, Trees trees, SessionApi api, ProtocolRegistry registry,
            Reporter reporter, Map<Element, VarState> capturedEndpoints, SessionParameters sessionParameters,
            MessageTypes messages) {
        super(trees, reporter);
        this.sessionParameters = sessionParameters;
        this.messages = messages;
        this.capturedEndpoints = capturedEndpoints;
        this.environment = environment;
        this.types = environment.getTypeUtils();
        this.api = api;
        this.registry = registry;
    }

    // ------------------------------------------------------------------ unit entry

    void analyse(TreePath unit) {
        Scope outer = new Scope();
        scopes.push(outer);
        Tree leaf = unit.getLeaf();
        if (leaf instanceof MethodTree method) {
            unitName = "method '" + method.getName() + "'";
            unitMethod = trees.getElement(unit) instanceof ExecutableElement executable ? executable : null;
            for (VariableTree parameter : method.getParameters()) {
                declareParameter(new TreePath(unit, parameter));
            }
            scan(new TreePath(unit, method.getBody()), null);
        } else if (leaf instanceof LambdaExpressionTree lambda) {
            unitName = "the lambda";
            for (VariableTree parameter : lambda.getParameters()) {
                declareParameter(new TreePath(unit, parameter));
            }
            scan(new TreePath(unit, lambda.getBody()), null);
        } else {
            unitName = "the initializer";
            scan(unit, null);
        }
        exitScope(outer, null, "at the end of " + unitName);
        scopes.pop();
    }

    private void declareParameter(TreePath path) {
        VariableTree tree = (VariableTree) path.getLeaf();
        Element var = trees.getElement(path);
        if (var == null) {
            return;
        }
        TypeMirror type = var.asType();
        if (api.isSocket(type)) {
            SessionParameters.SessionParameter parameter = sessionParameters.of((VariableElement) var, tree, reporter);
            VarState initial;
            if (!parameter.annotated()) {
                reporter.error(tree, Diagnostic.UNTYPED_SESSION, "session parameter '" + var.getSimpleName() + "'",
                        "annotate it with @Session(\"...remaining type...\") or @Session(protocol = P.class)");
                initial = VarState.FAILED;
            } else {
                initial = parameter.type() == null ? VarState.FAILED : new VarState.Live(parameter.type(), 0);
            }
            declare(var, Kind.SOCKET, tree, initial);
        } else if (api.isService(type) || api.isServerSocket(type)) {
            SessionParameters.SessionParameter parameter = sessionParameters.of((VariableElement) var, tree, reporter);
            VarState initial = parameter.declared() == null ? VarState.Endpoint.unknown()
                    : new VarState.Endpoint(parameter.declared(), "of parameter '" + var.getSimpleName() + "'");
            declare(var, Kind.ENDPOINT, tree, initial);
        } else if (isNoAlias(var)) {
            declare(var, Kind.NOALIAS, tree, VarState.OWNED);
        }
    }

    /** Whether a variable, field or method is declared {@code @NoAlias}. */
    private static boolean isNoAlias(Element element) {
        if (element == null) {
            return false;
        }
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(NO_ALIAS)) {
                return true;
            }
        }
        TypeMirror type = element instanceof ExecutableElement method ? method.getReturnType() : element.asType();
        for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(NO_ALIAS)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code expression} yields a value nobody else references: a new object or array, null, a
     * received message, a {@code @NoAlias} method result, or a {@code @NoAlias} variable (moved by the use).
     */
    private boolean unique(ExpressionTree expression) {
        ExpressionTree stripped = strip(expression);
        return switch (stripped) {
            case NewClassTree creation -> creation.getClassBody() == null;
            case NewArrayTree array -> true;
            case LiteralTree literal -> literal.getValue() == null;
            case TypeCastTree cast -> unique(cast.getExpression());
            case ConditionalExpressionTree conditional ->
                    unique(conditional.getTrueExpression()) && unique(conditional.getFalseExpression());
            case IdentifierTree identifier -> {
                VarInfo info = infos.get(elementOf(identifier));
                yield info != null && info.kind() == Kind.NOALIAS;
            }
            case MethodInvocationTree call -> {
                Element method = elementOf(call);
                yield method != null && (isNoAlias(method) || api.isSocketClass(method.getEnclosingElement())
                        && method.getSimpleName().toString().startsWith("receive"));
            }
            default -> false;
        };
    }

    private void declare(Element var, Kind kind, Tree declaration, VarState initial) {
        infos.put(var, new VarInfo(var.getSimpleName().toString(), kind, handlers.size(), declaration));
        scopes.peek().vars.add(var);
        if (state != null) {
            state = state.with(var, initial);
        }
    }

    // ------------------------------------------------------------------ scanning basics

    /** The tracked socket variable {@code tree} names, or null. */
    private Element trackedSocket(ExpressionTree tree) {
        ExpressionTree stripped = strip(tree);
        if (!(stripped instanceof IdentifierTree)) {
            return null;
        }
        Element var = elementOf(stripped);
        VarInfo info = infos.get(var);
        return info != null && info.kind() == Kind.SOCKET ? var : null;
    }

    private Element trackedEndpoint(ExpressionTree tree) {
        ExpressionTree stripped = strip(tree);
        if (!(stripped instanceof IdentifierTree)) {
            return null;
        }
        Element var = elementOf(stripped);
        VarInfo info = infos.get(var);
        return info != null && info.kind() == Kind.ENDPOINT ? var : null;
    }

    // ------------------------------------------------------------------ joins

    @Override
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
        if (left instanceof VarState.Endpoint || right instanceof VarState.Endpoint) {
            return VarState.Endpoint.unknown();
        }
        if (infos.containsKey(var) && infos.get(var).kind() == Kind.NOALIAS) {
            // Moved on some path: any later use is an error, reported where it happens.
            return left instanceof VarState.Moved ? left : right;
        }
        if (left instanceof VarState.Moved moved && (right instanceof VarState.Moved
                || right instanceof VarState.Live live && live.complete())) {
            return moved;
        }
        if (right instanceof VarState.Moved moved && left instanceof VarState.Live live && live.complete()) {
            return moved;
        }
        reporter.error(at, Diagnostic.BRANCHES_DISAGREE, name(var), what, describe(left), describe(right));
        return VarState.FAILED;
    }

    private static String describe(VarState value) {
        return switch (value) {
            case VarState.Live live -> TypeModel.describe(live.remaining())
                    + (live.iterations() > 0 ? " (inside its iteration)" : "");
            case VarState.Moved moved -> "'" + moved.how() + "'";
            case VarState.Failed failed -> "unknown";
            case VarState.Unassigned unassigned -> "unassigned";
            case VarState.Endpoint endpoint -> "a service";
            case VarState.Owned owned -> "owned";
        };
    }

    // ------------------------------------------------------------------ scopes and completion

    @Override
    void checkComplete(Element var, Tree at, String where) {
        if (state.get(var) instanceof VarState.Live live && !live.complete()) {
            Tree position = at != null ? at : infos.get(var).declaration();
            if (live.iterations() > 0) {
                reporter.error(position, Diagnostic.JUMP_OUT_OF_ITERATION, name(var), where.replace("at ", ""),
                        "of its type");
            } else {
                reporter.error(position, Diagnostic.INCOMPLETE_SESSION, name(var), where,
                        TypeModel.describe(live.remaining()));
            }
            fail(var);
        }
    }

    // ------------------------------------------------------------------ declarations and assignment

    @Override
    public Void visitVariable(VariableTree tree, Void unused) {
        Element var = trees.getElement(getCurrentPath());
        if (var == null || var.getKind() == ElementKind.FIELD) {
            return super.visitVariable(tree, unused);
        }
        TypeMirror type = var.asType();
        if (api.isSocket(type)) {
            VarState initial = tree.getInitializer() == null ? VarState.UNASSIGNED
                    : socketSource(tree.getInitializer(), var.getSimpleName().toString());
            declare(var, Kind.SOCKET, tree, initial);
            return null;
        }
        if (api.isService(type) || api.isServerSocket(type)) {
            VarState initial = tree.getInitializer() == null ? VarState.Endpoint.unknown()
                    : endpointSource(tree.getInitializer());
            declare(var, Kind.ENDPOINT, tree, initial);
            return null;
        }
        if (isNoAlias(var)) {
            VarState initial = VarState.UNASSIGNED;
            if (tree.getInitializer() != null) {
                boolean unique = unique(tree.getInitializer());
                scan(tree.getInitializer(), null);
                if (!unique && state != null) {
                    reporter.error(tree.getInitializer(), Diagnostic.NOT_UNIQUE, var.getSimpleName(),
                            tree.getInitializer());
                }
                initial = unique ? VarState.OWNED : VarState.FAILED;
            }
            declare(var, Kind.NOALIAS, tree, initial);
            return null;
        }
        return super.visitVariable(tree, unused);
    }

    @Override
    public Void visitAssignment(AssignmentTree tree, Void unused) {
        ExpressionTree target = strip(tree.getVariable());
        Element var = target instanceof IdentifierTree ? elementOf(target) : null;
        VarInfo info = var == null ? null : infos.get(var);
        if (info != null && info.kind() == Kind.SOCKET) {
            VarState previous = state.get(var);
            VarState next = socketSource(tree.getExpression(), info.name());
            if (state == null) {
                return null;
            }
            if (previous instanceof VarState.Live live && !live.complete()) {
                reporter.error(tree, Diagnostic.OVERWRITE, info.name(), TypeModel.describe(live.remaining()));
                next = VarState.FAILED;
            }
            set(var, next);
            return null;
        }
        if (info != null && info.kind() == Kind.ENDPOINT) {
            VarState next = endpointSource(tree.getExpression());
            set(var, next);
            return null;
        }
        Element field = var == null && target instanceof MemberSelectTree ? elementOf(target) : var;
        if ((info != null && info.kind() == Kind.NOALIAS) || (field != null && field.getKind() == ElementKind.FIELD
                && isNoAlias(field))) {
            boolean unique = unique(tree.getExpression());
            if (target instanceof MemberSelectTree select) {
                scan(select.getExpression(), null);
            }
            scan(tree.getExpression(), null);
            if (!unique && state != null) {
                reporter.error(tree.getExpression(), Diagnostic.NOT_UNIQUE,
                        (info != null ? info.name() : field.getSimpleName()), tree.getExpression());
            }
            if (info != null) {
                set(var, unique ? VarState.OWNED : VarState.FAILED);
            }
            return null;
        }
        return super.visitAssignment(tree, unused);
    }

    @Override
    public Void visitIdentifier(IdentifierTree tree, Void unused) {
        Element var = elementOf(tree);
        VarInfo info = var == null ? null : infos.get(var);
        if (info != null && info.kind() == Kind.NOALIAS) {
            useNoAlias(var, tree, getCurrentPath());
            return null;
        }
        if (var != null && var.getKind() == ElementKind.FIELD && isNoAlias(var) && moveContext(getCurrentPath()) != null) {
            String field = var.getSimpleName().toString();
            reporter.error(tree, Diagnostic.NOALIAS_FIELD_READ, field, field, field, field);
            return null;
        }
        if (info == null || info.kind() != Kind.SOCKET || !(state.get(var) instanceof VarState.Live
                || state.get(var) instanceof VarState.Moved)) {
            return null;
        }
        TreePath parentPath = getCurrentPath().getParentPath();
        Tree innermost = tree;
        while (parentPath.getLeaf() instanceof ParenthesizedTree) {
            innermost = parentPath.getLeaf();
            parentPath = parentPath.getParentPath();
        }
        Tree parent = parentPath.getLeaf();
        Tree child = innermost;
        switch (parent) {
            case VariableTree variable -> reporter.error(tree, Diagnostic.ALIAS, info.name(),
                    "into variable '" + variable.getName() + "'");
            case AssignmentTree assignment when assignment.getExpression() == child -> {
                ExpressionTree lhs = strip(assignment.getVariable());
                Element target = trees.getElement(new TreePath(getCurrentPath(), lhs));
                if (target != null && target.getKind() == ElementKind.FIELD) {
                    reporter.error(tree, Diagnostic.ESCAPE, info.name(), "into field '" + target.getSimpleName() + "'");
                } else if (target != null && target.getKind() != ElementKind.OTHER) {
                    reporter.error(tree, Diagnostic.ALIAS, info.name(), "into variable '" + target.getSimpleName() + "'");
                } else {
                    reporter.error(tree, Diagnostic.ESCAPE, info.name(), "into an array element");
                }
            }
            case ReturnTree ret -> reporter.error(tree, Diagnostic.ESCAPE, info.name(), "by being returned");
            case MethodInvocationTree call -> reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into a call of '" + calleeName(call) + "', which is not a session operation and has no @Session "
                            + "parameter there");
            case NewClassTree construction -> reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into a constructor call");
            case NewArrayTree array -> reporter.error(tree, Diagnostic.ESCAPE, info.name(), "into an array");
            default -> reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into an expression that is not a session operation");
        }
        fail(var);
        return null;
    }

    /**
     * How a whole-value use at {@code path} moves the value (e.g. "into a call of 'f'"), or null when it
     * only reads through it ({@code x[i]}, {@code x.f}, {@code x.m()}, comparisons, ...).
     */
    private static String moveContext(TreePath path) {
        TreePath parentPath = path.getParentPath();
        Tree innermost = path.getLeaf();
        while (parentPath.getLeaf() instanceof ParenthesizedTree || parentPath.getLeaf() instanceof TypeCastTree
                || parentPath.getLeaf() instanceof ConditionalExpressionTree conditional
                        && conditional.getCondition() != innermost) {
            innermost = parentPath.getLeaf();
            parentPath = parentPath.getParentPath();
        }
        Tree child = innermost;
        return switch (parentPath.getLeaf()) {
            case VariableTree variable -> "into '" + variable.getName() + "'";
            case AssignmentTree assignment when assignment.getExpression() == child ->
                    "into '" + assignment.getVariable() + "'";
            case MethodInvocationTree call when call.getArguments().contains(child) ->
                    "into a call of '" + calleeName(call) + "'";
            case NewClassTree creation when creation.getArguments().contains(child) -> "into a constructor call";
            case ReturnTree ret -> "by a return";
            case NewArrayTree array -> "into an array";
            case LambdaExpressionTree lambda -> "out of a lambda";
            default -> null;
        };
    }

    private void useNoAlias(Element var, Tree at, TreePath path) {
        VarState value = state.get(var);
        if (value instanceof VarState.Moved moved) {
            reporter.error(at, Diagnostic.MOVED_VALUE_USED, name(var), moved.how());
            fail(var);
            return;
        }
        String move = moveContext(path);
        if (move != null && value instanceof VarState.Owned) {
            set(var, new VarState.Moved(move + " on line " + line(at)));
            movedInTry.forEach(moved -> moved.add(var));
        }
    }

    private static String calleeName(MethodInvocationTree call) {
        ExpressionTree select = call.getMethodSelect();
        return select instanceof MemberSelectTree member ? member.getIdentifier().toString() : select.toString();
    }

    /** The state of a socket variable initialised or assigned from {@code expression}. */
    private VarState socketSource(ExpressionTree expression, String variable) {
        ExpressionTree stripped = strip(expression);
        if (stripped instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select
                && elementOf(call) instanceof ExecutableElement method) {
            Element owner = method.getEnclosingElement();
            String methodName = method.getSimpleName().toString();
            boolean request = api.isServiceClass(owner) && methodName.equals("request");
            boolean accept = api.isServerSocketClass(owner) && methodName.equals("accept");
            if (request || accept) {
                VarState endpoint = endpointOf(select.getExpression());
                call.getArguments().forEach(argument -> scan(argument, null));
                return begin(endpoint, request, call, variable);
            }
            if (api.isSocketClass(owner) && methodName.equals("receive")) {
                Element from = trackedSocket(select.getExpression());
                if (from != null) {
                    call.getArguments().forEach(argument -> scan(argument, null));
                    return receiveSession(from, call, variable, false);
                }
            }
        }
        scan(expression, null);
        if (trackedSocket(stripped) != null) {
            return VarState.FAILED; // an alias: reported as such
        }
        if (state != null) {
            reporter.error(expression, Diagnostic.UNTYPED_SESSION, "session '" + variable + "'",
                    "obtain it from request()/accept() on a service or server socket created with a protocol class "
                            + "literal, or receive it as a delegated session");
        }
        return VarState.FAILED;
    }

    private VarState endpointOf(ExpressionTree receiver) {
        Element endpoint = trackedEndpoint(receiver);
        if (endpoint != null) {
            return state == null ? VarState.Endpoint.unknown() : state.get(endpoint);
        }
        VarState captured = captured(receiver);
        if (captured != null) {
            return captured;
        }
        return endpointSource(receiver);
    }

    private VarState begin(VarState endpoint, boolean request, Tree call, String variable) {
        if (state == null) {
            return VarState.FAILED;
        }
        if (!(endpoint instanceof VarState.Endpoint known) || known.protocol() == null) {
            reporter.error(call, Diagnostic.UNTYPED_SESSION, "session '" + variable + "'",
                    "create the " + (request ? "service with SJService.create(P.class, host, port)"
                            : "server socket with SJServerSocket.create(P.class, port)")
                            + " where P is a @Protocol interface, or declare the parameter holding it as "
                            + "@Session(protocol = P.class)");
            return VarState.FAILED;
        }
        Side wanted = request ? Side.REQUEST : Side.ACCEPT;
        Side actual = TypeModel.beginSide(known.protocol()).orElse(wanted);
        if (actual != wanted) {
            reporter.error(call, Diagnostic.WRONG_BEGIN, "session '" + variable + "'", known.protocolName(),
                    actual.keyword(), actual == Side.REQUEST ? "request()" : "accept()",
                    request ? "request()" : "accept()");
            return VarState.FAILED;
        }
        return new VarState.Live(TypeModel.stripBegin(known.protocol()), 0);
    }

    /** The endpoint (service or server socket) that {@code expression} evaluates to. */
    private VarState endpointSource(ExpressionTree expression) {
        ExpressionTree stripped = strip(expression);
        Element endpoint = trackedEndpoint(stripped);
        if (endpoint != null) {
            return state == null ? VarState.Endpoint.unknown() : state.get(endpoint);
        }
        VarState captured = captured(stripped);
        if (captured != null) {
            return captured;
        }
        if (stripped instanceof IdentifierTree || stripped instanceof MemberSelectTree) {
            Element field = elementOf(stripped);
            if (field != null && field.getKind() == ElementKind.FIELD && field.getModifiers().contains(Modifier.FINAL)
                    && trees.getTree(field) instanceof VariableTree declaration && declaration.getInitializer() != null) {
                TreePath fieldPath = trees.getPath(field);
                if (fieldPath != null) {
                    return createdEndpoint(declaration.getInitializer(), fieldPath, false);
                }
            }
        }
        if (stripped instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select
                && elementOf(call) instanceof ExecutableElement method && api.isSocketClass(method.getEnclosingElement())
                && method.getSimpleName().contentEquals("receive")) {
            Element from = trackedSocket(select.getExpression());
            if (from != null) {
                call.getArguments().forEach(argument -> scan(argument, null));
                return receiveSession(from, call, null, true);
            }
        }
        VarState created = createdEndpoint(stripped, getCurrentPath(), true);
        scan(expression, null);
        return created;
    }

    /** The state an enclosing body gave a captured service or server socket, or null. */
    private VarState captured(ExpressionTree expression) {
        ExpressionTree stripped = strip(expression);
        return stripped instanceof IdentifierTree ? capturedEndpoints.get(elementOf(stripped)) : null;
    }

    /** The endpoint made by {@code SJService.create(P.class, …)} / {@code SJServerSocket.create(P.class, …)}. */
    private VarState createdEndpoint(ExpressionTree expression, TreePath context, boolean report) {
        ExpressionTree stripped = strip(expression);
        if (!(stripped instanceof MethodInvocationTree call) || call.getArguments().isEmpty()) {
            return VarState.Endpoint.unknown();
        }
        Element method = trees.getElement(new TreePath(context, call));
        if (!(method instanceof ExecutableElement executable) || !executable.getSimpleName().contentEquals("create")
                || !(api.isServiceClass(method.getEnclosingElement())
                        || api.isServerSocketClass(method.getEnclosingElement()))) {
            return VarState.Endpoint.unknown();
        }
        ExpressionTree literal = strip(call.getArguments().get(0));
        if (!(literal instanceof MemberSelectTree select) || !select.getIdentifier().contentEquals("class")) {
            return VarState.Endpoint.unknown();
        }
        Element protocol = trees.getElement(new TreePath(context, select.getExpression()));
        if (!(protocol instanceof TypeElement type) || !ProtocolRegistry.isProtocol(type)) {
            if (report) {
                reporter.error(literal, Diagnostic.UNTYPED_SESSION, "'" + select.getExpression() + "'",
                        "it is not a @Protocol interface");
            }
            return VarState.Endpoint.unknown();
        }
        return switch (registry.definition(type)) {
            case ProtocolDefinition.Valid valid -> new VarState.Endpoint(valid.expanded(), type.getSimpleName().toString());
            case ProtocolDefinition.Invalid invalid -> {
                if (report && trees.getPath(type) == null) {
                    reporter.error(literal, Diagnostic.UNTYPED_SESSION, "protocol '" + type.getSimpleName() + "'",
                            "it is invalid: " + invalid.problems().get(0));
                }
                yield VarState.Endpoint.unknown();
            }
        };
    }

    @Override
    void leaveIteration(Element var, Tree jump, String what) {
        if (state.get(var) instanceof VarState.Live) {
            reporter.error(jump, Diagnostic.JUMP_OUT_OF_ITERATION, name(var), what, "![...]*/?[...]* of its type");
            fail(var);
        }
    }

    @Override
    void checkLoopVariable(Element var, Tree at) {
        if (infos.get(var).kind() == Kind.SOCKET) {
            reporter.error(at, Diagnostic.UNTYPED_SESSION, "session '" + var.getSimpleName() + "'",
                    "sockets taken from an array or collection cannot be checked; keep each session in its own "
                            + "variable (multicast: SJ.send(x, s1, s2))");
            set(var, VarState.FAILED);
        }
    }

    // ------------------------------------------------------------------ session operations

    /** The live state of {@code var} if an action on it may be checked; reports moved/handler misuse. */
    private VarState.Live usable(Element var, Tree at) {
        if (state == null) {
            return null;
        }
        VarState value = state.get(var);
        if ((value instanceof VarState.Live || value instanceof VarState.Moved)
                && infos.get(var).handlerDepth() < handlers.size()) {
            reporter.error(at, Diagnostic.ACTION_IN_HANDLER, name(var), handlers.peek());
            fail(var);
            return null;
        }
        if (value instanceof VarState.Moved moved) {
            reporter.error(at, Diagnostic.USE_AFTER_MOVE, name(var), moved.how());
            fail(var);
            return null;
        }
        return value instanceof VarState.Live live ? live : null;
    }

    private static String expected(SessionType unfolded, VarState.Live live) {
        if (unfolded.isEnd()) {
            return live.iterations() > 0 ? "the end of the iteration body" : "end (the session is complete)";
        }
        return TypeModel.printAction(unfolded.head());
    }

    private void advance(Element var, SessionType unfolded, VarState.Live live) {
        set(var, new VarState.Live(unfolded.tail(), live.iterations()));
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        Element element = trees.getElement(getCurrentPath());
        if (!(element instanceof ExecutableElement method)) {
            return super.visitMethodInvocation(call, unused);
        }
        Element owner = method.getEnclosingElement();
        String methodName = method.getSimpleName().toString();
        if (api.isSocketClass(owner) && call.getMethodSelect() instanceof MemberSelectTree select) {
            socketOperation(call, method, select);
            return null;
        }
        if (api.isMulticastClass(owner)) {
            multicast(call, methodName);
            return null;
        }
        if ((api.isServiceClass(owner) && methodName.equals("request"))
                || (api.isServerSocketClass(owner) && methodName.equals("accept"))) {
            super.visitMethodInvocation(call, unused);
            reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, "the session returned by " + methodName
                    + "() must initialise a local SJSocket variable, e.g. try (SJSocket s = c." + methodName + "()) {...}");
            return null;
        }
        scan(call.getMethodSelect(), null);
        List<? extends VariableElement> parameters = method.getParameters();
        for (int i = 0; i < call.getArguments().size(); i++) {
            ExpressionTree argument = call.getArguments().get(i);
            Element socket = trackedSocket(argument);
            VariableElement parameter = i < parameters.size() ? parameters.get(i) : null;
            if (socket != null && parameter != null && api.isSocket(parameter.asType())
                    && sessionParameters.of(parameter, null, reporter).annotated()) {
                sessionMethodCall(socket, method, parameter, argument);
            } else {
                boolean unique = parameter == null || !isNoAlias(parameter) || unique(argument);
                scan(argument, null);
                if (!unique && state != null) {
                    reporter.error(argument, Diagnostic.NOT_UNIQUE, parameter.getSimpleName(), argument);
                }
            }
        }
        return null;
    }

    private void socketOperation(MethodInvocationTree call, ExecutableElement method, MemberSelectTree select) {
        String operation = method.getSimpleName().toString();
        Element var = trackedSocket(select.getExpression());
        if (var == null) {
            scan(select.getExpression(), null);
            call.getArguments().forEach(argument -> scan(argument, null));
            if (state != null && !operation.equals("protocol") && !operation.equals("isInputReady")
                    && !reportedElsewhere(select.getExpression())) {
                reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, "session operation " + operation
                        + "() must be called on a local SJSocket variable or @Session parameter, found '"
                        + select.getExpression() + "'");
            }
            return;
        }
        String name = name(var);
        switch (operation) {
            case "send", "pass" -> {
                ExpressionTree argument = call.getArguments().get(0);
                boolean delegation = trackedSocket(argument) != null;
                if (operation.equals("pass") && !delegation && !unique(argument) && state != null
                        && !(state.get(var) instanceof VarState.Failed)) {
                    reporter.error(argument, Diagnostic.PASS_NOT_UNIQUE, name, argument);
                    fail(var);
                }
                if (!delegation) {
                    scan(argument, null);
                }
                send(var, argument, call);
            }
            case "receive" -> {
                call.getArguments().forEach(argument -> scan(argument, null));
                receiveValue(var, call);
            }
            case "outbranch" -> {
                ExpressionTree argument = call.getArguments().get(0);
                scan(argument, null);
                outbranch(var, argument, call);
            }
            case "inbranch" -> misplaced(var, call, "inbranch() must be the selector of a switch: switch ("
                    + name + ".inbranch()) { case \"L\" -> ... }");
            case "outwhile", "inwhile" -> {
                call.getArguments().forEach(argument -> scan(argument, null));
                misplaced(var, call, operation + "() must be the condition of a while loop: while (" + name + "."
                        + operation + "(" + (operation.equals("outwhile") ? "condition" : "") + ")) { ... }");
            }
            case "close" -> {
                VarState.Live live = usable(var, call);
                if (live != null) {
                    if (!live.complete()) {
                        reporter.error(call, Diagnostic.INCOMPLETE_SESSION, name, "when it is closed",
                                TypeModel.describe(live.remaining()));
                        fail(var);
                    } else {
                        set(var, new VarState.Moved("closed on line " + line(call)));
                    }
                }
            }
            default -> {
                if (PRIMITIVE_RECEIVES.containsKey(operation)) {
                    receivePrimitive(var, call, PRIMITIVE_RECEIVES.get(operation));
                } else {
                    call.getArguments().forEach(argument -> scan(argument, null));
                    usable(var, call); // protocol(), isInputReady(): no action, but not after a move
                }
            }
        }
    }

    /**
     * Whether a socket expression that is not a tracked variable is already reported by another rule:
     * a local captured from an enclosing body (reported there as a capture) or the result of
     * request()/accept() (reported as misplaced).
     */
    private boolean reportedElsewhere(ExpressionTree receiver) {
        ExpressionTree stripped = strip(receiver);
        if (stripped instanceof IdentifierTree) {
            Element element = elementOf(stripped);
            return element != null && element.getKind() != ElementKind.FIELD;
        }
        if (stripped instanceof MethodInvocationTree call && elementOf(call) instanceof ExecutableElement method) {
            Element owner = method.getEnclosingElement();
            return api.isServiceClass(owner) || api.isServerSocketClass(owner);
        }
        return false;
    }

    private void misplaced(Element var, Tree call, String message) {
        if (state != null && !(state.get(var) instanceof VarState.Failed)) {
            reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, message);
            fail(var);
        }
    }

    private void send(Element var, ExpressionTree argument, Tree call) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return;
        }
        String name = name(var);
        SessionType unfolded = TypeModel.unfold(live.remaining());
        Element delegated = trackedSocket(argument);
        TypeMirror argumentType = trees.getTypeMirror(pathOf(argument));
        if (erroneous(argumentType)) {
            fail(var); // javac has reported the argument; checking on would only cascade
            return;
        }
        String found = delegated != null ? "sends session '" + name(delegated) + "' (delegation)"
                : "sends !<" + argumentType + ">";
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Send expectedSend)) {
            reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live), found);
            fail(var);
            return;
        }
        String expectedText = TypeModel.printAction(expectedSend);
        switch (expectedSend.payload()) {
            case Payload.SessionPayload session when session.isService() -> {
                Element endpoint = trackedEndpoint(argument);
                if (delegated != null || !api.isService(argumentType)) {
                    reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, expectedText, found);
                    fail(var);
                    return;
                }
                if (endpoint != null && state.get(endpoint) instanceof VarState.Endpoint known
                        && known.protocol() != null && !sameSession(known.protocol(), session.type())) {
                    reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, expectedText,
                            "sends a service of protocol " + TypeModel.describe(known.protocol()));
                    fail(var);
                    return;
                }
                advance(var, unfolded, live);
            }
            case Payload.SessionPayload session -> {
                if (delegated == null) {
                    reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, expectedText, found);
                    fail(var);
                    return;
                }
                advance(var, unfolded, live);
                VarState.Live moved = usable(delegated, argument);
                if (moved == null) {
                    return;
                }
                SessionType wanted = TypeModel.stripBegin(session.type());
                if (moved.iterations() > 0 || !sameSession(moved.remaining(), wanted)) {
                    reporter.error(argument, Diagnostic.DELEGATION_MISMATCH, name, expectedText, name(delegated),
                            describe(moved));
                    fail(delegated);
                    return;
                }
                set(delegated, new VarState.Moved("delegated on line " + line(call)));
            }
            case Payload.JavaType javaType -> {
                TypeMirror wanted = messages.mirror(javaType);
                boolean nullValue = strip(argument) instanceof TypeCastTree cast
                        && strip(cast.getExpression()) instanceof LiteralTree literal && literal.getValue() == null;
                if (delegated != null || (wanted != null && !(nullValue && !wanted.getKind().isPrimitive())
                        && !messages.sendCompatible(argumentType, wanted))) {
                    reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, expectedText, found);
                    fail(var);
                    return;
                }
                advance(var, unfolded, live);
            }
        }
    }

    private static boolean erroneous(TypeMirror type) {
        return type != null && type.getKind() == TypeKind.ERROR;
    }

    private static boolean sameSession(SessionType left, SessionType right) {
        return left.equals(right) || TypeModel.unfold(left).equals(TypeModel.unfold(right));
    }

    private void receiveValue(Element var, MethodInvocationTree call) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return;
        }
        String name = name(var);
        TypeMirror target = messages.receiveTarget(getCurrentPath());
        if (erroneous(target)) {
            fail(var);
            return;
        }
        String found = "receives ?(" + target + ")";
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Receive expectedReceive)) {
            reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live), found);
            fail(var);
            return;
        }
        if (expectedReceive.payload() instanceof Payload.JavaType javaType) {
            TypeMirror payload = messages.mirror(javaType);
            if (payload != null && target != null && !types.isAssignable(payload, target)) {
                reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedReceive), found);
                fail(var);
                return;
            }
        } else {
            boolean service = ((Payload.SessionPayload) expectedReceive.payload()).isService();
            reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedReceive),
                    found + "; a received " + (service ? "service must initialise an SJService variable"
                            : "session must initialise an SJSocket variable"));
            fail(var);
            return;
        }
        advance(var, unfolded, live);
    }

    private void receivePrimitive(Element var, MethodInvocationTree call, TypeKind kind) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return;
        }
        String name = name(var);
        String typeName = kind.name().toLowerCase(java.util.Locale.ROOT);
        String found = "receives ?(" + typeName + ")";
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Receive expectedReceive)) {
            reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live), found);
            fail(var);
            return;
        }
        TypeMirror primitive = types.getPrimitiveType(kind);
        TypeMirror payload = expectedReceive.payload() instanceof Payload.JavaType javaType ? messages.mirror(javaType) : null;
        boolean matches = payload != null && (types.isSameType(payload, primitive)
                || types.isSameType(payload, types.boxedClass(types.getPrimitiveType(kind)).asType()));
        if (!matches && !(payload == null && expectedReceive.payload() instanceof Payload.JavaType)) {
            reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedReceive), found);
            fail(var);
            return;
        }
        advance(var, unfolded, live);
    }

    /** Receives a delegated session ({@code service == false}) or a service into a new variable. */
    private VarState receiveSession(Element var, MethodInvocationTree call, String into, boolean service) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return service ? VarState.Endpoint.unknown() : VarState.FAILED;
        }
        String name = name(var);
        String found = service ? "receives a service (SJService)"
                : "receives a session into '" + into + "' (SJSocket)";
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Receive expectedReceive)) {
            reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live), found);
            fail(var);
            return service ? VarState.Endpoint.unknown() : VarState.FAILED;
        }
        if (!(expectedReceive.payload() instanceof Payload.SessionPayload session) || session.isService() != service) {
            reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedReceive), found);
            fail(var);
            return service ? VarState.Endpoint.unknown() : VarState.FAILED;
        }
        advance(var, unfolded, live);
        return service ? new VarState.Endpoint(session.type(), "received on line " + line(call))
                : new VarState.Live(TypeModel.stripBegin(session.type()), 0);
    }

    private void outbranch(Element var, ExpressionTree argument, Tree call) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return;
        }
        String name = name(var);
        String label = constantLabel(argument);
        if (label == null) {
            reporter.error(argument, Diagnostic.NON_CONSTANT_LABEL, name, argument);
            fail(var);
            return;
        }
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Select select)) {
            reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live),
                    "selects '" + label + "' (outbranch)");
            fail(var);
            return;
        }
        SessionType branch = select.branches().get(label);
        if (branch == null) {
            reporter.error(argument, Diagnostic.UNKNOWN_LABEL, name, label, TypeModel.printAction(select));
            fail(var);
            return;
        }
        set(var, new VarState.Live(branch.then(unfolded.tail()), live.iterations()));
    }

    /** The label a constant expression denotes: a string constant or an enum constant's name. */
    private String constantLabel(ExpressionTree argument) {
        ExpressionTree stripped = strip(argument);
        if (stripped instanceof LiteralTree literal) {
            return literal.getValue() instanceof String text ? text : null;
        }
        Element element = elementOf(stripped);
        if (element instanceof VariableElement variable) {
            if (variable.getKind() == ElementKind.ENUM_CONSTANT) {
                return variable.getSimpleName().toString();
            }
            return variable.getConstantValue() instanceof String text ? text : null;
        }
        return null;
    }

    private void multicast(MethodInvocationTree call, String operation) {
        List<? extends ExpressionTree> arguments = call.getArguments();
        switch (operation) {
            case "send" -> {
                scan(arguments.get(0), null);
                for (Element socket : multicastSockets(call, arguments.subList(1, arguments.size()))) {
                    send(socket, arguments.get(0), call);
                }
            }
            default -> {
                arguments.forEach(argument -> {
                    if (trackedSocket(argument) == null) {
                        scan(argument, null);
                    }
                });
                if (state != null) {
                    reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, "SJ." + operation
                            + "(...) must be the condition of a while loop");
                    for (ExpressionTree argument : arguments) {
                        Element socket = trackedSocket(argument);
                        if (socket != null) {
                            fail(socket);
                        }
                    }
                }
            }
        }
    }

    /** The sockets named by a multicast's socket arguments; reports arguments that are not socket variables. */
    private List<Element> multicastSockets(Tree call, List<? extends ExpressionTree> arguments) {
        List<Element> sockets = new ArrayList<>();
        for (ExpressionTree argument : arguments) {
            Element socket = trackedSocket(argument);
            if (socket == null) {
                scan(argument, null);
                if (state != null) {
                    reporter.error(argument, Diagnostic.MISPLACED_CONSTRUCT,
                            "a multicast names each session socket variable: SJ.send(x, s1, s2), found '" + argument + "'");
                }
            } else {
                sockets.add(socket);
            }
        }
        return sockets;
    }

    // ------------------------------------------------------------------ session methods

    private void sessionMethodCall(Element var, ExecutableElement method, VariableElement parameter,
            ExpressionTree argument) {
        VarState.Live live = usable(var, argument);
        if (live == null) {
            return;
        }
        SessionType needed = sessionParameters.of(parameter, null, reporter).type();
        if (needed == null) {
            fail(var); // the method's own declaration reports the problem
            return;
        }
        SessionType remainder = stripPrefix(live.remaining(), needed);
        if (remainder == null) {
            remainder = stripPrefix(TypeModel.unfold(live.remaining()), TypeModel.unfold(needed));
        }
        if (remainder == null) {
            reporter.error(argument, Diagnostic.SESSION_METHOD_MISMATCH, name(var),
                    "the call to '" + method.getSimpleName() + "'", TypeModel.describe(needed),
                    TypeModel.describe(live.remaining()));
            fail(var);
            return;
        }
        set(var, new VarState.Live(remainder, live.iterations()));
    }

    private static SessionType stripPrefix(SessionType type, SessionType prefix) {
        int n = prefix.actions().size();
        if (n > type.actions().size() || !type.actions().subList(0, n).equals(prefix.actions())) {
            return null;
        }
        return new SessionType(type.actions().subList(n, type.actions().size()));
    }

    // ------------------------------------------------------------------ linearity: capture

    @Override
    public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
        checkCapture(lambda, "a lambda");
        return null;
    }

    @Override
    public Void visitClass(ClassTree tree, Void unused) {
        checkCapture(tree, "a local class");
        return null;
    }

    @Override
    public Void visitNewClass(NewClassTree tree, Void unused) {
        scan(tree.getEnclosingExpression(), null);
        tree.getArguments().forEach(argument -> scan(argument, null));
        if (tree.getClassBody() != null) {
            checkCapture(tree.getClassBody(), "an anonymous class");
        }
        return null;
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
        Element socket = trackedSocket(tree.getQualifierExpression());
        if (socket != null) {
            if (!(state.get(socket) instanceof VarState.Failed)) {
                reporter.error(tree, Diagnostic.CAPTURE, name(socket), "a method reference");
                fail(socket);
            }
            return null;
        }
        return super.visitMemberReference(tree, unused);
    }

    private void checkCapture(Tree body, String what) {
        TreePath bodyPath = pathOf(body);
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree identifier, Void unused) {
                Element var = trees.getElement(getCurrentPath());
                VarInfo info = var == null ? null : infos.get(var);
                if (info != null && info.kind() == Kind.ENDPOINT && state != null && state.get(var) != null) {
                    capturedEndpoints.putIfAbsent(var, state.get(var));
                }
                if (info != null && info.kind() == Kind.NOALIAS && state != null) {
                    if (state.get(var) instanceof VarState.Moved moved) {
                        reporter.error(identifier, Diagnostic.MOVED_VALUE_USED, info.name(), moved.how());
                        fail(var);
                    } else if (state.get(var) instanceof VarState.Owned) {
                        set(var, new VarState.Moved("into " + what + " on line " + line(identifier)));
                    }
                }
                if (info != null && info.kind() == Kind.SOCKET && state != null
                        && !(state.get(var) instanceof VarState.Failed)) {
                    reporter.error(identifier, Diagnostic.CAPTURE, info.name(), what);
                    fail(var);
                }
                return null;
            }
        }.scan(bodyPath, null);
    }

    // ------------------------------------------------------------------ loops

    @Override
    public Void visitWhileLoop(WhileLoopTree tree, Void unused) {
        IterationCondition condition = iterationCondition(tree.getCondition());
        if (condition != null) {
            sessionLoop(tree, condition, tree.getStatement());
        } else {
            plainLoop(tree, tree.getCondition(), tree.getStatement(), List.of(), false);
        }
        return null;
    }

    @Override
    public Void visitDoWhileLoop(DoWhileLoopTree tree, Void unused) {
        if (iterationCondition(tree.getCondition()) != null) {
            pendingLabel = null;
            reporter.error(tree.getCondition(), Diagnostic.MISPLACED_CONSTRUCT,
                    "a session iteration must be a while loop (the first decision precedes the body), "
                            + "not do ... while");
            for (Control control : iterationCondition(tree.getCondition()).controls()) {
                fail(control.var());
            }
        }
        plainLoop(tree, tree.getCondition(), tree.getStatement(), List.of(), true);
        return null;
    }

    /** Reports every variable whose state at the back edge differs from the loop entry; returns them. */
    @Override
    Set<Element> checkInvariant(FlowState<Element> entry, FlowState<Element> backEdge, Tree loop,
            Set<Element> exempt) {
        Set<Element> changed = new LinkedHashSet<>();
        for (Element var : entry.variables()) {
            VarState before = entry.get(var);
            VarState after = backEdge.get(var);
            if (infos.containsKey(var) && infos.get(var).kind() == Kind.NOALIAS) {
                continue; // ownership is widened before the loop (see widen) and checked at each use
            }
            if (after instanceof VarState.Failed && !(before instanceof VarState.Failed) && !exempt.contains(var)) {
                changed.add(var); // reported inside the body: keep it failed after the loop too
                continue;
            }
            if (exempt.contains(var) || after == null || before.equals(after) || after instanceof VarState.Failed
                    || before instanceof VarState.Failed || before instanceof VarState.Endpoint) {
                continue;
            }
            if (before instanceof VarState.Unassigned && (after instanceof VarState.Moved
                    || after instanceof VarState.Live live && live.complete())) {
                continue;
            }
            if (after instanceof VarState.Moved moved) {
                reporter.error(loop, Diagnostic.USE_AFTER_MOVE, name(var), moved.how()
                        + " in an earlier iteration of this loop");
            } else {
                reporter.error(loop, Diagnostic.LOOP_CHANGES_SESSION, name(var), describe(before), describe(after));
            }
            changed.add(var);
        }
        return changed;
    }

    /** The session iteration a while condition denotes, or null if it is an ordinary condition. */
    private IterationCondition iterationCondition(ExpressionTree condition) {
        ExpressionTree stripped = strip(condition);
        if (!(stripped instanceof MethodInvocationTree call) || !(elementOf(call) instanceof ExecutableElement method)) {
            return null;
        }
        String operation = method.getSimpleName().toString();
        List<Control> controls = new ArrayList<>();
        ExpressionTree operand = null;
        if (api.isSocketClass(method.getEnclosingElement()) && call.getMethodSelect() instanceof MemberSelectTree select) {
            Element socket = trackedSocket(select.getExpression());
            if (socket == null) {
                return null;
            }
            if (operation.equals("outwhile")) {
                controls.add(new Control(socket, true, call));
                operand = call.getArguments().get(0);
            } else if (operation.equals("inwhile")) {
                controls.add(new Control(socket, false, call));
            } else {
                return null;
            }
        } else if (api.isMulticastClass(method.getEnclosingElement())
                && (operation.equals("outwhile") || operation.equals("inwhile"))) {
            List<? extends ExpressionTree> arguments = call.getArguments();
            boolean out = operation.equals("outwhile");
            if (out) {
                operand = arguments.get(0);
            }
            for (Element socket : multicastSockets(call, arguments.subList(out ? 1 : 0, arguments.size()))) {
                controls.add(new Control(socket, out, call));
            }
        } else {
            return null;
        }
        if (operand != null) {
            IterationCondition chained = iterationCondition(operand);
            if (chained != null && chained.controls().stream().noneMatch(Control::out)) {
                List<Control> all = new ArrayList<>(chained.controls());
                all.addAll(controls);
                return new IterationCondition(all, null);
            }
        }
        return new IterationCondition(controls, operand);
    }

    private void sessionLoop(WhileLoopTree loop, IterationCondition condition, StatementTree body) {
        widenOwnership(() -> sessionLoopPass(loop, condition, body, true));
        sessionLoopPass(loop, condition, body, false);
    }

    private FlowState<Element> sessionLoopPass(WhileLoopTree loop, IterationCondition condition, StatementTree body,
            boolean probe) {
        if (condition.operand() != null) {
            scan(condition.operand(), null);
        }
        if (state == null) {
            return null;
        }
        Frame frame = pushFrame(loop, true, false);
        Map<Element, SessionType> after = new LinkedHashMap<>();
        Map<Element, SessionType> bodies = new LinkedHashMap<>();
        Map<Element, Integer> depth = new HashMap<>();
        for (Control control : condition.controls()) {
            VarState.Live live = usable(control.var(), control.call());
            if (live == null) {
                continue;
            }
            SessionType unfolded = TypeModel.unfold(live.remaining());
            Action head = unfolded.isEnd() ? null : unfolded.head();
            SessionType iterationBody = control.out()
                    ? (head instanceof Action.OutWhile w ? w.body() : null)
                    : (head instanceof Action.InWhile w ? w.body() : null);
            if (iterationBody == null) {
                reporter.error(control.call(), Diagnostic.WRONG_ACTION, name(control.var()), expected(unfolded, live),
                        control.out() ? "decides an iteration (outwhile)" : "follows an iteration (inwhile)");
                fail(control.var());
                continue;
            }
            after.put(control.var(), unfolded.tail());
            bodies.put(control.var(), iterationBody);
            depth.put(control.var(), live.iterations());
            frame.controlled.add(control.var());
            set(control.var(), new VarState.Live(iterationBody, live.iterations() + 1));
        }
        FlowState<Element> bodyEntry = state;
        scan(body, null);
        FlowState<Element> backEdge = join(state, frame.continues, loop, "the paths to the next iteration");
        frames.pop();
        if (probe) {
            return backEdge;
        }
        Set<Element> broken = new LinkedHashSet<>();
        if (backEdge != null) {
            for (Element var : frame.controlled) {
                VarState end = backEdge.get(var);
                if (end instanceof VarState.Live live && !live.remaining().isEnd()) {
                    reporter.error(loop, Diagnostic.ITERATION_INCOMPLETE, name(var), TypeModel.describe(bodies.get(var)),
                            TypeModel.describe(live.remaining()));
                    broken.add(var);
                } else if (end instanceof VarState.Moved moved) {
                    reporter.error(loop, Diagnostic.USE_AFTER_MOVE, name(var), moved.how()
                            + " inside its iteration (the next iteration needs it)");
                    broken.add(var);
                } else if (end instanceof VarState.Failed) {
                    broken.add(var);
                }
            }
            broken.addAll(checkInvariant(bodyEntry, backEdge, loop, frame.controlled));
        }
        FlowState<Element> exit = bodyEntry;
        for (Map.Entry<Element, SessionType> entry : after.entrySet()) {
            exit = exit.with(entry.getKey(), new VarState.Live(entry.getValue(), depth.get(entry.getKey())));
        }
        state = join(exit, frame.breaks, loop, "the exits of this loop");
        broken.forEach(this::fail);
        return backEdge;
    }

    // ------------------------------------------------------------------ switch

    @Override
    public Void visitSwitch(SwitchTree tree, Void unused) {
        switchStatement(tree, tree.getExpression(), tree.getCases(), false);
        return null;
    }

    @Override
    public Void visitSwitchExpression(SwitchExpressionTree tree, Void unused) {
        switchStatement(tree, tree.getExpression(), tree.getCases(), true);
        return null;
    }

    private void switchStatement(Tree tree, ExpressionTree selector, List<? extends CaseTree> cases,
            boolean expression) {
        ExpressionTree stripped = strip(selector);
        Element socket = null;
        if (stripped instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select
                && elementOf(call) instanceof ExecutableElement method && api.isSocketClass(method.getEnclosingElement())
                && method.getSimpleName().contentEquals("inbranch")) {
            socket = trackedSocket(select.getExpression());
        }
        Action.Branch branch = null;
        SessionType continuation = null;
        VarState.Live live = null;
        if (socket != null) {
            live = usable(socket, stripped);
            if (live != null) {
                SessionType unfolded = TypeModel.unfold(live.remaining());
                if (!unfolded.isEnd() && unfolded.head() instanceof Action.Branch b) {
                    branch = b;
                    continuation = unfolded.tail();
                } else {
                    reporter.error(stripped, Diagnostic.WRONG_ACTION, name(socket), expected(unfolded, live),
                            "waits for a label (inbranch)");
                    fail(socket);
                }
            }
        } else {
            scan(selector, null);
        }
        FlowState<Element> base = state;
        Frame frame = pushFrame(tree, false, expression);
        FlowState<Element> fallthrough = null;
        boolean hasDefault = false;
        Set<String> covered = new LinkedHashSet<>();
        for (CaseTree caseTree : cases) {
            boolean isDefault = caseTree.getLabels().stream().anyMatch(l -> l instanceof DefaultCaseLabelTree);
            hasDefault |= isDefault;
            FlowState<Element> entry = base;
            if (branch != null) {
                entry = null;
                if (isDefault) {
                    entry = base.with(socket, VarState.FAILED);
                }
                for (ExpressionTree labelTree : caseTree.getExpressions()) {
                    String label = constantLabel(labelTree);
                    SessionType arm = label == null ? null : branch.branches().get(label);
                    FlowState<Element> labelEntry;
                    if (arm == null) {
                        reporter.error(labelTree, Diagnostic.UNKNOWN_LABEL, name(socket), String.valueOf(label),
                                TypeModel.printAction(branch));
                        labelEntry = base.with(socket, VarState.FAILED);
                    } else {
                        covered.add(label);
                        labelEntry = base.with(socket, new VarState.Live(arm.then(continuation), live.iterations()));
                    }
                    entry = join(entry, labelEntry, caseTree, "the labels of this case");
                }
                if (entry == null) {
                    entry = base;
                }
            }
            if (caseTree.getCaseKind() == CaseTree.CaseKind.STATEMENT) {
                state = join(entry, fallthrough, caseTree, "falling through into this case");
                Scope scope = pushScope();
                for (StatementTree statement : caseTree.getStatements()) {
                    scan(statement, null);
                }
                exitScope(scope, null, "at the end of its scope");
                scopes.pop();
                fallthrough = state;
            } else {
                state = entry;
                scan(caseTree.getBody(), null);
                frame.breaks = join(frame.breaks, state, tree, "the cases of this switch");
            }
        }
        frames.pop();
        FlowState<Element> exit = join(frame.breaks, fallthrough, tree, "the cases of this switch");
        if (branch != null) {
            Set<String> missing = new LinkedHashSet<>(branch.branches().keySet());
            missing.removeAll(covered);
            if (!missing.isEmpty()) {
                reporter.error(stripped, Diagnostic.MISSING_LABEL, name(socket), missing.size() > 1 ? "s" : "",
                        String.join(", ", missing), TypeModel.printAction(branch));
                exit = exit == null ? null : exit.with(socket, VarState.FAILED);
            }
        } else if (!hasDefault && !expression) {
            exit = join(exit, base, tree, "the cases of this switch and the path where none matches");
        }
        state = exit;
    }

    // ------------------------------------------------------------------ jumps

    @Override
    public Void visitReturn(ReturnTree tree, Void unused) {
        if (tree.getExpression() != null && unitMethod != null && isNoAlias(unitMethod)
                && !unique(tree.getExpression()) && state != null) {
            reporter.error(tree.getExpression(), Diagnostic.NOT_UNIQUE, unitMethod.getSimpleName() + "()'s result",
                    tree.getExpression());
        }
        scan(tree.getExpression(), null);
        if (state == null) {
            return null;
        }
        for (Frame frame : frames) {
            for (Element var : frame.controlled) {
                if (state.get(var) instanceof VarState.Live) {
                    reporter.error(tree, Diagnostic.JUMP_OUT_OF_ITERATION, name(var), "return",
                            "![...]*/?[...]* of its type");
                    fail(var);
                }
            }
        }
        for (Scope scope : scopes) {
            for (Element var : scope.vars) {
                if (state.tracks(var)) {
                    checkComplete(var, tree, "at this return");
                }
            }
        }
        state = null;
        return null;
    }

    // ------------------------------------------------------------------ try

    @Override
    public Void visitTry(TryTree tree, Void unused) {
        Scope resources = pushScope();
        List<Element> closedHere = new ArrayList<>();
        for (Tree resource : tree.getResources()) {
            Element socket = resource instanceof ExpressionTree expression ? trackedSocket(expression) : null;
            if (socket != null) {
                closedHere.add(socket);
            } else {
                scan(resource, null);
            }
        }
        FlowState<Element> tryEntry = state;
        Set<Element> moved = new LinkedHashSet<>();
        movedInTry.push(moved);
        try {
            scan(tree.getBlock(), null);
        } finally {
            movedInTry.pop();
        }
        if (state != null) {
            for (Element var : resources.vars) {
                checkComplete(var, null, "at the end of its try-with-resources block");
            }
            for (Element var : closedHere) {
                checkComplete(var, tree, "at the end of this try-with-resources block");
                if (state.get(var) instanceof VarState.Live) {
                    set(var, new VarState.Moved("closed at the end of the try-with-resources block on line "
                            + line(tree)));
                }
            }
            state = state.without(resources.vars);
        }
        scopes.pop();
        FlowState<Element> tryEnd = state;
        FlowState<Element> catchEntry = tryEntry == null ? null : catchEntry(tryEntry.without(resources.vars), tryEnd,
                tree);
        for (Element var : moved) {
            if (catchEntry != null && catchEntry.get(var) instanceof VarState.Owned) {
                catchEntry = catchEntry.with(var, new VarState.Moved("in the try block starting on line " + line(tree)
                        + " (an exception may follow the move)"));
            }
        }
        FlowState<Element> afterAll = tryEnd;
        handlers.push("catch");
        for (CatchTree catchTree : tree.getCatches()) {
            state = catchEntry;
            Scope scope = pushScope();
            scan(catchTree.getParameter(), null);
            scan(catchTree.getBlock(), null);
            exitScope(scope, null, "at the end of its scope");
            scopes.pop();
            afterAll = join(afterAll, state, tree, "the try block and its catch blocks");
        }
        handlers.pop();
        if (tree.getFinallyBlock() != null) {
            handlers.push("finally");
            state = afterAll != null ? afterAll : catchEntry;
            scan(tree.getFinallyBlock(), null);
            handlers.pop();
            if (afterAll == null) {
                state = null;
            }
        } else {
            state = afterAll;
        }
        return null;
    }

    /** Where a catch block starts: sessions the try block acted on are in an unknown state there. */
    private FlowState<Element> catchEntry(FlowState<Element> entry, FlowState<Element> end, Tree tree) {
        FlowState<Element> result = entry;
        for (Element var : entry.variables()) {
            VarState before = entry.get(var);
            if (before instanceof VarState.Live live && (end == null ? !live.complete() : !before.equals(end.get(var)))) {
                result = result.with(var, new VarState.Moved("left in an unknown state by an exception in the try "
                        + "block on line " + line(tree)));
            }
        }
        return result;
    }
}
