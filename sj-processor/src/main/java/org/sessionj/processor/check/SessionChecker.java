package org.sessionj.processor.check;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;

/**
 * Runs the session checks on every class once javac has attributed and flow-analysed it
 * ({@link TaskEvent.Kind#ANALYZE}): each method, initializer and lambda body is one unit of analysis.
 */
public final class SessionChecker implements TaskListener {
    /** The {@code @SuppressWarnings} name that turns the checker off for one declaration. */
    static final String SUPPRESSION = "sessionj";
    private final SessionApi api;
    private final SessionParameters sessionParameters;
    private final MessageTypes messages;
    private final LentSessions lent;
    /** SJ024 across methods: the unchecked exits of methods and the calls of them (adv12 A6). */
    private final UncheckedExits uncheckedExits;
    private final EndingsResource endings;
    /** adv20 A9: the unchecked exits written for, and read from, other compilations. */
    private final ExitsResource exitsResource;
    /** The top-level classes analysed in this compilation, by binary name (each gets its exits file, or loses it). */
    private final Map<String, TypeElement> analysed = new LinkedHashMap<>();
    private final DeclarationFacts facts = new DeclarationFacts();
    private final OverrideRules overrides;
    private final NoAliasPlacement noAliasPlacement;
    private final UnbegunEndpoints unbegun;
    private final ImplementationContracts contracts;
    private final SessionRelevance relevance;
    private final Trees trees;
    private final ProtocolRegistry registry;
    private final ProcessingEnvironment environment;
    private final Set<ClassTree> done = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * The binary names of the top-level classes whose code was checked for sessions (not skipped by the
     * pre-scan): each gets a record beside the output's marker ({@link CheckedMarker}), which the runtime
     * asks for the class that runs a session.
     */
    private final Set<String> sessionClasses = new java.util.TreeSet<>();
    /** Whether annotation processing saw classes and ended without an error (set by the processor's last round). */
    private boolean processedCleanly;
    private final CheckedUsersIndex users;

    /** Validates and describes the protocols of files that annotation processing did not see. */
    private final ProtocolDeclarations declarations;

    public SessionChecker(ProcessingEnvironment environment, Trees trees, ProtocolRegistry registry,
            ProtocolDeclarations declarations) {
        this.declarations = declarations;
        this.environment = environment;
        this.trees = trees;
        this.registry = registry;
        this.api = new SessionApi(environment.getElementUtils(), environment.getTypeUtils());
        this.sessionParameters = new SessionParameters(api, registry);
        this.users = new CheckedUsersIndex(environment, trees, registry, sessionParameters);
        sessionParameters.recordReadsIn(users);
        registry.recordUses(users);
        this.messages = new MessageTypes(environment.getTypeUtils(), trees, registry);
        this.endings = new EndingsResource(environment);
        sessionParameters.readRecordedTypesFrom(trees, endings);
        this.lent = new LentSessions(api, trees, endings);
        this.uncheckedExits = new UncheckedExits(trees, environment.getElementUtils(), environment.getTypeUtils());
        this.exitsResource = new ExitsResource(environment);
        uncheckedExits.readRecordedExits(exitsResource);
        lent.recordReadsIn(users);
        facts.recordReadsIn(users);
        users.readFactsFrom(api, lent, facts);
        this.contracts = new ImplementationContracts(environment.getElementUtils(), trees, api, sessionParameters);
        this.relevance = new SessionRelevance(trees, contracts);
        this.overrides = new OverrideRules(api, sessionParameters, environment.getElementUtils(),
                environment.getTypeUtils(), lent);
        this.noAliasPlacement = new NoAliasPlacement(trees);
        this.unbegun = new UnbegunEndpoints(api, trees, registry);
    }

    /**
     * Called by the processor when annotation processing is over: {@code sawClasses}, whether its rounds had
     * classes of this compilation, and {@code errorRaised}, whether a round raised an error (javac then stops
     * before analysing anything, rightly so).
     */
    public void processingOver(boolean sawClasses, boolean errorRaised) {
        processedCleanly = sawClasses && !errorRaised;
        processingOver = true;
    }

    /** Whether the last processing round has begun (the names resolved so far are kept from then on). */
    private boolean processingOver;
    /** Whether javac parsed a file after that: one generated in the last round, whose types names may denote. */
    private boolean parsedAfterLastRound;

    /**
     * The warning for a compilation that processed annotations and never analysed a class: javac run with
     * {@code -proc:only} (maven-processor-plugin, a compiler-plugin execution with {@code <proc>only</proc>}).
     * The descriptors were written, so the runtime will not say the code went unchecked (adv15 A19).
     */
    public static final String PROCESSING_ONLY = "sj-processor: this javac run only processed annotations (-proc:only, or a "
            + "build step that stops after annotation processing): protocol descriptors were written but no session "
            + "code was checked; the compile step that follows must run sj-processor too (not -proc:none)";

    @Override
    public void finished(TaskEvent event) {
        if (event.getKind() == TaskEvent.Kind.PARSE && processingOver) {
            parsedAfterLastRound = true;
            return;
        }
        if (event.getKind() == TaskEvent.Kind.ANNOTATION_PROCESSING && parsedAfterLastRound) {
            // A processor generated a source in the last round, after this one kept the names it had
            // resolved (SessionProcessor#process): a name may now denote one of its types.
            registry.newRound();
            return;
        }
        if (event.getKind() == TaskEvent.Kind.COMPILATION && api.available()) {
            users.compilationFinished();
            // adv20 A9: written once every class is checked (a later class's exit may pass through an earlier one)
            exitsResource.write(analysed, sessionClasses, uncheckedExits.methodExits());
            String unmarked = done.isEmpty() ? null : CheckedMarker.write(users.sessionjDirectory(), sessionClasses);
            if (unmarked != null) {
                environment.getMessager().printMessage(javax.tools.Diagnostic.Kind.WARNING, unmarked);
            }
            if (processedCleanly && done.isEmpty()) {
                environment.getMessager().printMessage(javax.tools.Diagnostic.Kind.WARNING, PROCESSING_ONLY);
            }
            return;
        }
        if (event.getKind() != TaskEvent.Kind.ANALYZE || !api.available()) {
            return;
        }
        TypeElement type = event.getTypeElement();
        CompilationUnitTree unit = event.getCompilationUnit();
        if (type == null || unit == null) {
            return;
        }
        ClassTree classTree = trees.getTree(type);
        if (classTree == null || !done.add(classTree)) {
            return;
        }
        // ANALYZE reports top-level classes, which are direct children of their compilation unit.
        TreePath path = unit.getTypeDecls().contains(classTree)
                ? new TreePath(new TreePath(unit), classTree) : trees.getPath(type);
        if (path == null) {
            return;
        }
        if (!registry.processed(unit)) {
            // Found on the source path and compiled implicitly: no processing round validated its protocols
            // or wrote their descriptors (noalias report12 "Left"); javac analyses it all the same.
            declarations.validateTypes(type);
        }
        Reporter reporter = new Reporter(trees, unit);
        users.checking(type);
        endings.checking(type);
        exitsResource.checking(type);
        if (type.getNestingKind() == javax.lang.model.element.NestingKind.TOP_LEVEL) {
            analysed.put(environment.getElementUtils().getBinaryName(type).toString(), type);
        }
        try {
            recordDeclarations(path, unit);
            users.checkUsers(type, reporter);
            if (!mentionsSessionApi(unit) && !relevance.mayTouchSessions(path)) {
                // a catch of it may take a session method's unchecked exit (adv12 A6), or a call let it out (adv20 A10)
                callsOfBodies(path);
                return;
            }
            sessionClasses.add(environment.getElementUtils().getBinaryName(type).toString());
            new UnitWalker(reporter).scan(path, null);
        } finally {
            users.checked();
            endings.checking(null); // a warning outside a class's checks (a fingerprint) has no place in one
            exitsResource.checking(null);
        }
    }

    /**
     * Records what other classes' checks read from this class's declarations, now, before javac lowers
     * the class and its tree no longer holds them (javac's default policy lowers and generates each
     * class before it analyses the next): whether each method ends the socket it is lent
     * ({@link LentSessions}), and the endpoint or selector each final field is initialised with
     * ({@link DeclarationFacts}). Only member declarations are visited, not bodies: a local or
     * anonymous class is used only inside this class, which is checked now. The endings are also
     * written for compilations that use these classes from the class path ({@link EndingsResource}).
     */
    private void recordDeclarations(TreePath classPath, CompilationUnitTree unit) {
        // One walk over the members (member classes at any depth, no bodies), in source order; LentSessions
        // is given the methods found, which it would otherwise find in a walk of its own, after a search of
        // the whole file for the class (issue 12: one pass per class instead of three).
        List<TreePath> declarations = new ArrayList<>();
        List<Element> declared = new ArrayList<>(); // their elements (null: javac has none)
        Map<Element, TreePath> methods = new HashMap<>();
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitMethod(MethodTree tree, Void unused) {
                Element element = trees.getElement(getCurrentPath());
                if (element != null) {
                    methods.put(element, getCurrentPath());
                    declarations.add(getCurrentPath());
                    declared.add(element);
                }
                return null;
            }

            @Override
            public Void visitVariable(VariableTree tree, Void unused) {
                declarations.add(getCurrentPath());
                declared.add(trees.getElement(getCurrentPath()));
                return null;
            }

            @Override
            public Void visitBlock(BlockTree tree, Void unused) {
                return null;
            }

            @Override
            public Void visitNewClass(com.sun.source.tree.NewClassTree tree, Void unused) {
                return null; // an enum constant's body
            }
        }.scan(classPath, null);
        Element classElement = trees.getElement(classPath);
        if (classElement instanceof TypeElement top
                && top.getEnclosingElement().getKind() == javax.lang.model.element.ElementKind.PACKAGE) {
            lent.members(top, methods);
        }
        MethodChecker[] fields = new MethodChecker[1];
        Set<Element> withFields = new HashSet<>(); // the types declaring final endpoint or selector fields
        // per class with socket parameters (member classes too), the parameters its methods end, and per class
        // with @Session("…") parameters, their types as resolved here (a class file keeps no imports: adv22 C6)
        Map<TypeElement, List<EndingsResource.Ending>> ended = new LinkedHashMap<>();
        Map<TypeElement, List<EndingsResource.SessionText>> typed = new LinkedHashMap<>();
        for (int i = 0; i < declarations.size(); i++) {
            if (declarations.get(i).getLeaf() instanceof MethodTree) {
                recordEndings(declared.get(i), ended, typed);
            } else {
                recordField((VariableTree) declarations.get(i).getLeaf(), declared.get(i), unit, fields, withFields);
            }
        }
        for (TypeElement owner : typed.keySet()) {
            if (!ended.containsKey(owner)) {
                ended.put(owner, new ArrayList<>());
            }
        }
        for (Map.Entry<TypeElement, List<EndingsResource.Ending>> entry : ended.entrySet()) {
            List<EndingsResource.SessionText> texts = typed.get(entry.getKey());
            endings.write(entry.getKey(), entry.getValue(), texts == null ? List.of() : texts);
        }
        if (classElement instanceof TypeElement type) {
            users.recordFieldFacts(type, withFields);
        }
    }

    /**
     * Which socket parameters {@code element}, a member method, ends ({@link LentSessions}), into {@code ended};
     * the types its {@code @Session("…")} parameters resolved to, into {@code typed}.
     */
    private void recordEndings(Element element, Map<TypeElement, List<EndingsResource.Ending>> ended,
            Map<TypeElement, List<EndingsResource.SessionText>> typed) {
        if (element instanceof ExecutableElement method
                && method.getEnclosingElement() instanceof TypeElement owner) {
            List<? extends VariableElement> parameters = method.getParameters();
            for (int i = 0; i < parameters.size(); i++) {
                VariableElement parameter = parameters.get(i);
                String resolved = sessionParameters.resolvedText(parameter);
                if (resolved != null) {
                    List<EndingsResource.SessionText> list = typed.get(owner);
                    if (list == null) {
                        list = new ArrayList<>();
                        typed.put(owner, list);
                    }
                    list.add(new EndingsResource.SessionText(method, i, resolved));
                }
                if (api.isSocket(parameter.asType())) {
                    String how = lent.ending(method, parameter);
                    List<EndingsResource.Ending> list = ended.get(owner);
                    if (list == null) {
                        list = new ArrayList<>();
                        ended.put(owner, list);
                    }
                    if (how != null) {
                        list.add(new EndingsResource.Ending(method, i, lent.handsOver(method, parameter), how));
                    }
                }
            }
        }
    }

    /** The endpoint or selector {@code element}, a final field declared by {@code tree}, holds ({@link DeclarationFacts}). */
    private void recordField(VariableTree tree, Element element, CompilationUnitTree unit, MethodChecker[] fields,
            Set<Element> withFields) {
        if (element instanceof VariableElement field
                && field.getModifiers().contains(javax.lang.model.element.Modifier.FINAL)) {
            boolean selector = api.isSelector(field.asType()) && tree.getInitializer() != null;
            // A blank final endpoint field: what its constructors store (read before lowering too).
            if (selector || api.isService(field.asType()) || api.isServerSocket(field.asType())) {
                withFields.add(field.getEnclosingElement());
                if (fields[0] == null) {
                    Reporter silent = new Reporter(trees, unit);
                    silent.silence();
                    fields[0] = newChecker(silent, new HashMap<>());
                }
                if (selector) {
                    fields[0].selectors.recordField(field);
                } else {
                    fields[0].origins.finalField(field);
                }
            }
        }
    }

    /**
     * The bodies of a class the checker does not read (it can touch no session): their calls of the program's
     * methods, for {@link UncheckedExits} (a catch that takes a session method's unchecked exception and goes
     * on, adv12 A6; a call that lets it out to the body's own callers, adv20 A10).
     */
    private void callsOfBodies(TreePath classPath) {
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitMethod(MethodTree tree, Void unused) {
                if (tree.getBody() != null) {
                    calls(getCurrentPath());
                }
                return super.visitMethod(tree, unused);
            }

            @Override
            public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree tree, Void unused) {
                calls(getCurrentPath());
                return super.visitLambdaExpression(tree, unused);
            }
        }.scan(classPath, null);
    }

    /** The calls of the program's methods in {@code body}, a body the checker does not read ({@link UncheckedExits#callsOf}). */
    private void calls(TreePath body) {
        Reporter silent = new Reporter(trees, body.getCompilationUnit());
        silent.silence();
        MethodChecker types = newChecker(silent, new HashMap<>());
        types.root = body;
        uncheckedExits.callsOf(body, types);
    }

    private MethodChecker newChecker(Reporter reporter, Map<Element, VarState> capturedEndpoints) {
        return new MethodChecker(environment, trees, api, registry, reporter, capturedEndpoints, sessionParameters,
                messages, lent, contracts, facts, uncheckedExits);
    }

    /**
     * Whether the compilation unit imports from the session API's package ({@code org.sessionj.api}) or
     * is in that package: the cheap test that most files using the API pass at once. A unit that does
     * not is not skipped on that ground alone (a qualified name, a {@code var}, a method result or an
     * implicitly typed lambda reaches a session without an import): it is skipped only if the pre-scan
     * ({@link SessionRelevance}) finds nothing in its attributed tree that can touch a session (a
     * qualified name of an API type is such a node). The file's text is not searched: that read and
     * copied every session-free file once more, only to spare the pre-scan of the rare file that
     * names the API by qualified names alone. Most files of a module then cost one light scan instead
     * of a full check (javac loads the processor afresh for every compilation, so it mostly runs
     * interpreted and every node it visits counts).
     */
    private final Map<CompilationUnitTree, Boolean> mentions = new WeakHashMap<>();

    private boolean mentionsSessionApi(CompilationUnitTree unit) {
        Boolean known = mentions.get(unit);
        if (known == null) {
            known = readsSessionApi(unit);
            mentions.put(unit, known);
        }
        return known;
    }

    private static boolean readsSessionApi(CompilationUnitTree unit) {
        if (unit.getPackageName() != null && inApiPackage(unit.getPackageName())) {
            return true;
        }
        for (ImportTree imported : unit.getImports()) {
            if (inApiPackage(imported.getQualifiedIdentifier())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a qualified name starts with {@code org.sessionj.api}: read off the tree, since printing
     * it ({@code toString()}) runs javac's pretty printer for every import of every file.
     */
    private static boolean inApiPackage(Tree name) {
        Tree at = name;
        int depth = 0;
        while (at instanceof MemberSelectTree select) {
            depth++;
            at = select.getExpression();
        }
        if (depth < 2 || !(at instanceof IdentifierTree root) || !root.getName().contentEquals("org")) {
            return false;
        }
        // Walk down again to the second and third names from the root: sessionj, api.
        Tree second = name;
        for (int i = 0; i < depth - 1; i++) {
            second = ((MemberSelectTree) second).getExpression();
        }
        Tree third = name;
        for (int i = 0; i < depth - 2; i++) {
            third = ((MemberSelectTree) third).getExpression();
        }
        return ((MemberSelectTree) second).getIdentifier().contentEquals("sessionj")
                && ((MemberSelectTree) third).getIdentifier().contentEquals("api");
    }

    /**
     * Whether {@code element} carries {@code @SuppressWarnings("sessionj")}. On a class, method, constructor
     * or field it means its code is not checked at all (docs/diagnostics.md, "Turning the checker off"), for
     * code that breaks a protocol on purpose, such as a test of how the peer copes; the runtime monitor
     * still stops it. Read off the element's annotation
     * mirrors: {@code getAnnotation(SuppressWarnings.class)} would build a reflection proxy per
     * declaration, and the processor, loaded afresh by every compilation, runs mostly interpreted.
     */
    static boolean suppresses(Element element) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (!((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName()
                    .contentEquals("java.lang.SuppressWarnings")) {
                continue;
            }
            for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry
                    : mirror.getElementValues().entrySet()) {
                if (entry.getKey().getSimpleName().contentEquals("value") && names(entry.getValue())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A type as its source would write it: simple class names, e.g. {@code String}, {@code SJSocket[]}. */
    private static String simpleText(TypeMirror type) {
        return type.toString().replaceAll("\\b(?:[a-z_][\\w]*\\.)+(?=[A-Z])", "");
    }

    /** Whether an annotation value (a string, or an array of them) names {@link #SUPPRESSION}. */
    private static boolean names(AnnotationValue value) {
        Object held = value.getValue();
        if (held instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof AnnotationValue element && SUPPRESSION.equals(element.getValue())) {
                    return true;
                }
            }
            return false;
        }
        return SUPPRESSION.equals(held);
    }

    /** Finds every body to analyse: methods, initializer blocks and lambdas, at any nesting. */
    private final class UnitWalker extends TreePathScanner<Void, Void> {
        private final Reporter reporter;
        private final Map<Element, VarState> capturedEndpoints = new HashMap<>();
        /** The sessions' remaining types of each SJ.spawn lambda body ({@link MethodChecker#spawnedTypes}). */
        private final Map<com.sun.source.tree.Tree, java.util.List<org.sessionj.types.SessionType>> spawnedTypes =
                new HashMap<>();
        private final ScopeRules scopes;

        UnitWalker(Reporter reporter) {
            this.reporter = reporter;
            this.scopes = new ScopeRules(api, trees);
        }

        @Override
        public Void visitMethodInvocation(com.sun.source.tree.MethodInvocationTree call, Void unused) {
            scopes.invocation(getCurrentPath(), call, reporter);
            unbegun.check(getCurrentPath(), reporter);
            return super.visitMethodInvocation(call, unused);
        }

        @Override
        public Void visitIdentifier(IdentifierTree identifier, Void unused) {
            scopes.identifier(getCurrentPath(), identifier, reporter);
            return super.visitIdentifier(identifier, unused);
        }

        @Override
        public Void visitMethod(MethodTree method, Void unused) {
            // The method's element, asked of javac once for the three questions below (issue 12: the class walk
            // visits every node of the class, and each query is a call into javac, mostly interpreted here).
            Element declared = trees.getElement(getCurrentPath());
            if (declared != null && suppresses(declared)) {
                return null;
            }
            // Not the members javac writes itself (a record's implicit constructor and accessors).
            boolean implicit = declared != null
                    && environment.getElementUtils().getOrigin(declared) != Elements.Origin.EXPLICIT;
            if (!implicit && declared instanceof javax.lang.model.element.ExecutableElement element) {
                overrides.check(element, method, reporter);
            }
            if (method.getBody() != null && !implicit) {
                analyse(getCurrentPath());
            } else if (method.getBody() == null) {
                declarationOnly(method);
            }
            return super.visitMethod(method, unused);
        }

        /**
         * A method without a body (abstract, an interface's, native) is never analysed, yet its
         * {@code @Session} types are what its callers and implementations are checked against: an
         * invalid one is reported at its declaration (SJ007), as for a method with a body.
         */
        private void declarationOnly(MethodTree method) {
            for (VariableTree parameter : method.getParameters()) {
                if (trees.getElement(new TreePath(getCurrentPath(), parameter)) instanceof VariableElement element) {
                    sessionParameters.of(element, parameter, reporter);
                }
            }
        }

        /**
         * A method or constructor reference implementing a method must not end a socket that method does
         * not (SJ056; {@code Foo::new} runs Foo's constructor as the implementation), and no session socket
         * may flow through its function type untracked (SJ010).
         */
        @Override
        public Void visitMemberReference(com.sun.source.tree.MemberReferenceTree reference, Void unused) {
            TypeMirror functionalType = trees.getTypeMirror(getCurrentPath());
            ExecutableElement functional = contracts.functionalMethod(functionalType);
            if (functional != null) {
                untrackedSockets(reference, functionalType, functional);
            }
            if (functional != null && trees.getElement(getCurrentPath()) instanceof ExecutableElement method
                    && (method.getKind() == javax.lang.model.element.ElementKind.METHOD
                            || method.getKind() == javax.lang.model.element.ElementKind.CONSTRUCTOR)) {
                if (!overrides.endsLent(method, functional, reference, "the method reference " + reference, reporter)) {
                    overrides.throwsUndeclared(method, null, functional, reference, "the method reference " + reference,
                            reporter);
                }
            }
            return super.visitMemberReference(reference, unused);
        }

        /**
         * The method-reference form of the invariant "the expressions of socket type are exactly the
         * tracked socket variables": a reference whose function type returns a socket
         * ({@code svc::request}, {@code ss::accept} as a {@code Supplier<SJSocket>}) or takes one through
         * a parameter without a {@code @Session} type ({@code SJSocket::close} or a {@code @Session}
         * method as a {@code Consumer<SJSocket>}) would create or act on sessions no variable tracks.
         * SJ's own functional interfaces (session-thread bodies) are checked by their own rules.
         */
        private void untrackedSockets(com.sun.source.tree.MemberReferenceTree reference, TypeMirror functionalType,
                ExecutableElement functional) {
            String returning = referencedMethodReturningSocket(reference);
            if (returning != null) {
                // Whatever the function type does with the result (drops it for a Runnable, widens it to
                // Object or AutoCloseable): the referenced method starts or hands out a session.
                reporter.error(reference, Diagnostic.UNTYPED_SESSION, "the method reference " + reference,
                        "it returns a session socket through " + returning + ", which no variable tracks (start "
                                + "sessions with SJSocket s = service.request() or server.accept())");
                return;
            }
            if (!(functionalType instanceof javax.lang.model.type.DeclaredType declared)
                    || environment.getElementUtils().getPackageOf(declared.asElement()).getQualifiedName()
                            .contentEquals("org.sessionj.api")) {
                return;
            }
            javax.lang.model.type.ExecutableType function = (javax.lang.model.type.ExecutableType)
                    environment.getTypeUtils().asMemberOf(declared, functional);
            String owner = declared.asElement().getSimpleName() + "." + functional.getSimpleName();
            if (api.isSocket(function.getReturnType())) {
                reporter.error(reference, Diagnostic.UNTYPED_SESSION, "the method reference " + reference,
                        "it returns a session socket through " + owner + ", which no variable tracks (start "
                                + "sessions with SJSocket s = service.request() or server.accept())");
                return;
            }
            List<? extends TypeMirror> parameters = function.getParameterTypes();
            for (int i = 0; i < parameters.size(); i++) {
                if (api.isSocket(parameters.get(i))
                        && !sessionParameters.of(functional.getParameters().get(i), null, null).annotated()) {
                    reporter.error(reference, Diagnostic.UNTYPED_SESSION, "the method reference " + reference,
                            "it takes a session socket through parameter " + (i + 1) + " of " + owner
                                    + ", which has no @Session type, so nothing checks what is done with it");
                    return;
                }
            }
        }

        /**
         * The referenced method, as {@code Owner.name}, if it returns a session socket as seen from the
         * reference's qualifier ({@code svc::request}, {@code sockets::get} on a {@code List<SJSocket>});
         * otherwise null.
         */
        private String referencedMethodReturningSocket(com.sun.source.tree.MemberReferenceTree reference) {
            if (reference.getMode() != com.sun.source.tree.MemberReferenceTree.ReferenceMode.INVOKE
                    || !(trees.getElement(getCurrentPath()) instanceof ExecutableElement method)) {
                return null;
            }
            TypeMirror result = method.getReturnType();
            TypeMirror qualifier = trees.getTypeMirror(new TreePath(getCurrentPath(), reference.getQualifierExpression()));
            if (qualifier instanceof javax.lang.model.type.DeclaredType owner) {
                try {
                    result = ((javax.lang.model.type.ExecutableType) environment.getTypeUtils().asMemberOf(owner, method))
                            .getReturnType();
                } catch (IllegalArgumentException notAMember) {
                    // keep the declared return type
                }
            }
            return api.isSocket(result)
                    ? method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName() : null;
        }

        /** A record's {@code @NoAlias} components must not be handed out by accessors javac writes. */
        @Override
        public Void visitClass(ClassTree tree, Void unused) {
            Element declared = trees.getElement(getCurrentPath()); // asked once for both questions
            if (declared != null && suppresses(declared)) {
                return null;
            }
            if (declared instanceof TypeElement type) {
                localProtocol(type, tree);
                contracts.recordComponents(type, tree, reporter);
                overrides.checkInherited(type, tree, reporter);
            }
            return super.visitClass(tree, unused);
        }

        /**
         * Invariant: <em>every protocol the checker types sessions with has a descriptor the runtime
         * finds</em>. A local interface (declared in a method body) is never a member the processor
         * visits, so no descriptor is written for it, and the runtime, which resolves a protocol's
         * references ({@code ^(C)}, {@code @(C)}) through the binary names of the enclosing types,
         * cannot name it: a local {@code @Protocol} is SJ006, like one on a class.
         */
        private void localProtocol(TypeElement type, ClassTree tree) {
            if (type.getNestingKind() == javax.lang.model.element.NestingKind.LOCAL && ProtocolRegistry.isProtocol(type)) {
                Element owner = type.getEnclosingElement();
                while (owner != null && !(owner instanceof TypeElement)) {
                    owner = owner.getEnclosingElement();
                }
                reporter.error(tree, Diagnostic.PROTOCOL_NOT_INTERFACE, type.getSimpleName(), "local "
                        + type.getKind().toString().toLowerCase(java.util.Locale.ROOT) + ", which the runtime cannot find by name (no protocol descriptor is written "
                                + "for it); declare it as a member of '"
                                + (owner == null ? "the enclosing class" : owner.getSimpleName()) + "'");
            }
        }

        @Override
        public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
            ExecutableElement functional = contracts.functionalMethod(trees.getTypeMirror(getCurrentPath()));
            if (functional != null && relevance.mayTouchSessions(getCurrentPath())) {
                List<VariableElement> parameters = new java.util.ArrayList<>();
                for (VariableTree parameter : lambda.getParameters()) {
                    if (trees.getElement(new TreePath(getCurrentPath(), parameter)) instanceof VariableElement v) {
                        parameters.add(v);
                    }
                }
                if (!overrides.lambdaEndsLent(getCurrentPath(), parameters, functional, reporter)) {
                    overrides.throwsUndeclared(null, getCurrentPath(), functional, lambda, "the lambda", reporter);
                }
            }
            analyse(getCurrentPath());
            return super.visitLambdaExpression(lambda, unused);
        }

        /** A field initializer runs once per construction (or class initialisation): checked as a body. */
        @Override
        public Void visitVariable(VariableTree variable, Void unused) {
            sessionTarget(variable);
            boolean field = getCurrentPath().getParentPath().getLeaf() instanceof ClassTree;
            Element declared = trees.getElement(getCurrentPath()); // asked once for both questions
            if (field && declared != null && suppresses(declared)) {
                return null;
            }
            scopes.variable(getCurrentPath(), variable, declared, reporter);
            if (variable.getInitializer() != null && field) {
                analyse(getCurrentPath());
            }
            return super.visitVariable(variable, unused);
        }

        /**
         * {@code @Session} on a parameter (or a record component, whose canonical constructor parameter
         * gets it) whose type is not a session socket, service or server socket: SJ007 at the annotation.
         */
        private void sessionTarget(VariableTree variable) {
            for (AnnotationTree annotation : variable.getModifiers().getAnnotations()) {
                TreePath annotationPath = new TreePath(new TreePath(getCurrentPath(), variable.getModifiers()),
                        annotation);
                TypeMirror annotationType = trees.getTypeMirror(annotationPath);
                if (annotationType == null || !(annotationType instanceof DeclaredType declared)
                        || !declared.asElement().equals(api.sessionAnnotation())) {
                    continue;
                }
                TypeMirror type = variable.getType() == null ? null
                        : trees.getTypeMirror(new TreePath(getCurrentPath(), variable.getType()));
                if (type == null && trees.getElement(getCurrentPath()) != null) {
                    type = trees.getElement(getCurrentPath()).asType();
                }
                if (type == null || type.getKind() == TypeKind.ERROR || api.isSocket(type) || api.isService(type)
                        || api.isServerSocket(type)) {
                    return;
                }
                reporter.error(annotation, Diagnostic.BAD_SESSION_ANNOTATION, variable.getName(), "its type "
                        + simpleText(type) + " is not a session socket (SJSocket or a type variable bounded by it),"
                        + " a service (SJService) or a server socket (SJServerSocket), the only types @Session gives"
                        + " a protocol to");
                return;
            }
        }

        /** A {@code @NoAlias} on a type that no rule checks (a type argument, a cast, …): SJ047. */
        @Override
        public Void visitAnnotation(AnnotationTree annotation, Void unused) {
            noAliasPlacement.check(getCurrentPath(), reporter);
            return super.visitAnnotation(annotation, unused);
        }

        @Override
        public Void visitBlock(BlockTree block, Void unused) {
            if (getCurrentPath().getParentPath().getLeaf() instanceof ClassTree) {
                analyse(getCurrentPath());
            }
            return super.visitBlock(block, unused);
        }

        /**
         * Checks one body, unless the pre-scan ({@link SessionRelevance}) shows that it cannot touch a
         * session. The checker must never throw: a body nested beyond what it follows, or deep enough to
         * exhaust the stack, is reported (SJ008) and not checked.
         */
        private void analyse(TreePath body) {
            TreePath saved = reporter.enterBody(body);
            try {
                if (!relevance.mayTouchSessions(body)) {
                    // a caller's catch may take a callee's unchecked exit and go on (adv12 A6, adv19 A1), or a
                    // call let it out to this body's callers (adv20 A10)
                    calls(body);
                    return;
                }
                check(body);
            } catch (FlowScanner.TooDeep | StackOverflowError e) {
                reporter.error(body.getLeaf(), Diagnostic.TOO_DEEP, "this body", e instanceof StackOverflowError
                        ? "nests deeper than the thread's stack allows" : "nests statements more than "
                                + FlowScanner.MAX_STATEMENT_NESTING + " levels deep");
            } finally {
                reporter.exitBody(saved);
            }
        }

        private void check(TreePath body) {
            MethodChecker checker = newChecker(reporter, capturedEndpoints);
            checker.spawnedTypes = spawnedTypes;
            checker.analyse(body);
        }
    }
}
