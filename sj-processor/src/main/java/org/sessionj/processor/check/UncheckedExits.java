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
import javax.lang.model.element.Element;
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
 * <p>A body the checker does not read (it can touch no session: {@link SessionRelevance}) has its calls
 * recorded all the same ({@link #callsOf}): a catch of its own may take the exception and go on, and a call
 * outside its try statements passes the exception on to its callers (adv20 A10: {@code runAll → go → book},
 * the catch at the top, the session at the bottom, a method between that touches no session). Not
 * followed (docs/diagnostics.md, "What is not checked"): out of a lambda's or initializer's body
 * (the exception leaves into the code that runs it), nor into a method known only from a class file. An
 * exit of a method that implements or overrides another is an exit of that one too (adv19 A2): a call
 * through the interface, the abstract class or the superclass may run this body. A method reference or lambda
 * held in a local variable runs where the variable's functional method is called (adv19 c8,
 * {@link HeldFunctions}): those calls are its calls, and a held lambda is keyed by its tree as a method is.
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
     * caller's try statements around it do with an exception. {@code heldIn}: the lambda held in a local
     * variable whose body the call is in (adv19 c8, {@link HeldFunctions}), or null: what the caller's
     * handlers do not take leaves that lambda into the calls that run it, not the caller where it stands; or the
     * parameter of a method of the program that the function the call is in was given for (adv21 B1,
     * {@link FunctionFates}): it leaves into the calls of that parameter's functional method.
     */
    record Call(ExecutableElement caller, Tree at, CompilationUnitTree unit, long line, List<Handlers> handlers,
            Object heldIn) {
        /** A call in no held lambda. */
        Call(ExecutableElement caller, Tree at, CompilationUnitTree unit, long line, List<Handlers> handlers) {
            this(caller, at, unit, line, handlers, null);
        }
    }

    /** The catch clauses (none while a catch block is read) and the finally block that can end with a jump (or null) of one try statement. */
    record Handlers(List<CatchClauses.Clause> clauses, CatchClauses.Clause jumpingFinally) {
    }

    private final Trees trees;
    private final javax.lang.model.util.Elements elements;
    private final javax.lang.model.util.Types types;
    /** The first exit found for each method (an {@code ExecutableElement}) or held lambda (its tree, adv19 c8). */
    private final Map<Object, Exit> exits = new HashMap<>();
    /** adv21 B8: the later exits of each, that may throw a type the ones before may not ({@link #newTypes}). */
    private final Map<Object, List<Exit>> moreExits = new HashMap<>();
    /** The recorded calls of each method or held lambda (the calls that run it, adv19 c8). */
    private final Map<Object, List<Call>> calls = new HashMap<>();
    /** The calls reported at (once each, also when a method's exit is replaced: see {@link #exit}). */
    private final Set<Tree> reportedCalls = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The call trees recorded, with what each calls (a call read twice, as a finally block is, counts once). */
    private final Set<List<Object>> seen = new java.util.HashSet<>(); // trees and elements: equal only to themselves
    /** adv20 A9: the exits recorded by the compilations of classes known from class files, and where this one's go. */
    private ExitsResource recorded;
    /** adv21 B1: for each parameter asked about, whether its method only calls its functional method. */
    private final Map<Element, Boolean> onlyCalled = new HashMap<>();
    /** The methods of class files whose recorded exit was looked up (once each). */
    private final Set<ExecutableElement> looked = new java.util.HashSet<>();

    /** adv21 B9: the program's methods Java or the JDK calls where the source shows no call of them. */
    final ImplicitCallees implicitCallees;

    UncheckedExits(Trees trees, javax.lang.model.util.Elements elements, javax.lang.model.util.Types types) {
        this.trees = trees;
        this.elements = elements;
        this.types = types;
        this.functionObjects = new FunctionObjects(elements, types);
        this.implicitCallees = new ImplicitCallees(elements, types);
        this.codecCode = new CodecCode(elements, trees);
    }

    /**
     * adv20 A9: reads the exits of methods known only from class files from {@code resource} (what their own
     * compilations recorded), at the first call of each.
     */
    void readRecordedExits(ExitsResource resource) {
        this.recorded = resource;
    }

    /** The exit kept for each method (not the held lambdas'), for {@link ExitsResource#write}. */
    Map<ExecutableElement, Exit> methodExits() {
        Map<ExecutableElement, Exit> found = new HashMap<>();
        for (Map.Entry<Object, Exit> entry : exits.entrySet()) {
            if (entry.getKey() instanceof ExecutableElement method) {
                found.put(method, entry.getValue());
            }
        }
        return found;
    }

    /** {@code method} may let {@code exit} out (its own check found it, or a call it makes does). */
    void exit(ExecutableElement method, Exit exit, CatchClauses handlers) {
        if (!exitOf(method, exit, handlers)) {
            return;
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

    /**
     * {@code exit} leaves {@code key}, a method or a held lambda: kept (the first; one of the JDK's failures only
     * gives way to one of any exception) and met with the recorded calls; returns whether it was kept.
     */
    private boolean exitOf(Object key, Exit exit, CatchClauses handlers) {
        Exit first = key == null ? null : exits.get(key);
        if (key == null) {
            return false;
        }
        if (first != null && !(first.thrown().isEmpty() && !exit.thrown().isEmpty())) {
            // adv21 B8: an exit of a type none kept may be (parts[1]'s index after parseInt's NumberFormatException)
            // meets the calls too: a caller's catch (ArrayIndexOutOfBoundsException e) takes it, not the first
            if (!newTypes(key, first, exit)) {
                return false;
            }
            List<Exit> of = moreExits.get(key);
            if (of == null) { // not computeIfAbsent with a lambda: see NoPatternSwitchTest
                of = new ArrayList<>();
                moreExits.put(key, of);
            }
            of.add(exit);
        } else {
            exits.put(key, exit);
        }
        for (Call call : new ArrayList<>(calls.getOrDefault(key, List.of()))) {
            meet(call, exit, handlers);
        }
        return true;
    }

    /**
     * Whether {@code exit} may throw a type that no exit kept for {@code key} ({@code first}, then {@link #moreExits})
     * may: one that is no subtype of theirs. The JDK's undeclared failures are a type of their own.
     */
    private boolean newTypes(Object key, Exit first, Exit exit) {
        List<Exit> kept = new ArrayList<>(moreExits.getOrDefault(key, List.of()));
        kept.add(first);
        boolean jdk = false;
        List<TypeMirror> thrown = new ArrayList<>();
        for (Exit one : kept) {
            jdk |= one.jdkFailures();
            thrown.addAll(one.thrown());
        }
        if (exit.jdkFailures() && !jdk) {
            return true;
        }
        for (TypeMirror type : exit.thrown()) {
            if (!ThrowSites.caughtBy(List.of(type), thrown, types)) {
                return true;
            }
        }
        return false;
    }

    /**
     * adv19 c8: {@code exit} leaves the body of {@code lambda}, held in a local variable ({@link HeldFunctions}):
     * it comes out of each call of the variable's functional method ({@link #run}).
     */
    void heldExit(Object lambda, Exit exit, CatchClauses handlers) {
        exitOf(lambda, exit, handlers); // adv21 B1: or the parameter of a method of the program it is given for
    }

    /**
     * adv19 c8: {@code call} runs the functional value held in a local variable ({@code c.accept(in)} with
     * {@code c} holding {@code C8::book} or a lambda), {@code value} (the method referred to, or the lambda's tree):
     * what leaves it comes out here.
     */
    void run(Object value, Call call, CatchClauses handlers) {
        callOf(value, call, handlers);
    }

    /**
     * adv21 B1: whether {@code method}, a method of the program compiled now, uses its parameter {@code parameter} only
     * as the receiver of calls of its functional method ({@link HeldFunctions#onlyCalled}); asked once per parameter.
     */
    boolean onlyCalled(ExecutableElement method, Element parameter) {
        Boolean known = onlyCalled.get(parameter);
        if (known == null) {
            TreePath body = trees.getPath(method);
            known = body != null && HeldFunctions.onlyCalled(body, parameter, trees);
            onlyCalled.put(parameter, known);
        }
        return known;
    }

    /**
     * What the call at {@code call} runs, when it calls the functional method of a held local ({@link #heldValue}) or
     * of a parameter of the method it is in (adv21 B1: the key of the functions given for it); else null.
     */
    static Object runValue(TreePath call, Trees trees, MethodChecker flow) {
        Object held = heldValue(HeldFunctions.valueRun(call, trees), trees, flow);
        return held != null ? held : HeldFunctions.parameterRun(call, trees);
    }

    /**
     * The key of the lambda at {@code body} when it runs where the checker follows it ({@link FunctionFates}): its
     * tree when it is held in a local variable, the parameter it is given for; else null.
     */
    static Object heldKey(TreePath body, CatchClauses handlers) {
        return body.getLeaf() instanceof com.sun.source.tree.LambdaExpressionTree ? handlers.fate(body).key() : null;
    }

    /** adv21 B10: the function methods of the classes created (found once per class). */
    private final FunctionObjects functionObjects;
    /** adv20 A2 E2: which message types' codecs run code of the program (found once per class). */
    final CodecCode codecCode;

    /** See {@link FunctionObjects#functionMethods}. */
    List<ExecutableElement> functionMethods(ExecutableElement constructor, MethodChecker flow) {
        return functionObjects.functionMethods(constructor, flow);
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
        callOf(callee, call, handlers);
    }

    /** {@code call} of {@code callee}, a method or a held lambda, is read (once). */
    private void callOf(Object callee, Call call, CatchClauses handlers) {
        if (!seen.add(List.of(call.at(), callee))) {
            return;
        }
        List<Call> of = calls.get(callee);
        if (of == null) { // not computeIfAbsent with a lambda: see NoPatternSwitchTest
            of = new ArrayList<>();
            calls.put(callee, of);
        }
        of.add(call);
        if (recorded != null && callee instanceof ExecutableElement method && looked.add(method)
                && !exits.containsKey(method) && fromClassFile(method)) {
            Exit fromRecord = recorded.read(method); // adv20 A9: a method of another compilation
            if (fromRecord != null) {
                exits.put(method, fromRecord); // met with this call below (the first of it)
            }
        }
        Exit exit = exits.get(callee);
        if (exit != null) {
            meet(call, exit, handlers);
        }
        for (Exit more : moreExits.getOrDefault(callee, List.of())) {
            meet(call, more, handlers); // adv21 B8
        }
    }

    /** Whether {@code method}'s class is known only from a class file (not compiled in this javac run). */
    private boolean fromClassFile(ExecutableElement method) {
        javax.lang.model.element.TypeElement top = ExitsResource.topLevel(method);
        return top != null && trees.getTree(top) == null;
    }

    /**
     * A method body the checker does not read (it can touch no session: {@link SessionRelevance}) may still
     * take a callee's unchecked exit and go on ({@code try { handleOne(); } catch (RuntimeException e) { … }}),
     * or let it out to its own callers ({@code static void go(String in) { book(in); }}, adv20 A10): records its
     * calls of the program's methods, each with the handlers of the try statements around it (none outside
     * every try statement: the exit then leaves this body too, and is followed to its callers).
     * {@code flow} is a checker of the body's class, rooted at {@code body}, for the handlers' types and lines.
     */
    void callsOf(TreePath body, MethodChecker flow) {
        ExecutableElement caller = body.getLeaf() instanceof com.sun.source.tree.MethodTree
                && trees.getElement(body) instanceof ExecutableElement method ? method
                : body.getLeaf() instanceof com.sun.source.tree.LambdaExpressionTree ? enclosingMethod(body) : null;
        CatchClauses handlers = new CatchClauses(flow);
        java.util.Deque<Handlers> around = new java.util.ArrayDeque<>(handlersAround(body, handlers)); // adv19 A1
        Object heldIn = heldKey(body, handlers); // adv19 c8, adv21 B1
        CompilationUnitTree unit = body.getCompilationUnit();
        new com.sun.source.util.TreeScanner<Void, Void>() {
            @Override
            public Void visitTry(TryTree tree, Void unused) {
                CatchClauses.Clause jumping = handlers.jumpingFinally(tree);
                around.push(new Handlers(handlers.of(tree), jumping));
                scan(tree.getResources(), null);
                scan(tree.getBlock(), null);
                // adv21 B9: each resource's close() runs at the end of the block, under the statement's catches
                Map<Tree, ExecutableElement> closes = new java.util.LinkedHashMap<>();
                implicitCallees.resources(tree, new TreePath(body, tree), trees, flow.api, closes);
                for (Map.Entry<Tree, ExecutableElement> close : closes.entrySet()) {
                    implicit(close.getKey(), close.getValue());
                }
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

            /**
             * adv21 B9: a string concatenation, an enhanced for, a record pattern call the program's methods with no
             * call in the source ({@link ImplicitCallees#at}).
             */
            @Override
            public Void scan(Tree tree, Void unused) {
                super.scan(tree, unused);
                if (ImplicitCallees.mayCall(tree)) { // no path, no list for the other trees
                    for (ExecutableElement callee : implicitCallees.at(tree, new TreePath(body, tree), trees)) {
                        implicit(tree, callee);
                    }
                }
                return null;
            }

            /** adv21 B9: {@code callee}, a method of the program, is called at {@code at} where the source shows no call. */
            private void implicit(Tree at, ExecutableElement callee) {
                if (callee != null) {
                    call(callee, new Call(caller, at, unit, flow.line(at), new ArrayList<>(around), heldIn), handlers);
                }
            }

            private void record(Tree call) {
                if (!(trees.getElement(new TreePath(body, call)) instanceof ExecutableElement callee)) {
                    return;
                }
                if (call instanceof com.sun.source.tree.MethodInvocationTree invocation && ThrowSites.inJdk(callee, flow)) {
                    // adv21 B9: String.valueOf(o), set.add(key), Collections.sort(keys) call the program's methods
                    for (ExecutableElement implicitCallee : implicitCallees.givenToJdk(invocation, callee,
                            new TreePath(body, call), trees)) {
                        implicit(call, implicitCallee);
                    }
                }
                TreePath reference = call instanceof com.sun.source.tree.MemberReferenceTree ? trees.getPath(unit, call) : null;
                // adv20 A1, A4: pool.submit(A::book), inputs.stream().map(A::book) consumed later; adv21 B1-B3:
                // runSafely(A::book) followed to where runSafely runs it, Map.of("book", A::book) escapes
                FunctionFates.Fate fate = reference == null ? FunctionFates.Fate.STANDS : handlers.fate(reference);
                Tree consumer = reference == null ? null : lazyConsumer(reference, handlers);
                Tree at = consumer != null ? consumer : call;
                Call recorded = new Call(caller, at, unit, flow.line(at), fate.handlers() != null ? fate.handlers()
                        : fate.key() != null ? List.of() : new ArrayList<>(around), fate.key() != null ? fate.key() : heldIn);
                boolean jdk = ThrowSites.inJdk(callee, flow);
                if (!jdk) {
                    call(callee, recorded, handlers);
                }
                if (call instanceof com.sun.source.tree.NewClassTree) { // adv21 B10: new BookTask(in), a function
                    List<ExecutableElement> runs = functionMethods(callee, flow);
                    if (!runs.isEmpty()) {
                        FunctionFates.Fate objectFate = handlers.fate(trees.getPath(unit, call));
                        Call object = new Call(caller, call, unit, flow.line(call), objectFate.handlers() != null
                                ? objectFate.handlers() : objectFate.key() != null ? List.of() : new ArrayList<>(around),
                                objectFate.key() != null ? objectFate.key() : heldIn);
                        for (ExecutableElement run : runs) {
                            call(run, object, handlers);
                        }
                    }
                }
                if (reference == null && callee.getModifiers().contains(javax.lang.model.element.Modifier.ABSTRACT)) {
                    Object value = runValue(new TreePath(body, call), trees, flow);
                    // adv19 c8: c.accept(in) runs what c holds; adv21 B1: task.run() runs what runSafely is given
                    if (value != null && (!around.isEmpty() || value instanceof Element && !(value instanceof ExecutableElement))) {
                        run(value, recorded, handlers);
                    }
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
     * the lambdas it is nested in. Empty for any other body, and for a lambda held in a local variable, which runs
     * where that variable's functional method is called ({@link HeldFunctions}); for a lambda given to a JDK call that
     * runs it on another thread, that call alone, as a handler that takes every exception and goes on (adv20 A1,
     * {@link FunctionRunners}); for one given to a lazy stream operation, those around the terminal operation that
     * runs it (adv20 A4, {@link LazyStreams}).
     */
    static List<Handlers> handlersAround(TreePath body, CatchClauses handlers) {
        if (!(body.getLeaf() instanceof com.sun.source.tree.LambdaExpressionTree)) {
            return new ArrayList<>();
        }
        // adv19 c8, adv21 B1: held in a variable, or given for a parameter that is only called: runs at those calls;
        // adv20 A1: run on another thread, which keeps what it throws (the try statements here never see it);
        // adv20 A4: run by the terminal operation that consumes the stream; adv21 B2, B3: escapes (FunctionFates)
        FunctionFates.Fate fate = handlers.fate(body);
        return fate.key() != null ? new ArrayList<>() : fate.handlers() != null ? fate.handlers()
                : handlersFrom(body, handlers);
    }

    /**
     * The handlers a function (a lambda or a method reference, at {@code function}) meets when it does not run where
     * it stands: given to a call that runs it on another thread, that call, as a handler that takes every exception
     * and goes on (adv20 A1, {@link FunctionRunners}); given to a lazy stream operation, those around the terminal
     * operation that runs it, or, where that is not known, the operation as such a handler (adv20 A4,
     * {@link LazyStreams}); null for any other.
     */
    static List<Handlers> functionHandlers(TreePath function, CatchClauses handlers) {
        CatchClauses.Clause runner = handlers.runner(function);
        if (runner != null) {
            return List.of(new Handlers(List.of(runner), null));
        }
        LazyStreams.Lazy lazy = handlers.lazy(function);
        if (lazy == null) {
            return null;
        }
        return lazy.consumer() == null ? List.of(new Handlers(List.of(handlers.unfollowedStream(lazy.op())), null))
                : handlersFrom(lazy.consumer(), handlers);
    }

    /**
     * Where a function given to a lazy stream operation runs: the terminal operation that consumes its stream, when
     * that is known and is not in the same expression ({@link LazyStreams}); else null.
     */
    static Tree lazyConsumer(TreePath function, CatchClauses handlers) {
        LazyStreams.Lazy lazy = handlers.runner(function) != null ? null : handlers.lazy(function);
        return lazy == null || lazy.consumer() == null ? null : lazy.consumer().getLeaf();
    }

    /** The handlers of the try statements around {@code from} (innermost first), up to the method or initializer it is in. */
    static List<Handlers> handlersFrom(TreePath from, CatchClauses handlers) {
        List<Handlers> found = new ArrayList<>();
        Tree child = from.getLeaf();
        for (TreePath up = from.getParentPath(); up != null; up = up.getParentPath()) {
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

    /**
     * What the call at {@code value} runs ({@link HeldFunctions#valueRun}; null: none known): the program's method a
     * method reference refers to, or the lambda's tree; null for the JDK's.
     */
    static Object heldValue(TreePath value, Trees trees, MethodChecker flow) {
        if (value == null) {
            return null;
        }
        if (value.getLeaf() instanceof com.sun.source.tree.LambdaExpressionTree
                || value.getLeaf() instanceof com.sun.source.tree.NewClassTree) {
            return value.getLeaf(); // a held lambda, or a held object (adv21 B2), keyed by its tree
        }
        return trees.getElement(value) instanceof ExecutableElement referred && !ThrowSites.inJdk(referred, flow)
                ? referred : null;
    }

    private long line(CompilationUnitTree unit, Tree tree) {
        return unit.getLineMap().getLineNumber(trees.getSourcePositions().getStartPosition(unit, tree));
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
                String how = swallower.goesOn();
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
        if (call.heldIn() != null) {
            // adv19 c8: out of a held lambda's body, into the calls that run it
            exitOf(call.heldIn(), new Exit(exit.session(), exit.owner(), exit.remains(), exit.what(), exit.through()
                    + (call.heldIn() instanceof Tree lambda ? (lambda instanceof com.sun.source.tree.NewClassTree
                            ? " and then the object made on line " : " and then the lambda on line ") + line(call.unit(), lambda)
                            : " and then the function given for '" + ((Element) call.heldIn()).getSimpleName()
                                    + "' of '" + nameOf((ExecutableElement) ((Element) call.heldIn()).getEnclosingElement()) + "'"),
                    thrown, jdk), handlers);
        } else if (call.caller() != null) {
            exit(call.caller(), new Exit(exit.session(), exit.owner(), exit.remains(), exit.what(), exit.through()
                    + " and then '" + nameOf(call.caller()) + "' (through its call on line " + call.line() + ")",
                    thrown, jdk), handlers);
        }
    }

    /** How a message names {@code method}: a constructor by its class's name, as the source does. */
    private static String nameOf(ExecutableElement method) {
        return (method.getKind() == javax.lang.model.element.ElementKind.CONSTRUCTOR ? method.getEnclosingElement()
                : method).getSimpleName().toString();
    }
}
