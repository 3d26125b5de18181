package org.sessionj.processor.check;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.type.TypeMirror;

/**
 * SJ024 across methods (adv12 A6, the caller's catch): an unchecked exception that leaves a method while a
 * plain local session of that method is live and incomplete abandons the session; that is the caller's
 * affair ({@link LiveSessionExits}), and it matters where a caller takes the exception and goes on — the
 * program then outlives the session it abandoned, and the peer waits. This is the per-compilation fact
 * "an unchecked exception may leave method m with a plain local session live" ({@link Exit}, found by
 * m's own check), and the calls of each method with the handlers of the caller around them
 * ({@link Call}, recorded by the caller's check). Whichever is found second meets the other: a call
 * whose caller takes the exception and goes on (the same "swallow and go on" handlers as inside one
 * method: {@link CatchClauses#swallower}) is SJ024 at the call; one the exception leaves the caller
 * by makes the caller an exit of the same session in turn. The answer does not depend on which class javac
 * checks first; a report found after the caller's class was checked is made at the call's recorded place.
 *
 * <p>A body the checker does not read (it can touch no session: {@link SessionRelevance}) has its try
 * statements read for this ({@link #callsInTries}): its catch may take the exception and go on, but a call
 * outside its try statements is not recorded, so the exception is not followed on to its callers. Not
 * followed either (docs/diagnostics.md, "What is not checked"): out of a lambda's or initializer's body
 * (the exception leaves into the code that runs it), nor into a method known only from a class file. An
 * exit of a method that implements or overrides another is an exit of that one too (adv19 A2): a call
 * through the interface, the abstract class or the superclass may run this body.
 */
final class UncheckedExits {
    /**
     * What may leave a method: the session {@code session} (its variable's name) of method {@code owner}
     * with {@code remains} left, when {@code what} throws ("the call of 'helper' on line 7 throws");
     * {@code through}: the callers it has left since ("" at first, then " and then 'mid' (through its call on line 12)");
     * {@code thrown}: the types that leave.
     */
    record Exit(String session, String owner, String remains, String what, String through, List<TypeMirror> thrown,
            boolean jdkFailures) {
        /**
         * An exit of {@code thrown}; {@code jdkFailures}: also the JDK's unchecked failures that its calls do
         * not declare (adv18 A3: {@code LocalDate.parse}'s DateTimeParseException), which a caller's catch takes
         * only where it names one as expected ({@link CatchClauses#expectedFailures}), as inside one method.
         */
        Exit {
            thrown = List.copyOf(thrown);
        }

        /** An exit of {@code thrown} only. */
        Exit(String session, String owner, String remains, String what, String through, List<TypeMirror> thrown) {
            this(session, owner, remains, what, through, thrown, false);
        }
    }

    /**
     * A call of a method of the program, by {@code caller} (null: a lambda's or initializer's body), at
     * {@code at} on {@code line} of {@code unit}, inside {@code handlers} (innermost first): what the
     * caller's try statements around it do with an exception.
     */
    record Call(ExecutableElement caller, Tree at, CompilationUnitTree unit, long line, List<Handlers> handlers) {
    }

    /** The catch clauses (none while a catch block is read) and the finally block that can end with a jump (or null) of one try statement. */
    record Handlers(List<CatchClauses.Clause> clauses, CatchClauses.Clause jumpingFinally) {
    }

    private final Trees trees;
    private final javax.lang.model.util.Elements elements;
    private final javax.lang.model.util.Types types;
    /** The first exit found for each method. */
    private final Map<ExecutableElement, Exit> exits = new HashMap<>();
    /** The recorded calls of each method. */
    private final Map<ExecutableElement, List<Call>> calls = new HashMap<>();
    /** The calls reported at (once each, also when a method's exit is replaced: see {@link #exit}). */
    private final Set<Tree> reportedCalls = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The call trees recorded (a call read twice, as a finally block is, counts once). */
    private final Set<Tree> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    UncheckedExits(Trees trees, javax.lang.model.util.Elements elements, javax.lang.model.util.Types types) {
        this.trees = trees;
        this.elements = elements;
        this.types = types;
    }

    /** {@code method} may let {@code exit} out (its own check found it, or a call it makes does). */
    void exit(ExecutableElement method, Exit exit, CatchClauses handlers) {
        Exit first = method == null ? null : exits.get(method);
        if (method == null || first != null && !(first.thrown().isEmpty() && !exit.thrown().isEmpty())) {
            return; // one exit per method, but one of the JDK's failures only gives way to one of any exception
        }
        exits.put(method, exit);
        for (Call call : new ArrayList<>(calls.getOrDefault(method, List.of()))) {
            meet(call, exit, handlers);
        }
        // adv19 A2: a call of a method this one implements or overrides (through an interface, an abstract
        // class, a superclass) may run this body: the exit comes out of those calls too
        for (ExecutableElement overridden : overridden(method)) {
            String how = overridden.getModifiers().contains(javax.lang.model.element.Modifier.ABSTRACT)
                    ? "implements" : "overrides";
            exit(overridden, new Exit(exit.session(), exit.owner(), exit.remains(), exit.what(), exit.through()
                    + " (as '" + overridden.getEnclosingElement().getSimpleName() + "." + overridden.getSimpleName()
                    + "', which it " + how + ")", exit.thrown(), exit.jdkFailures()), handlers);
        }
    }

    /** The methods of the program's supertypes of {@code method}'s class that {@code method} overrides. */
    private List<ExecutableElement> overridden(ExecutableElement method) {
        List<ExecutableElement> found = new ArrayList<>();
        if (method.getKind() != javax.lang.model.element.ElementKind.METHOD
                || method.getModifiers().contains(javax.lang.model.element.Modifier.STATIC)
                || !(method.getEnclosingElement() instanceof javax.lang.model.element.TypeElement owner)) {
            return found;
        }
        java.util.Deque<TypeMirror> todo = new java.util.ArrayDeque<>(types.directSupertypes(owner.asType()));
        Set<javax.lang.model.element.Element> visited = new java.util.HashSet<>();
        while (!todo.isEmpty()) {
            TypeMirror next = todo.pop();
            if (!(types.asElement(next) instanceof javax.lang.model.element.TypeElement type) || !visited.add(type)) {
                continue;
            }
            todo.addAll(types.directSupertypes(next));
            if (elements.getModuleOf(type) != null && elements.getModuleOf(type).getQualifiedName().toString().startsWith("java.")) {
                continue; // a JDK method: its calls are not recorded
            }
            for (ExecutableElement candidate : javax.lang.model.util.ElementFilter.methodsIn(type.getEnclosedElements())) {
                if (candidate.getSimpleName().equals(method.getSimpleName()) && elements.overrides(method, candidate, owner)) {
                    found.add(candidate);
                }
            }
        }
        return found;
    }

    /** {@code call} of {@code callee} is read (once). */
    void call(ExecutableElement callee, Call call, CatchClauses handlers) {
        if (!seen.add(call.at())) {
            return;
        }
        List<Call> of = calls.get(callee);
        if (of == null) { // not computeIfAbsent with a lambda: see NoPatternSwitchTest
            of = new ArrayList<>();
            calls.put(callee, of);
        }
        of.add(call);
        Exit exit = exits.get(callee);
        if (exit != null) {
            meet(call, exit, handlers);
        }
    }

    /**
     * Whether {@code body} has a try statement with a catch or a finally block (a cheap walk, no paths): a
     * class's, in any of its members (nested classes too); a body's, outside the classes declared in it.
     */
    static boolean hasHandlers(Tree body) {
        boolean wholeClass = body instanceof com.sun.source.tree.ClassTree;
        Boolean found = new com.sun.source.util.TreeScanner<Boolean, Void>() {
            @Override
            public Boolean visitTry(TryTree tree, Void unused) {
                return !tree.getCatches().isEmpty() || tree.getFinallyBlock() != null ? Boolean.TRUE
                        : super.visitTry(tree, unused);
            }

            @Override
            public Boolean visitClass(com.sun.source.tree.ClassTree tree, Void unused) {
                return wholeClass ? super.visitClass(tree, unused) : null; // else another body
            }

            @Override
            public Boolean reduce(Boolean left, Boolean right) {
                return Boolean.TRUE.equals(left) || Boolean.TRUE.equals(right);
            }
        }.scan(body, null);
        return Boolean.TRUE.equals(found);
    }

    /**
     * A method body the checker does not read (it can touch no session: {@link SessionRelevance}) may still
     * take a callee's unchecked exit and go on ({@code try { handleOne(); } catch (RuntimeException e) { … }}):
     * records its calls of the program's methods inside try statements, with their handlers. Calls outside
     * every try statement are not recorded (such a body passes nothing on to its callers: documented).
     * {@code flow} is a checker of the body's class, rooted at {@code body}, for the handlers' types and lines.
     */
    void callsInTries(TreePath body, MethodChecker flow) {
        ExecutableElement caller = body.getLeaf() instanceof com.sun.source.tree.MethodTree
                && trees.getElement(body) instanceof ExecutableElement method ? method
                : body.getLeaf() instanceof com.sun.source.tree.LambdaExpressionTree ? enclosingMethod(body) : null;
        CatchClauses handlers = new CatchClauses(flow);
        java.util.Deque<Handlers> around = new java.util.ArrayDeque<>(handlersAround(body, handlers)); // adv19 A1
        CompilationUnitTree unit = body.getCompilationUnit();
        new com.sun.source.util.TreeScanner<Void, Void>() {
            @Override
            public Void visitTry(TryTree tree, Void unused) {
                CatchClauses.Clause jumping = handlers.jumpingFinally(tree);
                around.push(new Handlers(handlers.of(tree), jumping));
                scan(tree.getResources(), null);
                scan(tree.getBlock(), null);
                around.pop();
                around.push(new Handlers(List.of(), jumping));
                scan(tree.getCatches(), null);
                around.pop();
                scan(tree.getFinallyBlock(), null);
                return null;
            }

            @Override
            public Void visitMethodInvocation(com.sun.source.tree.MethodInvocationTree tree, Void unused) {
                super.visitMethodInvocation(tree, unused);
                record(tree);
                return null;
            }

            @Override
            public Void visitNewClass(com.sun.source.tree.NewClassTree tree, Void unused) {
                super.visitNewClass(tree, unused);
                record(tree);
                return null;
            }

            /** adv18 A6: a method reference runs its method where the functional value is run (here, at the latest). */
            @Override
            public Void visitMemberReference(com.sun.source.tree.MemberReferenceTree tree, Void unused) {
                super.visitMemberReference(tree, unused);
                record(tree);
                return null;
            }

            private void record(Tree call) {
                if (!around.isEmpty() && trees.getElement(new TreePath(body, call)) instanceof ExecutableElement callee
                        && !ThrowSites.inJdk(callee, flow)) {
                    call(callee, new Call(caller, call, unit, flow.line(call), new ArrayList<>(around)), handlers);
                }
            }

            @Override
            public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree tree, Void unused) {
                return null; // another body
            }

            @Override
            public Void visitClass(com.sun.source.tree.ClassTree tree, Void unused) {
                return null; // another body
            }
        }.scan(body.getLeaf() instanceof com.sun.source.tree.LambdaExpressionTree lambda ? lambda.getBody()
                : body.getLeaf() instanceof com.sun.source.tree.MethodTree method ? method.getBody() : body.getLeaf(), null);
    }

    /**
     * adv19 A1: a lambda's body is run by the code it is given to ({@code values.forEach(v -> book(v))}),
     * taken to run where the lambda stands, as a method reference is (adv18 A6): the handlers of the try
     * statements around the lambda (innermost first) up to the method (or initializer) it is in, through
     * the lambdas it is nested in. Empty for any other body.
     */
    static List<Handlers> handlersAround(TreePath body, CatchClauses handlers) {
        List<Handlers> found = new ArrayList<>();
        if (!(body.getLeaf() instanceof com.sun.source.tree.LambdaExpressionTree)) {
            return found;
        }
        Tree child = body.getLeaf();
        for (TreePath up = body.getParentPath(); up != null; up = up.getParentPath()) {
            Tree leaf = up.getLeaf();
            if (leaf instanceof com.sun.source.tree.ClassTree || leaf instanceof com.sun.source.tree.MethodTree) {
                break;
            }
            if (leaf instanceof TryTree tree && child != tree.getFinallyBlock()) {
                CatchClauses.Clause jumping = handlers.jumpingFinally(tree);
                found.add(new Handlers(tree.getCatches().contains(child) ? List.of() : handlers.of(tree), jumping));
            }
            child = leaf;
        }
        return found;
    }

    /** Whether the lambda {@code body} stands in a try statement's block, resources or catches (see {@link #handlersAround}). */
    static boolean insideTry(TreePath body) {
        Tree child = body.getLeaf();
        for (TreePath up = body.getParentPath(); up != null; up = up.getParentPath()) {
            Tree leaf = up.getLeaf();
            if (leaf instanceof com.sun.source.tree.ClassTree || leaf instanceof com.sun.source.tree.MethodTree) {
                return false;
            }
            if (leaf instanceof TryTree tree && child != tree.getFinallyBlock()) {
                return true;
            }
            child = leaf;
        }
        return false;
    }

    /** The method the lambda {@code body} is in (through the lambdas around it), or null (an initializer). */
    ExecutableElement enclosingMethod(TreePath body) {
        for (TreePath up = body.getParentPath(); up != null; up = up.getParentPath()) {
            if (up.getLeaf() instanceof com.sun.source.tree.ClassTree) {
                return null;
            }
            if (up.getLeaf() instanceof com.sun.source.tree.MethodTree) {
                return trees.getElement(up) instanceof ExecutableElement method ? method : null;
            }
        }
        return null;
    }

    /** The call the lambda {@code body} is an argument of ({@code values.forEach(…)}), else the lambda itself. */
    static Tree runBy(TreePath body) {
        TreePath up = body.getParentPath();
        while (up != null && (up.getLeaf() instanceof com.sun.source.tree.ParenthesizedTree
                || up.getLeaf() instanceof com.sun.source.tree.TypeCastTree)) {
            up = up.getParentPath();
        }
        return up != null && (up.getLeaf() instanceof com.sun.source.tree.MethodInvocationTree
                || up.getLeaf() instanceof com.sun.source.tree.NewClassTree) ? up.getLeaf() : body.getLeaf();
    }

    /**
     * adv19 A1: {@code exit} leaves a lambda's body, which runs at {@code call} (the call the lambda is given to,
     * with the handlers around the lambda): it meets them as a callee's exit meets its caller's.
     */
    void lambdaExit(Call call, Exit exit, CatchClauses handlers) {
        meet(call, exit, handlers);
    }

    /** {@code exit} comes out of the callee at {@code call}: follows it through the caller's handlers. */
    private void meet(Call call, Exit exit, CatchClauses handlers) {
        List<TypeMirror> thrown = exit.thrown();
        boolean jdk = exit.jdkFailures();
        for (Handlers around : call.handlers()) {
            List<TypeMirror> onwards = new ArrayList<>();
            List<TypeMirror> taken = thrown;
            if (jdk) { // adv18 A3: a catch that names one as expected takes it
                taken = new ArrayList<>(thrown);
                taken.addAll(handlers.expectedFailures(around.clauses()));
            }
            CatchClauses.Clause swallower = handlers.swallower(taken, around.clauses(), around.jumpingFinally(), onwards);
            if (swallower != null && reportedCalls.add(call.at())) {
                String how = swallower.finallyBlock()
                        ? "the finally block on line " + swallower.line() + " drops it (it can end with a jump) and goes on"
                        : "the catch on line " + swallower.line() + " takes it and goes on";
                trees.printMessage(javax.tools.Diagnostic.Kind.ERROR, Diagnostic.INCOMPLETE_SESSION.format(
                        exit.session(), "if, in '" + exit.owner() + "', " + exit.what() + " an unchecked exception, which "
                                + "leaves '" + exit.owner() + "'" + exit.through() + " and comes out of the call on line "
                                + call.line() + ", where " + how + " (the exception abandons the session: the peer would "
                                + "wait; in '" + exit.owner() + "', declare it in try-with-resources, or close it in a "
                                + "finally block)",
                        exit.remains()), call.at(), call.unit());
                return;
            }
            if (swallower != null) {
                return; // reported already (an exit of any exception met it again)
            }
            thrown = onwards;
            // a catch (RuntimeException e) ends their way, unless it throws what it took on (adv19 A9)
            jdk = jdk && !handlers.endsEveryUnchecked(around.clauses());
            if (thrown.isEmpty() && !jdk) {
                return; // every catch that takes it ends the program (System.exit)
            }
        }
        if (call.caller() != null) {
            exit(call.caller(), new Exit(exit.session(), exit.owner(), exit.remains(), exit.what(), exit.through()
                    + " and then '" + call.caller().getSimpleName() + "' (through its call on line " + call.line() + ")",
                    thrown, jdk), handlers);
        }
    }
}
