package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;

/**
 * Which {@code @Session} methods end the session they are lent: they close their socket parameter
 * (explicitly, as a try-with-resources resource, or by adding it to an {@code SJScope}), delegate it ({@code t.send(s)}, {@code t.pass(s)}),
 * hand it to a session thread ({@code SJ.spawn}) or a selector ({@code register}), or lend it to a
 * method that does. The caller's socket is then gone after the call (a later action
 * is SJ025 there), whatever the method's {@code @Session} type leaves over. Found from the method's
 * source when it is compiled in the same javac run; cached for the compilation, and settled for every
 * member method of a class when javac has analysed that class, before it lowers it and the body is
 * rewritten ({@link SessionChecker}): the answer does not depend on which file javac compiles first. For a
 * method known only from a class file, the answer its own compilation recorded is read from the class
 * path ({@link EndingsResource}); a class compiled without the processor recorded none, and its methods
 * are taken not to end their parameter (docs/diagnostics.md, "What is not checked").
 */
final class LentSessions {
    private final SessionApi api;
    private final Trees trees;
    /** The settled answers (null: does not end it). */
    private final Map<VariableElement, String> ends = new HashMap<>();
    /**
     * The parameters whose method hands the session over to another owner that outlives the call: a
     * session thread ({@code SJ.spawn}) or a selector ({@code register}), directly or through a method
     * it lends the socket to. The caller must not close it afterwards, not even as a try-with-resources
     * resource (SJ055).
     */
    private final java.util.Set<VariableElement> handsOver = new java.util.HashSet<>();
    /**
     * The methods of each top-level class and its member classes compiled in this run, by element,
     * found in one pass over the class's members the first time one of them is asked for
     * ({@code Trees.getPath(method)} walks the whole file each time), or given by the checker's walk of
     * those members ({@link #members}). Elements and trees belong to one
     * compilation, as does this cache.
     */
    private final Map<Element, Map<Element, TreePath>> methodsByClass = new HashMap<>();

    /** The answers of methods compiled earlier, read from the class path. */
    private final EndingsResource recorded;

    LentSessions(SessionApi api, Trees trees, EndingsResource recorded) {
        this.api = api;
        this.trees = trees;
        this.recorded = recorded;
    }

    /** Told of every method whose endings are read, and of the lends an answer depends on (SJ009). */
    private CheckedUsersIndex reads;

    void recordReadsIn(CheckedUsersIndex index) {
        this.reads = index;
    }

    /**
     * The class being checked reads the contracts of {@code method} (its {@code @Session} and
     * {@code @NoAlias} parameters and result, its endings): an override or implementation of it.
     */
    void contractsRead(ExecutableElement method) {
        if (reads != null) {
            reads.member(method);
        }
    }

    /** How {@code method} ends its socket parameter {@code parameter} ("closes it"), or null if it does not. */
    String ending(ExecutableElement method, VariableElement parameter) {
        if (reads != null) {
            reads.member(method);
        }
        if (ends.containsKey(parameter)) {
            return ends.get(parameter);
        }
        Integer open = inProgress.get(parameter);
        if (open != null) {
            // Recursion: this answer is still being computed. Nothing new ends it through this path (the
            // property is "some path ends it"), but an answer that relied on it is not final below it.
            lowestRead = Math.min(lowestRead, open);
            return null;
        }
        int depth = inProgress.size();
        inProgress.put(parameter, depth);
        int outerLowest = lowestRead;
        lowestRead = Integer.MAX_VALUE;
        boolean[] handedOver = new boolean[1];
        TreePath path = pathOf(method);
        String how = null;
        if (path != null && path.getLeaf() instanceof MethodTree tree && tree.getBody() != null) {
            how = scan(path, parameter, handedOver);
        } else if (path == null) {
            String[] line = recorded.read(method, parameter);
            if (line != null) {
                how = line[0];
                handedOver[0] = "1".equals(line[1]);
            }
        }
        inProgress.remove(parameter);
        if (how != null && handedOver[0]) {
            handsOver.add(parameter);
        }
        boolean settled = lowestRead >= depth; // read no answer of a method still open further out
        if (settled) {
            ends.put(parameter, how);
        }
        lowestRead = Math.min(outerLowest, settled ? Integer.MAX_VALUE : lowestRead);
        return how;
    }

    /**
     * The parameters whose answer is being computed, with their depth on the stack of computations.
     * An answer computed while reading an open one further out (mutual recursion: a → b → a) is not
     * cached: it is asked again once the outer one is known (a method may end its parameter only
     * through the other).
     */
    private final Map<VariableElement, Integer> inProgress = new HashMap<>();
    /** The lowest depth of an open answer the current computation has read. */
    private int lowestRead = Integer.MAX_VALUE;

    /** How a lambda's body ends its socket parameter {@code parameter}, or null (not cached: asked once per lambda). */
    String lambdaEnding(TreePath lambda, VariableElement parameter) {
        return scan(lambda, parameter, new boolean[1]);
    }

    /** Whether {@code method} hands its parameter over to a session thread or a selector (see {@link #handsOver}). */
    boolean handsOver(ExecutableElement method, VariableElement parameter) {
        return ending(method, parameter) != null && handsOver.contains(parameter);
    }

    /**
     * A {@code throw} or {@code assert} of {@code method}'s own body that may let an unchecked exception
     * out of it (adv15 A18: the exception leaves with the session the method was lent half done, and its
     * caller's call is a throw point for it): the first such statement, or null when there is none, or
     * the method is known only from a class file (not counted: docs/diagnostics.md, "What is not
     * checked"). A throw of a checked type is not one (the method declares it); a statement inside a
     * lambda or a local class is not the method's, and one inside a try block with a catch that takes it
     * does not leave. A call that lends a socket to a method with such a statement (found the same way) counts
     * as that statement (adv17 A2: the fact is composed over the run's methods; a method that recursion
     * reaches again while its answer is open counts nothing new through that call).
     */
    TreePath ownUncheckedThrow(ExecutableElement method, javax.lang.model.util.Types types,
            javax.lang.model.util.Elements elements) {
        if (ownThrows.containsKey(method)) {
            return ownThrows.get(method); // null too while it is computed (recursion: nothing new through that path)
        }
        ownThrows.put(method, null);
        TreePath path = pathOf(method);
        TreePath found = null;
        if (path != null && path.getLeaf() instanceof MethodTree tree && tree.getBody() != null) {
            found = firstUncheckedThrow(new TreePath(path, tree.getBody()), tree, types, elements);
        }
        ownThrows.put(method, found);
        return found;
    }

    /**
     * {@link #ownUncheckedThrow} for a lambda's body (adv17 A2, dispatch: a lambda implementing a method
     * that takes a session is a body a call of that method runs). Not cached: asked once per lambda.
     */
    TreePath lambdaUncheckedThrow(TreePath lambda, javax.lang.model.util.Types types,
            javax.lang.model.util.Elements elements) {
        com.sun.source.tree.LambdaExpressionTree tree = (com.sun.source.tree.LambdaExpressionTree) lambda.getLeaf();
        return firstUncheckedThrow(new TreePath(lambda, tree.getBody()), tree, types, elements);
    }

    /** The exception {@code own}, an answer of {@link #ownUncheckedThrow}, throws: its expression's type, or AssertionError. */
    javax.lang.model.type.TypeMirror thrownBy(TreePath own, javax.lang.model.util.Elements elements) {
        return own.getLeaf() instanceof com.sun.source.tree.ThrowTree statement
                ? trees.getTypeMirror(new TreePath(own, statement.getExpression()))
                : elements.getTypeElement("java.lang.AssertionError").asType();
    }

    /** The first unchecked throw of the body {@code bodyPath} of {@code tree} (a method or a lambda): see {@link #ownUncheckedThrow}. */
    private TreePath firstUncheckedThrow(TreePath bodyPath, Tree tree, javax.lang.model.util.Types types,
            javax.lang.model.util.Elements elements) {
        TreePath[] found = new TreePath[1];
        {
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitThrow(com.sun.source.tree.ThrowTree statement, Void unused) {
                    javax.lang.model.type.TypeMirror type = trees.getTypeMirror(
                            new TreePath(getCurrentPath(), statement.getExpression()));
                    if (found[0] == null && type != null && unchecked(type, types, elements)
                            && !caughtInside(type)) {
                        found[0] = getCurrentPath();
                    }
                    return super.visitThrow(statement, unused);
                }

                /**
                 * adv17 A2: a call that lends a socket on to a method that may throw with it half done throws
                 * here too (the composed fact: "extract method" on a helper keeps its throw counted).
                 */
                @Override
                public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
                    if (found[0] == null && trees.getElement(getCurrentPath()) instanceof ExecutableElement callee) {
                        lendsOn(callee, call.getArguments());
                    }
                    return super.visitMethodInvocation(call, unused);
                }

                @Override
                public Void visitNewClass(com.sun.source.tree.NewClassTree creation, Void unused) {
                    if (found[0] == null && trees.getElement(getCurrentPath()) instanceof ExecutableElement constructor) {
                        lendsOn(api.invokedConstructor(constructor), creation.getArguments());
                    }
                    return super.visitNewClass(creation, unused);
                }

                private void lendsOn(ExecutableElement callee, List<? extends ExpressionTree> arguments) {
                    List<? extends VariableElement> parameters = callee.getParameters();
                    for (int i = 0; i < arguments.size() && i < parameters.size(); i++) {
                        if (api.isSocket(parameters.get(i).asType()) && api.isSocket(trees.getTypeMirror(
                                new TreePath(getCurrentPath(), arguments.get(i))))) {
                            TreePath inner = ownUncheckedThrow(callee, types, elements);
                            javax.lang.model.type.TypeMirror type = inner == null ? null
                                    : inner.getLeaf() instanceof com.sun.source.tree.ThrowTree statement
                                            ? trees.getTypeMirror(new TreePath(inner, statement.getExpression()))
                                            : elements.getTypeElement("java.lang.AssertionError").asType();
                            if (type != null && !caughtInside(type)) {
                                found[0] = inner;
                                return;
                            }
                        }
                    }
                }

                @Override
                public Void visitAssert(com.sun.source.tree.AssertTree statement, Void unused) {
                    if (found[0] == null && !caughtInside(elements.getTypeElement("java.lang.AssertionError").asType())) {
                        found[0] = getCurrentPath();
                    }
                    return super.visitAssert(statement, unused);
                }

                /** Whether a try block around the current statement, inside the method, has a catch of {@code type}. */
                private boolean caughtInside(javax.lang.model.type.TypeMirror type) {
                    Tree child = getCurrentPath().getLeaf();
                    for (TreePath up = getCurrentPath().getParentPath(); up != null && up.getLeaf() != tree;
                            up = up.getParentPath()) {
                        if (up.getLeaf() instanceof TryTree statement && statement.getBlock() == child) {
                            for (com.sun.source.tree.CatchTree clause : statement.getCatches()) {
                                javax.lang.model.type.TypeMirror caught = trees.getTypeMirror(
                                        new TreePath(new TreePath(up, clause), clause.getParameter()));
                                if (caught != null && takes(caught, type, types)) {
                                    return true;
                                }
                            }
                        }
                        child = up.getLeaf();
                    }
                    return false;
                }

                @Override
                public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree lambda, Void unused) {
                    return null; // another body
                }

                @Override
                public Void visitClass(com.sun.source.tree.ClassTree local, Void unused) {
                    return null; // another body
                }
            }.scan(bodyPath, null);
        }
        return found[0];
    }

    /** The line {@code path}'s leaf starts on, in its compilation unit. */
    long line(TreePath path) {
        return path.getCompilationUnit().getLineMap().getLineNumber(
                trees.getSourcePositions().getStartPosition(path.getCompilationUnit(), path.getLeaf()));
    }

    /** The compilation's trees (for the rules that read what this class finds). */
    Trees trees() {
        return trees;
    }

    /** {@link #ownUncheckedThrow}'s answers (null: none). */
    private final Map<ExecutableElement, TreePath> ownThrows = new HashMap<>();

    /** Whether {@code type} is a RuntimeException or an Error. */
    private static boolean unchecked(javax.lang.model.type.TypeMirror type, javax.lang.model.util.Types types,
            javax.lang.model.util.Elements elements) {
        return types.isSubtype(type, elements.getTypeElement("java.lang.RuntimeException").asType())
                || types.isSubtype(type, elements.getTypeElement("java.lang.Error").asType());
    }

    /** Whether a catch of {@code caught} (each alternative of a multi-catch) takes a {@code thrown}. */
    private static boolean takes(javax.lang.model.type.TypeMirror caught, javax.lang.model.type.TypeMirror thrown,
            javax.lang.model.util.Types types) {
        if (caught instanceof javax.lang.model.type.UnionType union) {
            for (javax.lang.model.type.TypeMirror alternative : union.getAlternatives()) {
                if (types.isSubtype(types.erasure(thrown), types.erasure(alternative))) {
                    return true;
                }
            }
            return false;
        }
        return types.isSubtype(types.erasure(thrown), types.erasure(caught));
    }

    /**
     * The methods of {@code top}, a top-level class, and of its member classes, by element, as the walk of
     * its members before its checks found them ({@link SessionChecker}): the same as {@link #pathOf} would
     * find in a walk of its own, which this spares (kept if it has run already).
     */
    void members(Element top, Map<Element, TreePath> methods) {
        if (!methodsByClass.containsKey(top)) {
            methodsByClass.put(top, methods);
        }
    }

    /** The path of {@code method}'s declaration, or null when it is not compiled from source in this run. */
    private TreePath pathOf(ExecutableElement method) {
        Element top = method;
        while (top.getEnclosingElement() != null && top.getEnclosingElement().getKind() != ElementKind.PACKAGE) {
            top = top.getEnclosingElement();
        }
        Map<Element, TreePath> members = methodsByClass.get(top);
        if (members == null) { // not computeIfAbsent with a lambda: each lambda is linked afresh per compilation
            Map<Element, TreePath> methods = new HashMap<>();
            TreePath classPath = trees.getPath(top);
            if (classPath != null) {
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitMethod(MethodTree tree, Void unused) {
                        Element element = trees.getElement(getCurrentPath());
                        if (element != null) {
                            methods.put(element, getCurrentPath());
                        }
                        return null; // member classes only: a local class's method is looked up on its own
                    }

                    @Override
                    public Void visitVariable(com.sun.source.tree.VariableTree tree, Void unused) {
                        return null;
                    }

                    @Override
                    public Void visitBlock(com.sun.source.tree.BlockTree tree, Void unused) {
                        return null;
                    }
                }.scan(classPath, null);
            }
            members = methods;
            methodsByClass.put(top, members);
        }
        TreePath path = members.get(method);
        return path != null ? path : trees.getPath(method); // a method of a local or anonymous class
    }

    private String scan(TreePath methodPath, VariableElement parameter, boolean[] handedOver) {
        String[] found = new String[1];
        Element scanned = methodPath.getLeaf() instanceof MethodTree ? trees.getElement(methodPath) : null;
        new TreePathScanner<Void, Void>() {
            private boolean names(ExpressionTree expression) {
                ExpressionTree stripped = FlowScanner.strip(expression);
                return stripped instanceof IdentifierTree
                        && parameter.equals(trees.getElement(new TreePath(getCurrentPath(), stripped)));
            }

            private boolean namesAny(List<? extends ExpressionTree> arguments) {
                for (ExpressionTree argument : arguments) {
                    if (names(argument)) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public Void visitTry(TryTree tree, Void unused) {
                for (Tree resource : tree.getResources()) {
                    if (resource instanceof ExpressionTree expression && names(expression)) {
                        found[0] = "closes it (try-with-resources)";
                    }
                }
                return super.visitTry(tree, unused);
            }

            @Override
            public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
                if (found[0] == null && trees.getElement(getCurrentPath()) instanceof ExecutableElement callee) {
                    String operation = callee.getSimpleName().toString();
                    boolean socketMethod = api.isSocketClass(callee.getEnclosingElement());
                    if (socketMethod && operation.equals("close") && call.getMethodSelect() instanceof MemberSelectTree
                            select && names(select.getExpression())) {
                        found[0] = "closes it";
                    } else if (socketMethod && (operation.equals("send") || operation.equals("pass"))
                            && names(call.getArguments().get(0))) {
                        found[0] = "delegates it";
                    } else if (api.isMulticastClass(callee.getEnclosingElement()) && operation.equals("spawn")
                            && namesAny(call.getArguments())) {
                        found[0] = "hands it to a session thread (SJ.spawn)";
                        handedOver[0] = true;
                    } else if (api.isScopeClass(callee.getEnclosingElement()) && operation.equals("add")
                            && namesAny(call.getArguments())) {
                        found[0] = "adds it to a scope (SJScope), which closes it";
                    } else if (api.isSelectorClass(callee.getEnclosingElement()) && operation.equals("register")
                            && namesAny(call.getArguments())) {
                        found[0] = "registers it with a selector";
                        handedOver[0] = true;
                    } else {
                        lentOn(callee, call.getArguments());
                    }
                }
                return super.visitMethodInvocation(call, unused);
            }

            private void lentOn(ExecutableElement callee, List<? extends ExpressionTree> arguments) {
                List<? extends VariableElement> parameters = callee.getParameters();
                for (int i = 0; i < arguments.size() && i < parameters.size(); i++) {
                    if (names(arguments.get(i)) && api.isSocket(parameters.get(i).asType())) {
                        if (reads != null && scanned instanceof ExecutableElement method) {
                            reads.lends(method, callee); // this answer is only as fresh as the callee's
                        }
                        String inner = ending(callee, parameters.get(i));
                        if (inner != null) {
                            found[0] = "lends it to '" + (callee.getKind() == ElementKind.CONSTRUCTOR
                                    ? callee.getEnclosingElement().getSimpleName() : callee.getSimpleName())
                                    + "', which " + inner;
                            handedOver[0] = handsOver.contains(parameters.get(i));
                        }
                    }
                }
            }

            /** {@code new C(s)}: a constructor is lent the socket like a method ({@code this(s)} is a call). */
            @Override
            public Void visitNewClass(com.sun.source.tree.NewClassTree creation, Void unused) {
                if (found[0] == null && trees.getElement(getCurrentPath()) instanceof ExecutableElement constructor) {
                    lentOn(api.invokedConstructor(constructor), creation.getArguments());
                }
                return super.visitNewClass(creation, unused);
            }

            @Override
            public Void visitClass(com.sun.source.tree.ClassTree tree, Void unused) {
                return null; // a local or anonymous class cannot use the parameter (SJ032)
            }
        }.scan(methodPath, null);
        return found[0];
    }
}
