package org.sessionj.processor.check;

import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.ProtocolDefinition;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;
import org.sessionj.types.SessionType;
import org.sessionj.types.Side;

/**
 * Where sessions and services come from: {@code request()}/{@code accept()} on an endpoint created
 * with a protocol class literal (or a {@code @Session(protocol = ...)} parameter, a final field, a
 * received service), a received (delegated) session, and the protocols of session parameters.
 */
final class SessionOriginRules {
    private final MethodChecker flow;

    private final RecordEndpoints records;

    SessionOriginRules(MethodChecker flow) {
        this.flow = flow;
        this.records = new RecordEndpoints(flow);
    }

    
    /** The state of a socket variable initialised or assigned from {@code expression}. */
    VarState socketSource(ExpressionTree expression, String variable) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        if (stripped instanceof ConditionalExpressionTree conditional) {
            return conditionalSource(conditional, variable);
        }
        if (stripped.getKind() == com.sun.source.tree.Tree.Kind.NULL_LITERAL) {
            // No session: an action on it is SJ025, a null test has a dead branch (adv10 F17).
            return new VarState.Moved(LinearityRules.NULL_PREFIX + flow.line(expression), VarState.Nullness.NULL);
        }
        if (stripped instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select
                && flow.elementOf(call) instanceof ExecutableElement method) {
            Element owner = method.getEnclosingElement();
            String methodName = method.getSimpleName().toString();
            boolean request = flow.api.isServiceClass(owner) && methodName.equals("request");
            boolean accept = flow.api.isServerSocketClass(owner) && methodName.equals("accept");
            if (request || accept) {
                VarState endpoint = endpointOf(select.getExpression());
                flow.scanEach(call.getArguments());
                if (flow.linearity.collectingThrowPoints()) {
                    flow.linearity.throwPoint(); // a request or accept that fails begins no session
                }
                flow.liveExits.sessionSetUp(call, method); // the other live sessions are left as they are (adv18 A8)
                return begin(endpoint, request, call, variable);
            }
            if (flow.api.isSelectorClass(owner) && methodName.equals("select")) {
                VarState set = flow.selectors.selected(select.getExpression());
                if (set != null) {
                    flow.scanEach(call.getArguments());
                    if (flow.linearity.collectingThrowPoints()) {
                        flow.linearity.throwPoint();
                    }
                    return set;
                }
            }
            if (flow.api.isScopeClass(owner) && methodName.equals("add") && call.getArguments().size() == 1) {
                flow.scan(select.getExpression(), null);
                return socketSource(call.getArguments().get(0), variable); // add returns its argument
            }
            if (flow.api.isSocketClass(owner) && methodName.equals("receive")) {
                Element from = flow.trackedSocket(select.getExpression());
                if (from != null) {
                    flow.scanEach(call.getArguments());
                    return flow.actions.receiveSession(from, call, variable, false);
                }
            }
        }
        flow.scan(expression, null);
        if (flow.trackedSocket(stripped) != null || namesTrackedSocket(stripped)) {
            return VarState.FAILED; // an alias (switch expression arms included): reported as such
        }
        if (flow.state != null && !flow.sockets.reported(stripped)) {
            flow.reporter.error(expression, Diagnostic.UNTYPED_SESSION, "session '" + variable + "'",
                    "it is initialised from '" + expression + "', which is not request()/accept() on a service or "
                            + "server socket, nor a delegation receive; obtain it from request()/accept() on a service "
                            + "or server socket created with a protocol class literal, or receive it as a delegated "
                            + "session");
        }
        return VarState.FAILED;
    }

    /**
     * {@code c ? a.request() : b.request()}: each arm begins its session on its own path; the variable
     * has a type when both arms give it the same one (the paths are joined as for an {@code if}).
     */
    private VarState conditionalSource(ConditionalExpressionTree conditional, String variable) {
        flow.scan(conditional.getCondition(), null);
        org.sessionj.processor.internal.flow.FlowState<Element> before = flow.state;
        VarState whenTrue = socketSource(conditional.getTrueExpression(), variable);
        org.sessionj.processor.internal.flow.FlowState<Element> afterTrue = flow.state;
        flow.state = before;
        VarState whenFalse = socketSource(conditional.getFalseExpression(), variable);
        flow.state = flow.join(afterTrue, flow.state, conditional, "the two arms of this conditional");
        if (whenTrue.equals(whenFalse) || whenTrue instanceof VarState.Failed || whenFalse instanceof VarState.Failed) {
            return whenTrue instanceof VarState.Failed ? whenTrue : whenFalse;
        }
        VarState sessionOrNull = NullStates.nullJoin(whenTrue, whenFalse);
        if (sessionOrNull != null) {
            return sessionOrNull; // c ? svc.request() : null: a null test tells the two apart (adv13 A8)
        }
        if (flow.state != null) {
            flow.reporter.error(conditional, Diagnostic.UNTYPED_SESSION, "session '" + variable + "'",
                    "the arms of this conditional begin it with different types ("
                            + MethodChecker.describe(whenTrue) + " and " + MethodChecker.describe(whenFalse)
                            + "); begin it in an if statement, one session per branch");
        }
        return VarState.FAILED;
    }

    /** Whether {@code expression} names a tracked socket as a value (not inside a lambda or class body). */
    private boolean namesTrackedSocket(ExpressionTree expression) {
        boolean[] found = {false};
        new com.sun.source.util.TreeScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree identifier, Void unused) {
                found[0] |= flow.trackedSocket(identifier) != null;
                return null;
            }

            @Override
            public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree lambda, Void unused) {
                return null;
            }

            @Override
            public Void visitClass(com.sun.source.tree.ClassTree tree, Void unused) {
                return null;
            }
        }.scan(expression, null);
        return found[0];
    }

    private VarState endpointOf(ExpressionTree receiver) {
        Element endpoint = flow.trackedEndpoint(receiver);
        if (endpoint != null) {
            return flow.state == null ? VarState.Endpoint.unknown() : flow.state.get(endpoint);
        }
        VarState captured = captured(receiver);
        if (captured != null) {
            return captured;
        }
        return endpointSource(receiver);
    }

    private VarState begin(VarState endpoint, boolean request, Tree call, String variable) {
        if (flow.state == null) {
            return VarState.FAILED;
        }
        if (endpoint instanceof VarState.Endpoint known && StateMerges.CONFLICTING.equals(known.protocolName())) {
            flow.reporter.error(call, Diagnostic.UNTYPED_SESSION, "session '" + variable + "'",
                    "the " + (request ? "service" : "server socket") + " it comes from is " + StateMerges.CONFLICTING
                            + " (assigned on one branch, in a try block that may throw, or in an earlier iteration of a"
                            + " loop); use one variable per protocol");
            return VarState.FAILED;
        }
        if (endpoint instanceof VarState.Endpoint known && INVALID_ANNOTATION.equals(known.protocolName())) {
            return VarState.FAILED; // its parameter's @Session is reported (SJ007): no second error here
        }
        if (!(endpoint instanceof VarState.Endpoint known) || known.protocol() == null) {
            String field = untypedField(call, request);
            flow.reporter.error(call, Diagnostic.UNTYPED_SESSION, "session '" + variable + "'", field != null ? field
                    : "create the " + (request ? "service with SJService.create(P.class, host, port)"
                            : "server socket with SJServerSocket.create(P.class, port)")
                            + " where P is a @Protocol interface, or declare the parameter holding it as "
                            + "@Session(protocol = P.class)");
            return VarState.FAILED;
        }
        Side wanted = request ? Side.REQUEST : Side.ACCEPT;
        Side actual = TypeModel.beginSide(known.protocol()).orElse(wanted);
        if (actual != wanted) {
            flow.reporter.error(call, Diagnostic.WRONG_BEGIN, "session '" + variable + "'", known.protocolName(),
                    actual.keyword(), actual == Side.REQUEST ? "request()" : "accept()",
                    (request ? "request()" : "accept()") + dualHint(known.protocolName(), request));
            return VarState.FAILED;
        }
        return new VarState.Live(TypeModel.stripBegin(known.protocol()), 0);
    }

    /**
     * The fix of SJ011, which is where the service or server socket is created, not at the request or
     * accept (adv14 A6): the two sides of a protocol are duals, so the other side takes {@code ^(P)}.
     */
    static String dualHint(String protocolName, boolean request) {
        String simple = protocolName == null ? "" : protocolName.substring(protocolName.lastIndexOf('.') + 1);
        boolean named = !simple.isEmpty() && javax.lang.model.SourceVersion.isIdentifier(simple);
        String side = request ? "service" : "server socket";
        String dual = named ? simple + (request ? "Client" : "Server") : request ? "PClient" : "PServer";
        String create = request ? "SJService.create(" + dual + ".class, host, port)"
                : "SJServerSocket.create(" + dual + ".class, port)";
        return "; a " + side + " takes the dual of the other side's protocol: fix it where the " + side
                + " is created, e.g. @Protocol(\"^(" + (named ? simple : "P") + ")\") interface " + dual + " {} and "
                + create;
    }

    /**
     * When the request or accept {@code call} is on a field of this program that gives no protocol, why:
     * which forms of a field the checker types (adv14 A2: the general advice would tell the user to call
     * create(P.class, …), which the field's initializer may already do); null for any other receiver.
     */
    private String untypedField(Tree call, boolean request) {
        if (!(call instanceof MethodInvocationTree invocation)
                || !(invocation.getMethodSelect() instanceof MemberSelectTree select)) {
            return null;
        }
        String kind = request ? "service" : "server socket";
        ExpressionTree receiver = FlowScanner.strip(select.getExpression());
        String unrecorded = compiledWithoutProcessor(receiver, kind);
        if (unrecorded != null) {
            return unrecorded;
        }
        if (!(flow.elementOf(receiver) instanceof VariableElement field) || field.getKind() != ElementKind.FIELD) {
            return null;
        }
        String create = request ? "SJService.create(P.class, …)" : "SJServerSocket.create(P.class, …)";
        String forms = "a " + kind + " field is typed when it is final and assigned " + create + " in its declaration, "
                + "in a static initializer (a static field) or in every constructor, or stored there from a "
                + "@Session(protocol = P.class) constructor parameter; otherwise keep the " + kind + " in a local variable "
                + "or a @Session(protocol = P.class) parameter";
        return field.getModifiers().contains(Modifier.FINAL)
                ? "field '" + field.getSimpleName() + "' is final, but not assigned in one of the forms the checker reads: "
                        + forms
                : "field '" + field.getSimpleName() + "' is not final, so it may hold any " + kind + " when this runs: "
                        + forms;
    }

    /**
     * When {@code receiver} is a final field, or a record accessor call, of a class known from a class file
     * that has no field record: that class was compiled without the processor (which records every class
     * with such fields or components), so nothing says what it holds. The fix is there, not a
     * {@code @Session(protocol = …)} here (jpms report14). Null otherwise.
     */
    private String compiledWithoutProcessor(ExpressionTree receiver, String kind) {
        Element member = flow.elementOf(receiver);
        if (member == null || !(member.getEnclosingElement() instanceof javax.lang.model.element.TypeElement owner)
                || flow.trees.getTree(owner) != null) {
            return null;
        }
        String what;
        if (member.getKind() == ElementKind.FIELD && member.getModifiers().contains(Modifier.FINAL)) {
            what = "field '" + member.getSimpleName() + "'";
        } else if (receiver instanceof MethodInvocationTree call && call.getArguments().isEmpty()
                && owner.getKind() == ElementKind.RECORD) {
            what = "record component '" + owner.getSimpleName() + "." + member.getSimpleName() + "'";
        } else {
            return null;
        }
        if (!FieldFacts.unrecorded(flow.recordedFields(owner))) {
            return null;
        }
        String name = flow.elements.getBinaryName(owner).toString();
        return what + " is declared in " + name + ", which was compiled without sj-processor (no "
                + FieldFacts.DIRECTORY + name + ".txt in " + flow.factsWhere(owner) + "), so the checker cannot read which protocol it"
                + " holds: compile " + name + " with sj-processor (in its own build), or keep the " + kind
                + " in a local variable or a @Session(protocol = P.class) parameter of this code";
    }

    /** The endpoint (service or server socket) that {@code expression} evaluates to. */
    VarState endpointSource(ExpressionTree expression) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        Element endpoint = flow.trackedEndpoint(stripped);
        if (endpoint != null) {
            return flow.state == null ? VarState.Endpoint.unknown() : flow.state.get(endpoint);
        }
        VarState captured = captured(stripped);
        if (captured != null) {
            return captured;
        }
        if (stripped instanceof IdentifierTree || stripped instanceof MemberSelectTree) {
            Element field = flow.elementOf(stripped);
            VarState fieldState = field == null ? null : finalField(field);
            if (fieldState != null) {
                return fieldState;
            }
        }
        if (stripped instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select
                && flow.elementOf(call) instanceof ExecutableElement method
                        && flow.api.isSocketClass(method.getEnclosingElement())
                && method.getSimpleName().contentEquals("receive")) {
            Element from = flow.trackedSocket(select.getExpression());
            if (from != null) {
                flow.scanEach(call.getArguments());
                return flow.actions.receiveSession(from, call, null, true);
            }
        }
        if (stripped instanceof ConditionalExpressionTree conditional) {
            return conditionalEndpoint(conditional);
        }
        if (stripped instanceof MethodInvocationTree call && records.endpoint(call) instanceof VarState accessed) {
            flow.scan(expression, null);
            return accessed; // cfg.svc() of record Cfg(@Session(protocol = P.class) SJService svc)
        }
        VarState created = createdEndpoint(stripped, flow.getCurrentPath(), true);
        flow.scan(expression, null);
        return created;
    }

    /**
     * {@code c ? a : b} of services or server sockets: each arm is evaluated on its own path and the
     * value has the arms' protocol merged as where two paths meet (one protocol when both agree,
     * {@link StateMerges#CONFLICTING} when they differ, unknown when either is).
     */
    private VarState conditionalEndpoint(ConditionalExpressionTree conditional) {
        flow.scan(conditional.getCondition(), null);
        org.sessionj.processor.internal.flow.FlowState<Element> before = flow.state;
        VarState whenTrue = endpointSource(conditional.getTrueExpression());
        org.sessionj.processor.internal.flow.FlowState<Element> afterTrue = flow.state;
        flow.state = before;
        VarState whenFalse = endpointSource(conditional.getFalseExpression());
        flow.state = flow.join(afterTrue, flow.state, conditional, "the alternatives of this conditional expression");
        return StateMerges.endpointValues(whenTrue, whenFalse);
    }

    /**
     * The endpoint {@code expression} denotes, found without evaluating it again (it has been scanned):
     * a tracked or captured variable, a final field initialised by {@code create(P.class, …)}, or such
     * a {@code create} call; unknown otherwise.
     */
    VarState endpointOfScanned(ExpressionTree expression) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        if (stripped instanceof IdentifierTree || stripped instanceof MemberSelectTree) {
            return endpointSource(stripped); // scanning a name again has no effect
        }
        if (stripped instanceof ConditionalExpressionTree conditional) {
            return StateMerges.endpointValues(endpointOfScanned(conditional.getTrueExpression()),
                    endpointOfScanned(conditional.getFalseExpression()));
        }
        return createdEndpoint(stripped, flow.getCurrentPath(), false);
    }

    /**
     * The endpoint a {@code final} field is initialised with ({@code static final SJService SVC =
     * SJService.create(P.class, …)}), or null when {@code field} is not such a field. Read from the
     * field's declaration while its class's tree is intact and recorded for the compilation
     * ({@link DeclarationFacts}): the same answer whichever class javac compiles first.
     */
    VarState finalField(Element field) {
        if (field.getKind() != ElementKind.FIELD || !field.getModifiers().contains(Modifier.FINAL)) {
            return null;
        }
        flow.facts.read(field);
        VarState known = flow.facts.endpointField(field);
        if (known == null && flow.trees.getTree(field) instanceof VariableTree declaration
                && declaration.getInitializer() != null) {
            TreePath fieldPath = flow.trees.getPath(field);
            if (fieldPath != null) {
                known = createdEndpoint(declaration.getInitializer(), fieldPath, false);
                flow.facts.endpointField(field, known);
            }
        } else if (known == null && flow.trees.getTree(field) instanceof VariableTree && field.getModifiers()
                .contains(Modifier.STATIC) && (flow.api.isService(field.asType()) || flow.api.isServerSocket(field.asType()))) {
            known = storedByStaticInitializers((VariableElement) field);
            if (known != null) {
                flow.facts.endpointField(field, known);
            }
        } else if (known == null && flow.trees.getTree(field) == null && field.getEnclosingElement() instanceof TypeElement owner
                && flow.trees.getTree(owner) == null
                && (flow.api.isService(field.asType()) || flow.api.isServerSocket(field.asType()))) {
            known = recordedField(owner, field); // a class file: as its compilation recorded (adv13 A12)
            if (known != null) {
                flow.facts.endpointField(field, known);
            }
        } else if (known == null && flow.trees.getTree(field) instanceof VariableTree && !field.getModifiers()
                .contains(Modifier.STATIC) && (flow.api.isService(field.asType()) || flow.api.isServerSocket(field.asType()))) {
            known = storedByConstructors((VariableElement) field);
            if (known == null) {
                known = records.componentField((VariableElement) field); // adv16 A13
            }
            if (known != null) {
                flow.facts.endpointField(field, known);
            }
        }
        return known;
    }

    /**
     * The endpoint of final field {@code field} of {@code owner}, known from its class file, as the class's
     * compilation recorded it ({@link FieldFacts}: {@code endpoint <protocol>}); null when it recorded none
     * (compiled without the processor, or the protocol was not known there).
     */
    private VarState recordedField(TypeElement owner, Element field) {
        String fact = flow.recordedFields(owner).get(field.getSimpleName().toString());
        String prefix = "endpoint ";
        if (fact == null || !fact.startsWith(prefix) || fact.equals(prefix + "none")) {
            return null;
        }
        try {
            return new VarState.Endpoint(TypeModel.parse(
                    fact.substring(prefix.length())), "of field '" + owner.getSimpleName() + "." + field.getSimpleName()
                    + "' (as its class file records)");
        } catch (RuntimeException e) {
            return null; // a record this version cannot read: unknown, as before (SJ010 where it matters)
        }
    }

    /**
     * A blank final instance field: the endpoint its constructors store in it, when every assignment
     * to it in them stores a {@code @Session(protocol = P.class)} parameter of that constructor or a
     * {@code create(P.class, …)} call, all of one protocol; unknown when they disagree or store
     * anything else; null when no constructor compiled from source assigns it.
     */
    private VarState storedByConstructors(VariableElement field) {
        FieldStores stores = new FieldStores(field);
        for (ExecutableElement constructor : javax.lang.model.util.ElementFilter.constructorsIn(
                field.getEnclosingElement().getEnclosedElements())) {
            TreePath path = flow.trees.getPath(constructor);
            if (path != null) {
                stores.constructor = constructor;
                stores.scan(path, null);
            }
        }
        return stores.stored;
    }

    /**
     * A blank {@code static final} field: the endpoint its class's static initializers store in it (Java
     * lets them assign it exactly once on every path), when each such assignment is a {@code create(P.class,
     * …)} of one protocol (adv14 A2); null when none assigns it.
     */
    private VarState storedByStaticInitializers(VariableElement field) {
        TreePath classPath = flow.trees.getPath(field.getEnclosingElement());
        if (classPath == null || !(classPath.getLeaf() instanceof com.sun.source.tree.ClassTree type)) {
            return null;
        }
        FieldStores stores = new FieldStores(field);
        for (Tree member : type.getMembers()) {
            if (member instanceof com.sun.source.tree.BlockTree block && block.isStatic()) {
                stores.scan(new TreePath(classPath, block), null);
            }
        }
        return stores.stored;
    }

    /**
     * The endpoints a body's assignments store in one field, merged as where paths meet: in a constructor
     * ({@link #constructor} set: a stored parameter counts with its {@code @Session} type) or a static
     * initializer (null). Local and anonymous classes and lambdas cannot assign the final field.
     */
    private final class FieldStores extends com.sun.source.util.TreePathScanner<Void, Void> {
        private final VariableElement field;
        ExecutableElement constructor;
        VarState stored;

        FieldStores(VariableElement field) {
            this.field = field;
        }

        @Override
        public Void visitAssignment(com.sun.source.tree.AssignmentTree assignment, Void unused) {
            if (field.equals(flow.trees.getElement(new TreePath(getCurrentPath(), assignment.getVariable())))) {
                VarState value = constructor != null
                        ? storedValue(assignment.getExpression(), constructor, field,
                                new TreePath(getCurrentPath(), assignment.getExpression()))
                        : createdEndpoint(FlowScanner.strip(assignment.getExpression()), getCurrentPath(), false);
                stored = stored == null ? value : StateMerges.endpointValues(stored, value);
            }
            return super.visitAssignment(assignment, unused);
        }

        @Override
        public Void visitClass(com.sun.source.tree.ClassTree tree, Void unused) {
            return null;
        }

        @Override
        public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree tree, Void unused) {
            return null;
        }
    }

    private VarState storedValue(ExpressionTree value, ExecutableElement constructor, VariableElement field,
            TreePath path) {
        ExpressionTree stripped = FlowScanner.strip(value);
        if (stripped instanceof IdentifierTree name) {
            Element named = flow.trees.getElement(new TreePath(path, stripped));
            SessionType declared = named instanceof VariableElement parameter
                    && constructor.getParameters().contains(parameter)
                    ? flow.sessionParameters.of(parameter, null, null).declared() : null;
            return declared == null ? VarState.Endpoint.unknown() : new VarState.Endpoint(declared, "of field '"
                    + field.getSimpleName() + "' (stored from constructor parameter '" + name.getName() + "')");
        }
        return createdEndpoint(stripped, path.getParentPath(), false);
    }

    /** The state an enclosing body gave a captured service or server socket, or null. */
    private VarState captured(ExpressionTree expression) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        return stripped instanceof IdentifierTree ? flow.capturedEndpoints.get(flow.elementOf(stripped)) : null;
    }

    /**
     * The endpoint made by a typed factory with a protocol class literal: {@code SJService.create(P.class, …)},
     * {@code SJServerSocket.create(P.class, …)}, {@code runtime.service(P.class, …)} or
     * {@code runtime.serverSocket(P.class, …)} ({@link SessionApi#isEndpointFactory}).
     */
    private VarState createdEndpoint(ExpressionTree expression, TreePath context, boolean report) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        if (!(stripped instanceof MethodInvocationTree call) || call.getArguments().isEmpty()) {
            return VarState.Endpoint.unknown();
        }
        Element method = flow.trees.getElement(new TreePath(context, call));
        if (!(method instanceof ExecutableElement executable) || !flow.api.isEndpointFactory(executable)) {
            return VarState.Endpoint.unknown();
        }
        ExpressionTree literal = FlowScanner.strip(call.getArguments().get(0));
        if (!(literal instanceof MemberSelectTree select) || !select.getIdentifier().contentEquals("class")) {
            return VarState.Endpoint.unknown();
        }
        Element protocol = flow.trees.getElement(new TreePath(context, select.getExpression()));
        if (!(protocol instanceof TypeElement type) || !ProtocolRegistry.isProtocol(type)) {
            if (report) {
                flow.reporter.error(literal, Diagnostic.UNTYPED_SESSION, "'" + select.getExpression() + "'",
                        "it is not a @Protocol interface");
            }
            return VarState.Endpoint.unknown();
        }
        // instanceof, not a pattern switch: javac loads the processor afresh for every compilation, and
        // each switch's bootstrap would be linked cold every time (NoPatternSwitchTest)
        ProtocolDefinition definition = flow.registry.definition(type);
        if (definition instanceof ProtocolDefinition.Valid valid) {
            return new VarState.Endpoint(valid.expanded(), type.getSimpleName().toString());
        }
        if (definition instanceof ProtocolDefinition.SetProtocol) {
            if (report) {
                flow.reporter.error(literal, Diagnostic.UNTYPED_SESSION, "protocol '" + type.getSimpleName() + "'",
                        "it is a set protocol: it types a typed selector's sessions (SJSelector.of("
                        + type.getSimpleName() + ".class)), not one session");
            }
            return VarState.Endpoint.unknown();
        }
        ProtocolDefinition.Invalid invalid = (ProtocolDefinition.Invalid) definition;
        if (report && flow.trees.getPath(type) == null) {
            flow.reporter.error(literal, Diagnostic.UNTYPED_SESSION, "protocol '" + type.getSimpleName() + "'",
                    "it is invalid: " + invalid.problems().get(0));
        }
        return VarState.Endpoint.unknown();
    }

    /** The initial state of a socket parameter: its {@code @Session} type. */
    VarState socketParameter(VariableElement var, VariableTree tree) {
        SessionParameters.SessionParameter parameter = flow.sessionParameters.of(var, tree, flow.reporter);
        if (!parameter.annotated()) {
            flow.reporter.error(tree, Diagnostic.UNTYPED_SESSION, "session parameter '" + var.getSimpleName() + "'",
                    "annotate it with @Session(\"...remaining type...\") or @Session(protocol = P.class)");
            return VarState.FAILED;
        }
        return parameter.type() == null ? VarState.FAILED : new VarState.Live(parameter.type(), 0);
    }

    /** The protocol name of an endpoint parameter whose {@code @Session} is invalid, reported at it (SJ007). */
    static final String INVALID_ANNOTATION = "of a parameter whose @Session annotation is invalid (SJ007)";

    /** The initial state of a service or server socket parameter: its {@code @Session(protocol = P.class)}, if any. */
    VarState endpointParameter(VariableElement var, VariableTree tree) {
        SessionParameters.SessionParameter parameter = flow.sessionParameters.of(var, tree, flow.reporter);
        if (parameter.declared() == null) {
            return parameter.annotated() ? new VarState.Endpoint(null, INVALID_ANNOTATION) : VarState.Endpoint.unknown();
        }
        return new VarState.Endpoint(parameter.declared(), "of parameter '" + var.getSimpleName() + "'");
    }

    /**
     * A service or server socket given to a {@code @Session(protocol = P.class)} parameter: when its
     * own protocol is known it must be P's (the method starts sessions of P on it). An endpoint whose
     * protocol is not known here is accepted (docs/diagnostics.md, "What is not checked").
     */
    void endpointArgument(ExecutableElement method, VariableElement parameter, ExpressionTree argument) {
        VarState given = endpointSource(argument);
        SessionType wanted = flow.sessionParameters.of(parameter, null, flow.reporter).declared();
        if (flow.state != null && given instanceof VarState.Endpoint known && known.protocol() != null
                && !TypeModel.sameBehaviour(known.protocol(), wanted)) {
            flow.reporter.error(argument, Diagnostic.SESSION_METHOD_MISMATCH, "'" + argument + "'",
                    "the call to '" + method.getSimpleName() + "'", "a " + (flow.api.isService(parameter.asType())
                            ? "service" : "server socket") + " of protocol " + TypeModel.describe(wanted),
                    "of protocol " + known.protocolName() + ", " + TypeModel.describe(known.protocol()));
        }
    }

    /** request()/accept() whose session does not initialise a local socket variable. */
    void misplacedBegin(Tree call, String methodName) {
        flow.reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, "the session returned by " + methodName
                + "() must initialise a local SJSocket variable, e.g. try (SJSocket s = c." + methodName + "()) {...}");
    }

    /** A service or server socket captured by a lambda or local class keeps the state it has here. */
    void captured(Element var) {
        if (flow.state != null && flow.state.get(var) != null) {
            flow.capturedEndpoints.putIfAbsent(var, flow.state.get(var));
        }
    }
}
