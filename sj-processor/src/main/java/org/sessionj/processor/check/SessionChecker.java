package org.sessionj.processor.check;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import javax.lang.model.element.Element;
import org.sessionj.processor.internal.flow.VarState;
import java.util.IdentityHashMap;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.TypeElement;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;

/**
 * Runs the session checks on every class once javac has attributed and flow-analysed it
 * ({@link TaskEvent.Kind#ANALYZE}): each method, initializer and lambda body is one unit of analysis.
 */
public final class SessionChecker implements TaskListener {
    private final SessionApi api;
    private final SessionParameters sessionParameters;
    private final MessageTypes messages;
    private final Trees trees;
    private final ProtocolRegistry registry;
    private final ProcessingEnvironment environment;
    private final Set<ClassTree> done = Collections.newSetFromMap(new IdentityHashMap<>());

    public SessionChecker(ProcessingEnvironment environment, Trees trees, ProtocolRegistry registry) {
        this.environment = environment;
        this.trees = trees;
        this.registry = registry;
        this.api = new SessionApi(environment.getElementUtils());
        this.sessionParameters = new SessionParameters(api, registry);
        this.messages = new MessageTypes(environment.getTypeUtils(), trees, registry);
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
        if (!mentionsSessionApi(unit)) {
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

    /**
     * Whether the compilation unit can use the session API at all: it must name it, by an import or a
     * qualified name, unless it is in one of the API's own packages. Most files of a module do not, and
     * skipping them keeps the processor's cost proportional to the session code.
     */
    private final Map<CompilationUnitTree, Boolean> mentions = new java.util.WeakHashMap<>();

    private boolean mentionsSessionApi(CompilationUnitTree unit) {
        return mentions.computeIfAbsent(unit, u -> {
            if (u.getPackageName() != null && u.getPackageName().toString().startsWith("org.sessionj")) {
                return true;
            }
            try {
                return u.getSourceFile().getCharContent(true).toString().contains("org.sessionj");
            } catch (java.io.IOException e) {
                return true;
            }
        });
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
            if (method.getBody() != null) {
                analyse(getCurrentPath());
            }
            return super.visitMethod(method, unused);
        }

        @Override
        public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
            analyse(getCurrentPath());
            return super.visitLambdaExpression(lambda, unused);
        }

        @Override
        public Void visitBlock(BlockTree block, Void unused) {
            if (getCurrentPath().getParentPath().getLeaf() instanceof ClassTree) {
                analyse(getCurrentPath());
            }
            return super.visitBlock(block, unused);
        }

        private void analyse(TreePath body) {
            new MethodChecker(environment, trees, api, registry, reporter, capturedEndpoints, sessionParameters,
                    messages).analyse(body);
        }
    }
}
