package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssertTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.DeconstructionPatternTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Types;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;

/**
 * Checks one body (method, initializer or lambda): session sockets against their session types and
 * {@code @NoAlias} variables for unique ownership. It is the dispatcher over the {@link FlowScanner}
 * engine (which threads the immutable {@link FlowState} through the statements and merges it at
 * joins): declarations, names, calls and jumps are handed to one rule family each —
 * {@link SessionOriginRules} (where sessions and services come from), {@link SessionActionRules}
 * (send, receive, delegation, multicast, session methods), {@link ChoiceRules} (outbranch/inbranch),
 * {@link IterationRules} (outwhile/inwhile and loop invariants), {@link LinearityRules} (sockets are
 * used up exactly once and never copied) and {@link NoAliasRules} (unique ownership and moves).
 * What a declaration starts as is {@link Declarations}' job, how states merge {@link StateMerges},
 * calls {@link SessionApiCalls} and {@link CallArguments}, captures {@link Captures}, null tests
 * {@link NullTests}, where a try block's code may throw {@link TryThrowPoints}.
 * After the first error on a variable it stops checking that variable ({@link VarState.Failed}).
 */
final class MethodChecker extends FlowScanner {
    final Types types;
    final javax.lang.model.util.Elements elements;
    final SessionApi api;
    final ProtocolRegistry registry;
    final SessionParameters sessionParameters;
    final MessageTypes messages;
    final LentSessions lent;
    /** Facts of other classes' field declarations, kept for the compilation. */
    final DeclarationFacts facts;
    /** SJ024 across methods: shared by the checkers of the compilation ({@link UncheckedExits}). */
    final UncheckedExits uncheckedExits;
    /**
     * Services and server sockets that enclosing bodies let lambdas and local classes capture (they are
     * effectively final, so one state each); shared between the checkers of one class, filled by the
     * enclosing body first.
     */
    final Map<Element, VarState> capturedEndpoints;
    ExecutableElement unitMethod;
    /**
     * The method whose promises the body keeps: the method itself, or the functional interface's
     * method a lambda implements (its {@code @NoAlias} result: every return is unique).
     */
    ExecutableElement resultContract;
    final ImplementationContracts contracts;
    /**
     * The remaining types of the sessions each {@code SJ.spawn} lambda body is given, by lambda: filled by
     * the enclosing body's check, read by the lambda's (checked after it); shared by the checkers of a class.
     */
    Map<Tree, List<org.sessionj.types.SessionType>> spawnedTypes = new java.util.HashMap<>();
    private String unitName = "its body";

    final SessionOriginRules origins = new SessionOriginRules(this);
    final SessionActionRules actions = new SessionActionRules(this);
    final ChoiceRules choices = new ChoiceRules(this);
    final IterationRules iterations = new IterationRules(this);
    final LinearityRules linearity = new LinearityRules(this);
    final NoAliasRules noAlias = new NoAliasRules(this);
    final NoAliasValues noAliasValues = new NoAliasValues(this);
    final NoAliasFieldWindow noAliasFields = new NoAliasFieldWindow(this);
    final MoveContexts moveContexts = new MoveContexts(this);
    final JdkCopies jdkCopies = new JdkCopies(this);
    final ViewResults viewResults = new ViewResults(this);
    final ElementConsumers elementConsumers = new ElementConsumers(this);
    final TryMoves tryMoves = new TryMoves(this);
    final IteratedValues iteratedValues = new IteratedValues(this);
    final NoAliasViews views = new NoAliasViews(this);
    final SocketExpressionRules sockets = new SocketExpressionRules(this);
    final TryStatements tries = new TryStatements(this);
    final ImplicitCalls implicit = new ImplicitCalls(this);
    final JvmChecks jvmChecks = new JvmChecks(this);
    final MovedFieldExits fieldExits = new MovedFieldExits(this);
    final LiveSessionExits liveExits = new LiveSessionExits(this);
    final SpawnRules spawns = new SpawnRules(this);
    final JoinRules joins = new JoinRules(this);
    final SelectorRules selectors = new SelectorRules(this);
    final Declarations declarations = new Declarations(this);
    final PathEndings pathEndings = new PathEndings(this);
    final StateMerges merges = new StateMerges(this);
    final CallArguments callArguments = new CallArguments(this);
    final Captures captures = new Captures(this);
    final NullTests nulls = new NullTests(this);
    final TryThrowPoints throwPoints = new TryThrowPoints(this);
    final SessionApiCalls apiCalls = new SessionApiCalls(this);

    MethodChecker(ProcessingEnvironment environment, Trees trees, SessionApi api, ProtocolRegistry registry,
            Reporter reporter, Map<Element, VarState> capturedEndpoints, SessionParameters sessionParameters,
            MessageTypes messages, LentSessions lent, ImplementationContracts contracts, DeclarationFacts facts,
            UncheckedExits uncheckedExits) {
        super(trees, reporter);
        this.types = environment.getTypeUtils();
        this.elements = environment.getElementUtils();
        this.contracts = contracts; // stateless: one per compilation, not one per body
        this.api = api;
        this.registry = registry;
        this.capturedEndpoints = capturedEndpoints;
        this.sessionParameters = sessionParameters;
        this.messages = messages;
        this.lent = lent;
        this.facts = facts;
        this.uncheckedExits = uncheckedExits;
        this.environment = environment;
    }

    private final ProcessingEnvironment environment;

    /** Where the facts of {@code type}, known from its class file, are looked for (for messages). */
    String factsWhere(javax.lang.model.element.TypeElement type) {
        return new org.sessionj.processor.internal.facts.CompiledFacts(environment.getFiler(), elements).where(type);
    }

    /**
     * What the compilation of {@code type}, known from its class file, recorded about its final endpoint
     * fields and record accessors ({@link FieldFacts}), by member name; empty when nothing
     * ({@link FieldFacts#unrecorded} when there is no record at all).
     */
    Map<String, String> recordedFields(javax.lang.model.element.TypeElement type) {
        return facts.recorded(type, known -> FieldFacts.recorded(environment,
                new org.sessionj.processor.internal.facts.CompiledFacts(environment.getFiler(), elements),
                (javax.lang.model.element.TypeElement) known));
    }

    // ------------------------------------------------------------------ unit entry

    void analyse(TreePath unit) {
        root = unit;
        Scope outer = new Scope();
        scopes.push(outer);
        Tree leaf = unit.getLeaf();
        if (leaf instanceof MethodTree method) {
            unitName = "method '" + method.getName() + "'";
            unitMethod = trees.getElement(unit) instanceof ExecutableElement executable ? executable : null;
            resultContract = unitMethod;
            for (VariableTree parameter : method.getParameters()) {
                declarations.parameter(new TreePath(unit, parameter), null);
            }
            if (unitMethod != null) {
                declarations.ownFields(unitMethod, method);
            }
            scan(new TreePath(unit, method.getBody()), null);
            if (unitMethod != null && elements.isCompactConstructor(unitMethod)) {
                noAlias.compactConstructorEnd(method);
            }
            pathEndings.exit(null);
            pathEndings.finish();
        } else if (leaf instanceof LambdaExpressionTree lambda) {
            unitName = "the lambda";
            resultContract = contracts.functionalMethod(trees.getTypeMirror(unit));
            declarations.lambdaParameters(unit, lambda);
            if (lambda.getBodyKind() == LambdaExpressionTree.BodyKind.EXPRESSION) {
                noAliasValues.returned((ExpressionTree) lambda.getBody()); // the body's value is the result
            }
            scan(new TreePath(unit, lambda.getBody()), null);
        } else if (leaf instanceof VariableTree field) {
            unitName = "the initializer of field '" + field.getName() + "'";
            VariableElement element = trees.getElement(unit) instanceof VariableElement v ? v : null;
            if (element != null && api.isSelector(element.asType())) {
                selectors.declared(element);
            }
            // A @NoAlias field starts out owning its initializer's value, as a @NoAlias local does (SJ040).
            boolean unique = element == null || !NoAliasRules.isNoAlias(element) || noAliasValues.unique(field.getInitializer());
            scan(new TreePath(unit, field.getInitializer()), null);
            if (!unique && state != null) {
                reporter.error(field.getInitializer(), Diagnostic.NOT_UNIQUE, element.getSimpleName(),
                        field.getInitializer());
            }
        } else {
            unitName = "the initializer";
            scan(unit, null);
        }
        exitScope(outer, null, "at the end of " + unitName);
        scopes.pop();
    }

    /** The tracked variable of {@code kind} that {@code tree} names, or null. */
    private Element tracked(ExpressionTree tree, Kind kind) {
        ExpressionTree stripped = strip(tree);
        if (!(stripped instanceof IdentifierTree)) {
            return null;
        }
        Element var = elementOf(stripped);
        VarInfo info = infos.get(var);
        return info != null && info.kind() == kind ? var : null;
    }

    /** The tracked socket variable {@code tree} names, or null. */
    Element trackedSocket(ExpressionTree tree) {
        return tracked(tree, Kind.SOCKET);
    }

    /** The tracked service or server socket variable {@code tree} names, or null. */
    Element trackedEndpoint(ExpressionTree tree) {
        return tracked(tree, Kind.ENDPOINT);
    }

    static String describe(VarState value) {
        return switch (value) {
            case VarState.Live live -> TypeModel.describe(live.remaining())
                    + (live.iterations() > 0 ? " (inside its iteration)" : "");
            case VarState.Moved moved -> LinearityRules.failed(moved)
                    ? "failed (its action on line " + moved.how().substring(LinearityRules.FAILED_PREFIX.length()) + " threw)"
                    : moved.isNull() ? "null ('" + moved.how() + "')" : "'" + moved.text() + "'";
            case VarState.Unknown unknown -> unknown.how() + (unknown.mayBeNull() ? " (or null)" : "");
            case VarState.Nullable nullable -> describe(nullable.session()) + " or null ('" + nullable.nullHow() + "')";
            case VarState.Failed failed -> "unknown";
            case VarState.Unassigned unassigned -> "unassigned";
            case VarState.Endpoint endpoint -> "a service";
            case VarState.Owned owned -> "owned";
        };
    }

    // ------------------------------------------------------------------ engine hooks

    /** Inside a try block, the catch blocks see the state wherever code may throw: see {@link TryThrowPoints}. */
    @Override
    public Void scan(Tree tree, Void unused) {
        if (tree == null || state == null || !linearity.collectingThrowPoints()) {
            return scanFieldExits(tree);
        }
        boolean full = throwPoints.before(tree, getCurrentPath());
        FlowState<Element> before = state;
        Tree parent = getCurrentPath() == null ? null : getCurrentPath().getLeaf();
        scanFieldExits(tree);
        throwPoints.after(tree, full, before, parent);
        return null;
    }

    /** Where a call other than a session action runs, once its arguments are evaluated ({@link TryThrowPoints}). */
    void callPoint(Tree call, Element callee) {
        throwPoints.callPoint(call, callee);
        liveExits.callPoint(call, callee);
    }

    private Void scanFieldExits(Tree tree) {
        if (tree != null && fieldExits.active() && fieldExits.mayThrow(tree)) {
            boolean call = tree instanceof MethodInvocationTree || tree instanceof NewClassTree;
            if (call) {
                fieldExits.throwPoint(tree); // with the fields moved out before its arguments
            }
            super.scan(tree, null); // the subexpressions' own rules report first (and may throw first)
            fieldExits.throwPoint(tree, call); // a call may fail after taking a field's value (s.pass(ghost))
            return null;
        }
        return super.scan(tree, null);
    }

    /** A throw leaves with the fields moved out at this point: a catch or finally must refill them. */
    @Override
    public Void visitThrow(ThrowTree tree, Void unused) {
        scan(tree.getExpression(), null);
        pathEndings.thrown(getCurrentPath());
        throwPoints.thrown(tree);
        fieldExits.throwPoint(tree);
        liveExits.thrown(tree);
        state = null;
        return null;
    }

    // ------------------------------------------------------------------ null tests

    /** See {@link NullTests}. */
    @Override
    Branches branches(ExpressionTree condition, FlowState<Element> in) {
        return nulls.split(condition, in);
    }

    // ------------------------------------------------------------------ run-not-once regions

    /** Session actions in an assert happen or not depending on -ea: rejected; other effects join both. */
    @Override
    public Void visitAssert(AssertTree tree, Void unused) {
        FlowState<Element> before = state;
        onceOnly("an assert statement (it runs only when assertions are enabled, -ea)", () -> {
            scan(tree.getCondition(), null);
            scan(tree.getDetail(), null);
            implicit.assertDetail(tree.getDetail());
        });
        liveExits.asserted(tree); // with -ea a failing assert throws, as for the field exits (SJ044)
        state = join(before, state, tree, "running and skipping this assert");
        return null;
    }

    @Override
    VarState merge(Element var, VarState left, VarState right, Tree at, String what) {
        VarState endedOnOnePath = pathEndings.merge(var, left, right, at, what);
        if (endedOnOnePath != null) {
            return endedOnOnePath;
        }
        return merges.merge(var, left, right, at, what);
    }

    /**
     * See {@link StateMerges}: a loop that assigns a service or server-socket variable is probed for it; and
     * in a body that adds sockets to scopes, a loop over a live socket, which a round may make a member
     * (adv18 A4: {@link #widenOwnership} joins the memberships of the rounds).
     */
    @Override
    boolean widens(Element var, VarState value) {
        return super.widens(var, value) || merges.widens(var, value) || merges.nullWidens(var, value)
                || (value instanceof VarState.Live || value instanceof VarState.Nullable) && spawns.addsToScopes()
                || value instanceof VarState.Unassigned && infos.containsKey(var) && infos.get(var).kind() == Kind.VIEW;
    }

    @Override
    VarState widened(Element var, VarState atEntry, VarState atBackEdge, String later) {
        if (StateMerges.decides(atEntry, atBackEdge)) {
            return StateMerges.widened(atEntry, atBackEdge);
        }
        if (infos.containsKey(var) && infos.get(var).kind() == Kind.SOCKET) {
            return NullStates.nullWidened(atEntry, atBackEdge);
        }
        if (atEntry instanceof VarState.Unassigned && atBackEdge instanceof VarState.Moved moved
                && infos.containsKey(var) && infos.get(var).kind() == Kind.VIEW) {
            // a view made in an earlier iteration, of a value moved since (NoAliasViews): moved at the top
            return new VarState.Moved(moved.how() + later);
        }
        if (atEntry instanceof VarState.Unassigned && atBackEdge instanceof VarState.Owned
                && infos.containsKey(var) && infos.get(var).kind() == Kind.VIEW) {
            // a view made in an earlier iteration (adv16 A1: `keep = e` in a loop): after the loop it may view
            // what it was made from, so a move of that value after the loop ends it (SJ048 at a later use)
            return VarState.OWNED;
        }
        return super.widened(var, atEntry, atBackEdge, later);
    }

    @Override
    void checkComplete(Element var, Tree at, String where) {
        linearity.checkComplete(var, at, where);
        noAliasFields.checkRefilled(var, at, where);
    }

    @Override
    Set<Element> checkInvariant(FlowState<Element> entry, FlowState<Element> backEdge, Tree loop,
            Set<Element> exempt, Map<Element, Tree> lastActions) {
        return iterations.checkInvariant(entry, backEdge, loop, exempt, lastActions);
    }

    /** The last session action checked on each socket, in reading order (for where a round is incomplete). */
    final Map<Element, Tree> lastActions = new java.util.HashMap<>();

    @Override
    Tree lastAction(Element var) {
        return lastActions.get(var);
    }

    @Override
    void leaveIteration(Element var, Tree jump, String what) {
        iterations.leaveIteration(var, jump, what);
    }

    /** An enhanced for loop over a {@code @NoAlias} variable keeps its value until the loop ends. */
    @Override
    public Void visitEnhancedForLoop(EnhancedForLoopTree tree, Void unused) {
        try {
            return super.visitEnhancedForLoop(tree, unused);
        } finally {
            iteratedValues.ended(tree);
        }
    }

    @Override
    void iterationStarted(EnhancedForLoopTree tree) {
        if (state != null) {
            iteratedValues.started(tree);
        }
    }

    @Override
    void nextElement(EnhancedForLoopTree tree) {
        iteratedValues.nextElement(tree);
    }

    /** Also keeps the hidden reference of an enhanced for loop over {@code var} in step ({@link IteratedValues}). */
    @Override
    void set(Element var, VarState value) {
        super.set(var, value);
        iteratedValues.changed(var, value);
        views.changed(var, value);
    }

    /** Over an Iterable (not an array), the loop's calls of iterator()/hasNext()/next() are foreign code. */
    @Override
    void iterationCall(EnhancedForLoopTree loop) {
        implicit.iteration(loop);
    }

    @Override
    void checkLoopVariable(Element var, Tree at) {
        linearity.checkLoopVariable(var, at);
    }

    // ------------------------------------------------------------------ declarations, assignments, names

    /**
     * A declaration that is not tracked: only its initializer runs. Its modifiers and type are names
     * of types and constant annotation values, which no rule reads (see {@link #namesNoValue}).
     */
    @Override
    public Void visitVariable(VariableTree tree, Void unused) {
        Element var = trees.getElement(getCurrentPath());
        if (var != null && var.getKind() != ElementKind.FIELD && declarations.local(tree, var)) {
            return null;
        }
        if (var == null || var.getKind() == ElementKind.FIELD) {
            return super.visitVariable(tree, unused); // not understood, or a field: every part, as before
        }
        scan(tree.getNameExpression(), null);
        scan(tree.getInitializer(), null);
        return null;
    }

    /**
     * Whether a name denotes a package, a type or a type variable: it evaluates nothing at run time
     * (a static member's class is initialised by the member's own access, which its rules see), so no
     * rule applies to it or to its qualifier, which names a package or type too.
     */
    static boolean namesNoValue(Element element) {
        if (element == null) {
            return false;
        }
        ElementKind kind = element.getKind();
        return kind == ElementKind.PACKAGE || kind == ElementKind.MODULE || kind == ElementKind.TYPE_PARAMETER
                || kind.isClass() || kind.isInterface();
    }

    @Override
    public Void visitAssignment(AssignmentTree tree, Void unused) {
        NoAliasRules.Held held = noAlias.holdTarget(tree.getVariable()); // x[0] = g(x): stored after g moved x
        assignment(tree);
        noAlias.release(held);
        jvmChecks.stored(tree); // adv21 B8: an element's index and store are checked after the value
        return null;
    }

    private void assignment(AssignmentTree tree) {
        ExpressionTree target = strip(tree.getVariable());
        Element var = target instanceof IdentifierTree ? elementOf(target) : null;
        VarInfo info = var == null ? null : infos.get(var);
        if (info != null && info.kind() == Kind.SOCKET) {
            linearity.assign(tree, var, info);
            return;
        }
        if (info != null && info.kind() == Kind.ENDPOINT) {
            set(var, origins.endpointSource(tree.getExpression()));
            return;
        }
        if (info != null && info.kind() == Kind.VIEW) {
            views.assigned(tree, var);
            return;
        }
        if (noAlias.assignment(tree, target, var, info)) {
            return;
        }
        super.visitAssignment(tree, null);
    }

    @Override
    public Void visitIdentifier(IdentifierTree tree, Void unused) {
        Element var = elementOf(tree);
        if (namesNoValue(var)) {
            return null;
        }
        noAliasFields.staticField(tree, var);
        implicit.staticField(tree, var); // adv20 A6 (U07): a first use runs the class's static initializer
        VarInfo info = var == null ? null : infos.get(var);
        if (noAlias.identifier(tree, var, info)) {
            return null;
        }
        if (info != null && info.kind() == Kind.SOCKET) {
            linearity.wholeValueUse(tree, var, info);
        } else if (info == null) {
            sockets.name(tree, var);
        }
        return null;
    }

    @Override
    public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
        Element element = elementOf(tree);
        if (namesNoValue(element)) {
            return null;
        }
        noAliasFields.staticField(tree, element);
        implicit.staticField(tree, element); // adv20 A6 (U07)
        if (noAlias.memberSelect(tree, element)) {
            return null;
        }
        sockets.fieldAccess(tree, element);
        return super.visitMemberSelect(tree, unused);
    }

    /** An array creation: its dimensions and initializers run; its element type is a type name. */
    @Override
    public Void visitNewArray(com.sun.source.tree.NewArrayTree tree, Void unused) {
        for (ExpressionTree dimension : tree.getDimensions()) {
            scan(dimension, null);
        }
        if (tree.getInitializers() != null) {
            for (ExpressionTree initializer : tree.getInitializers()) {
                scan(initializer, null);
            }
        }
        jvmChecks.newArray(tree); // adv21 B8
        return null;
    }

    @Override
    public Void visitArrayAccess(ArrayAccessTree tree, Void unused) {
        sockets.arrayElement(tree);
        scan(tree.getExpression(), null);
        NoAliasRules.Held held = noAlias.hold(tree.getExpression(), "by the index, evaluated before this array access uses it");
        scan(tree.getIndex(), null);
        noAlias.release(held);
        jvmChecks.arrayAccess(tree); // adv21 B8
        return null;
    }

    @Override
    public Void visitTypeCast(TypeCastTree tree, Void unused) {
        sockets.cast(tree);
        scan(tree.getExpression(), null); // the target type is a type name
        jvmChecks.cast(tree); // adv21 B8
        return null;
    }

    // ------------------------------------------------------------------ implicit calls

    /** String concatenation calls toString() of its reference operands: code that may read a moved field. */
    @Override
    public Void visitBinary(BinaryTree tree, Void unused) {
        super.visitBinary(tree, unused);
        jvmChecks.binary(tree); // adv21 B8
        if (tree.getKind() == Tree.Kind.PLUS) {
            implicit.concatenation(tree, tree.getLeftOperand(), tree.getRightOperand());
        }
        return null;
    }

    @Override
    public Void visitCompoundAssignment(CompoundAssignmentTree tree, Void unused) {
        NoAliasRules.Held held = noAlias.holdTarget(tree.getVariable()); // x[0] += g(x)
        super.visitCompoundAssignment(tree, unused);
        noAlias.release(held);
        jvmChecks.compound(tree); // adv21 B8
        if (tree.getKind() == Tree.Kind.PLUS_ASSIGNMENT) {
            implicit.concatenation(tree, tree.getExpression(), null);
        }
        return null;
    }

    /** A record pattern calls the record's accessors: code that may read a moved field. */
    @Override
    public Void visitDeconstructionPattern(DeconstructionPatternTree tree, Void unused) {
        noAliasFields.beforeForeignCode(tree, "before this record pattern (which calls the record's accessors)");
        if (state != null && linearity.collectingThrowPoints()) {
            linearity.throwPoint(); // the accessors are code of the program
        }
        implicit.recordPattern(tree, getCurrentPath()); // and may throw what a caller's catch takes (adv20 A6)
        return super.visitDeconstructionPattern(tree, unused);
    }

    // ------------------------------------------------------------------ calls

    @Override
    public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        Element element = trees.getElement(getCurrentPath());
        if (!(element instanceof ExecutableElement method)) {
            return super.visitMethodInvocation(call, unused);
        }
        if (apiCalls.check(call, method)) {
            return null;
        }
        String methodName = method.getSimpleName().toString();
        scan(call.getMethodSelect(), null);
        callArguments.check(call, method, call.getArguments());
        callPoint(call, method); // the callee runs (and may throw) once the arguments are evaluated
        noAliasFields.beforeForeignCode(call, "before the call of '" + methodName + "' (which may read it)");
        sockets.callResult(call, method);
        return null;
    }

    /** Scans a call's parts (type arguments, method select, arguments) under no rule of its own. */
    void scanChildren(MethodInvocationTree call) {
        super.visitMethodInvocation(call, null);
    }

    // ------------------------------------------------------------------ capture

    @Override
    public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
        noAliasFields.beforeForeignCode(lambda, "before creating a lambda (which may read it)");
        captures.check(lambda, "a lambda");
        return null;
    }

    @Override
    public Void visitClass(ClassTree tree, Void unused) {
        noAliasFields.beforeForeignCode(tree, "before declaring a local class (which may read it)");
        captures.check(tree, "a local class");
        return null;
    }

    @Override
    public Void visitNewClass(NewClassTree tree, Void unused) {
        scan(tree.getEnclosingExpression(), null);
        if (trees.getElement(getCurrentPath()) instanceof ExecutableElement constructor) {
            callArguments.check(tree, api.invokedConstructor(constructor), tree.getArguments());
        } else {
            scanEach(tree.getArguments());
        }
        callPoint(tree, trees.getElement(getCurrentPath())); // the constructor runs once the arguments are evaluated
        noAliasFields.beforeForeignCode(tree, "before this constructor call (which may read it)");
        sockets.construction(tree);
        if (tree.getClassBody() != null) {
            captures.check(tree.getClassBody(), "an anonymous class");
        }
        return null;
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
        ExecutableElement functional = contracts.functionalMethod(trees.getTypeMirror(getCurrentPath()));
        if (functional != null && state != null) {
            contracts.methodReference(getCurrentPath(), trees.getElement(getCurrentPath()), functional, reporter);
        }
        liveExits.referenced(tree, trees.getElement(getCurrentPath())); // adv18 A6: run where the value is run
        Element socket = trackedSocket(tree.getQualifierExpression());
        if (socket != null) {
            linearity.boundBy(socket, tree);
            return null;
        }
        return super.visitMemberReference(tree, unused);
    }

    // ------------------------------------------------------------------ loops and switches

    @Override
    public Void visitWhileLoop(WhileLoopTree tree, Void unused) {
        if (!iterations.sessionLoop(tree)) {
            plainLoop(tree, tree.getCondition(), tree.getStatement(), List.of(), false);
        }
        return null;
    }

    @Override
    boolean sessionFor(com.sun.source.tree.ForLoopTree tree) {
        return iterations.sessionLoop(tree);
    }

    @Override
    public Void visitDoWhileLoop(DoWhileLoopTree tree, Void unused) {
        iterations.rejectDoWhile(tree);
        plainLoop(tree, tree.getCondition(), tree.getStatement(), List.of(), true);
        return null;
    }

    @Override
    public Void visitSwitch(SwitchTree tree, Void unused) {
        choices.switchStatement(tree, tree.getExpression(), tree.getCases(), false);
        return null;
    }

    @Override
    public Void visitSwitchExpression(SwitchExpressionTree tree, Void unused) {
        choices.switchStatement(tree, tree.getExpression(), tree.getCases(), true);
        return null;
    }

    // ------------------------------------------------------------------ jumps

    @Override
    public Void visitReturn(ReturnTree tree, Void unused) {
        noAliasValues.returned(tree.getExpression());
        scan(tree.getExpression(), null);
        if (state == null) {
            return null;
        }
        iterations.returnFrom(tree);
        state = throughFinallies(state, null); // the finally blocks run before the method returns
        if (state == null) {
            return null;
        }
        for (Scope scope : scopes) {
            for (Element var : scope.vars) {
                if (state.tracks(var)) {
                    checkComplete(var, tree, "at this return");
                }
            }
        }
        pathEndings.exit(getCurrentPath());
        state = null;
        return null;
    }

    // ------------------------------------------------------------------ try

    @Override
    public Void visitTry(TryTree tree, Void unused) {
        tries.tryStatement(tree);
        return null;
    }

    @Override
    FlowState<Element> throughFinallies(FlowState<Element> arriving, Frame target) {
        return tries.throughFinallies(arriving, target);
    }
}
