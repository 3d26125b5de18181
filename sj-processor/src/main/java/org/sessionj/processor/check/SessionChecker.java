package org.sessionj.processor.check;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;

/**
 * Runs the session checks on every class once javac has attributed and flow-analysed it
 * ({@link TaskEvent.Kind#ANALYZE}): each method, initializer and lambda body is one unit of analysis.
 */
public final class SessionChecker implements TaskListener {
    private final SessionApi api;
    private final SessionParameters sessionParameters;
    private final MessageTypes messages;
    private final LentSessions lent;
    private final OverrideRules overrides;
    private final ImplementationContracts contracts;
    private final SessionRelevance relevance;
    private final Trees trees;
    private final ProtocolRegistry registry;
    private final ProcessingEnvironment environment;
    private final Set<ClassTree> done = Collections.newSetFromMap(new IdentityHashMap<>());

    public SessionChecker(ProcessingEnvironment environment, Trees trees, ProtocolRegistry registry) {
        this.environment = environment;
        this.trees = trees;
        this.registry = registry;
        this.api = new SessionApi(environment.getElementUtils(), environment.getTypeUtils());
        this.sessionParameters = new SessionParameters(api, registry);
        this.messages = new MessageTypes(environment.getTypeUtils(), trees, registry);
        this.lent = new LentSessions(api, trees);
        this.contracts = new ImplementationContracts(environment.getElementUtils(), trees, api, sessionParameters);
        this.relevance = new SessionRelevance(trees, contracts);
        this.overrides = new OverrideRules(api, sessionParameters, environment.getElementUtils(),
                environment.getTypeUtils());
    }

    @Override
    public void finished(TaskEvent event) {
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
        Reporter reporter = new Reporter(trees, unit);
        new UnitWalker(reporter).scan(path, null);
    }

    /** Finds every body to analyse: methods, initializer blocks and lambdas, at any nesting. */
    private final class UnitWalker extends TreePathScanner<Void, Void> {
        private final Reporter reporter;
        private final Map<Element, VarState> capturedEndpoints = new HashMap<>();

        UnitWalker(Reporter reporter) {
            this.reporter = reporter;
        }

        @Override
        public Void visitMethod(MethodTree method, Void unused) {
            // Not the members javac writes itself (a record's implicit constructor and accessors).
            if (!implicit(getCurrentPath())
                    && trees.getElement(getCurrentPath()) instanceof javax.lang.model.element.ExecutableElement element) {
                overrides.check(element, method, reporter);
            }
            if (method.getBody() != null && !implicit(getCurrentPath())) {
                analyse(getCurrentPath());
            }
            return super.visitMethod(method, unused);
        }

        /** A record's {@code @NoAlias} components must not be handed out by accessors javac writes. */
        @Override
        public Void visitClass(ClassTree tree, Void unused) {
            if (trees.getElement(getCurrentPath()) instanceof TypeElement type) {
                contracts.recordComponents(type, tree, reporter);
            }
            return super.visitClass(tree, unused);
        }

        @Override
        public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
            analyse(getCurrentPath());
            return super.visitLambdaExpression(lambda, unused);
        }

        /** A field initializer runs once per construction (or class initialisation): checked as a body. */
        @Override
        public Void visitVariable(VariableTree variable, Void unused) {
            if (variable.getInitializer() != null && getCurrentPath().getParentPath().getLeaf() instanceof ClassTree) {
                analyse(getCurrentPath());
            }
            return super.visitVariable(variable, unused);
        }

        @Override
        public Void visitBlock(BlockTree block, Void unused) {
            if (getCurrentPath().getParentPath().getLeaf() instanceof ClassTree) {
                analyse(getCurrentPath());
            }
            return super.visitBlock(block, unused);
        }

        private boolean implicit(TreePath method) {
            Element element = trees.getElement(method);
            return element != null && environment.getElementUtils().getOrigin(element) != Elements.Origin.EXPLICIT;
        }

        /**
         * Checks one body, unless the pre-scan ({@link SessionRelevance}) shows that it cannot touch a
         * session. The checker must never throw: a body nested beyond what it follows, or deep enough to
         * exhaust the stack, is reported (SJ008) and not checked.
         */
        private void analyse(TreePath body) {
            try {
                if (!relevance.mayTouchSessions(body)) {
                    return;
                }
                check(body);
            } catch (FlowScanner.TooDeep | StackOverflowError e) {
                reporter.error(body.getLeaf(), Diagnostic.TOO_DEEP, "this body", e instanceof StackOverflowError
                        ? "nests deeper than the thread's stack allows" : "nests statements more than "
                                + FlowScanner.MAX_STATEMENT_NESTING + " levels deep");
            }
        }

        private void check(TreePath body) {
            new MethodChecker(environment, trees, api, registry, reporter, capturedEndpoints, sessionParameters,
                    messages, lent, contracts).analyse(body);
        }
    }
}
