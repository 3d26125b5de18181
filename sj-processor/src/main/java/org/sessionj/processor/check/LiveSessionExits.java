package org.sessionj.processor.check;

import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.Scope;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;

/**
 * Invariant (adv12 A6, adv15, SJ024 on the exception paths): <em>every point at which control can leave
 * the scope of a plain local socket variable abruptly while its session is live and incomplete is a throw
 * point, and each must be covered</em>. Such an exit abandons the session without telling the peer, which
 * then waits for an action that never comes. A try-with-resources resource is closed by Java on the way
 * out (the runtime then fails the session and tells the peer), and so is a member of an {@code SJScope}
 * (the scope is a resource, adv15 A27): neither is concerned. A {@code @Session} parameter is the caller's
 * session (the call is a throw point of the caller, taken with the session as it was before the call,
 * adv15 A18), unless the method ends it or assigns it a session of its own: then it is checked as a plain
 * local.
 *
 * <p>The throw points counted are the program's expected failures: a {@code throw} and a failing
 * {@code assert} (A20); a call (of the program, a library or the JDK, not of the session API) that
 * declares a checked exception ({@code Thread.sleep}, a file read, the program's own
 * {@code throws IOException}), the implicit {@code close()} of a try-with-resources resource among them
 * (A1); an unchecked {@code throw} or {@code assert} of a {@code @Session} method's own, at its caller's
 * call (A18) — each wherever the session may be live: in a catch block where it is in one of several
 * states (A10), in a finally block before its close (A17). An unchecked exception out of a call — any
 * exception where code of the program or a library may run in it (its own, or behind a JDK call or an
 * implicit one: adv16 A6, {@link #unchecked}), for the JDK's own code the declared ones
 * ({@code Integer.parseInt}'s {@code NumberFormatException}) and those a catch around it names (adv16
 * A16) — counts only where a handler outside the variable's scope takes it and goes on (a catch that may
 * take it and does not end in a {@code throw} or {@code System.exit}, following what a catch rethrows; a
 * finally block that can end with a jump: adv16 A4, A5, A7, A14): the "swallow and go on" case, where
 * the program outlives the abandoned session (adv12 A6). The handler may be in this method, or in a
 * caller: one that leaves the method is followed to the method's calls ({@link UncheckedExits}).
 * Counting every call would make every session held in a plain local need try-with-resources (two
 * translated programs of the original SJ corpus were rejected so). Not counted: the JVM's own checks (a
 * null dereference, an index, a cast), which are the program's bugs; and session actions: an action that throws has failed its own
 * session and told the peer (the runtime does it), and a failure of one session's I/O is the
 * connection's, not the program's — counting it for the other sessions would make every program with
 * two sessions in plain locals need try-with-resources.
 *
 * <p>Such a point is covered when the exception it may throw (the checked exceptions a call declares, the
 * thrown expression's type) is taken by a catch of a try statement inside the variable's
 * scope (that catch block starts from the live state and is checked like any other code), or runs a
 * finally block inside that scope that closes the session before any throw point of its own.
 */
final class LiveSessionExits {
    private final MethodChecker flow;

    /** What the catch clauses and finally blocks of the try statements do with an exception. */
    private final CatchClauses handlers;

    LiveSessionExits(MethodChecker flow) {
        this.flow = flow;
        this.handlers = new CatchClauses(flow);
    }

    /**
     * One try statement being read: how many scopes enclose its block (its resource scope counted), its
     * catch types while the try block is read (none while its catch blocks are), and, with a finally
     * block, the sessions an exception runs it with while they are live, checked once it has been read.
     */
    private record Guard(int scopeDepth, List<TypeMirror> catches, Map<Element, Escape> throughFinally,
            Set<Element> resources, List<CatchClauses.Clause> clauses, CatchClauses.Clause jumpingFinally) {
    }

    /**
     * A point that may throw {@code thrown} ({@code what} says which point) with a socket in {@code state};
     * {@code unchecked} when what it may throw is unchecked: then it counts only where a catch of this
     * method outside the socket's scope takes the exception and goes on (see the class comment).
     */
    record Escape(Tree at, String what, List<TypeMirror> thrown, VarState state, boolean unchecked, String fix) {
        /** The usual fix: a try-with-resources resource, or a close in a finally block. */
        static final String RESOURCE_OR_FINALLY = "declare it in try-with-resources, or close it in a finally block";
        /** The fix for a scope member on some paths only (adv18 A4), which no scope closes on the others. */
        static final String MEMBER_ON_SOME_PATHS = "it is a member of a scope on some paths only, and nothing closes it on"
                + " the others: add it to the scope on every path, declare it in try-with-resources, or close it in a"
                + " finally block";
    }

    /** Innermost first. */
    private final Deque<Guard> guards = new ArrayDeque<>();

    /** The sockets already reported (once each). */
    private final Set<Element> reported = new HashSet<>();

    /** A call of {@code callee} runs at {@code call} (its arguments evaluated). */
    void callPoint(Tree call, Element callee) {
        Map<Element, VarState> lends = lentNow.isEmpty() ? Map.of() : new java.util.HashMap<>(lentNow);
        lentNow.clear();
        if (callee instanceof ExecutableElement factory && flow.api.isEndpointFactory(factory)) {
            sessionSetUp(call, factory); // SJServerSocket.create binds its port, SJService.create checks its protocol
        }
        if (flow.state == null || flow.reporter.silent() || !(callee instanceof ExecutableElement method)
                || sessionApi(method)) {
            return;
        }
        String name = call instanceof MethodInvocationTree invocation ? "the call of '" + FlowScanner.calleeName(invocation) + "'"
                : call instanceof NewClassTree ? "the constructor call" : "the call";
        beforeCall = lends;
        try {
            // adv20 A11: items.size(), m.put("k", record) on a concrete JDK collection cannot fail, run no program code
            boolean collection = UnfailingJdkCalls.collectionCallCannotFail(call, method, flow);
            boolean programCode = !collection && ThrowSites.runsProgramCode(call, method, flow);
            // adv18 A12: a JDK method on the hand-kept list cannot fail for any argument (println, String.valueOf)
            boolean jdkMayFail = !programCode && !collection && !UnfailingJdkCalls.cannotFail(method);
            throwsAt(call, name + " on line " + flow.line(call) + " throws", thrownAt(call, method), programCode,
                    jdkMayFail);
            if (jdkMayFail && ThrowSites.inJdk(method, flow)) {
                jdkFailures(name + " on line " + flow.line(call) + " throws");
            }
            com.sun.source.util.TreePath own = lends.isEmpty() ? null
                    : flow.lent.ownUncheckedThrow(method, flow.types, flow.elements);
            if (own != null) {
                // adv15 A18: the method lent the session may throw an unchecked exception of its own with it
                // half done; the caller's call is that throw point (counted as a throw statement is)
                TypeMirror type = own.getLeaf() instanceof ThrowTree statement
                        ? flow.trees.getTypeMirror(new com.sun.source.util.TreePath(own, statement.getExpression()))
                        : type("java.lang.AssertionError");
                String where = own.getLeaf() instanceof ThrowTree ? "the throw on line " : "the assert on line ";
                long line = own.getCompilationUnit().getLineMap().getLineNumber(
                        flow.trees.getSourcePositions().getStartPosition(own.getCompilationUnit(), own.getLeaf()));
                String in = method.getSimpleName().toString();
                for (com.sun.source.util.TreePath up = own; up != null; up = up.getParentPath()) {
                    if (up.getLeaf() instanceof com.sun.source.tree.MethodTree declaration) {
                        in = declaration.getName().toString(); // the method it is in (adv17 A2: one further down)
                    } else if (up.getLeaf() instanceof com.sun.source.tree.ClassTree owner && in.equals("<init>")) {
                        in = owner.getSimpleName().toString(); // a constructor, by its class's name
                    }
                    if (up.getLeaf() instanceof com.sun.source.tree.ClassTree) {
                        break;
                    }
                }
                escapeAll(call, name + " on line " + flow.line(call) + " throws " + simpleName(type) + " (" + where
                        + line + " in '" + in + "', with the session lent to it)", List.of(type), false, lends.keySet());
            }
            if (own == null && !lends.isEmpty()) {
                // adv17 A2, dispatch: an unchecked exception the method declares is one its implementations may
                // throw with the session lent (SJ057 holds them to it): counted as its own throw is
                for (TypeMirror declared : thrownAt(call, method)) {
                    if (checked(List.of(declared)).isEmpty() && !flow.types.isSubtype(declared,
                            type("org.sessionj.api.SJIOException"))) {
                        escapeAll(call, name + " on line " + flow.line(call) + " throws " + simpleName(declared)
                                + " (declared by '" + method.getSimpleName() + "', with the session lent to it)",
                                List.of(declared), false, lends.keySet());
                    }
                }
            }
            if (call instanceof MethodInvocationTree invocation && ThrowSites.inJdk(method, flow)) {
                // adv21 B9: String.valueOf(o), set.add(key), Collections.sort(keys) call the program's methods
                for (ExecutableElement implicit : flow.uncheckedExits.implicitCallees.givenToJdk(invocation, method,
                        flow.pathOf(call), flow.trees)) {
                    implicitCallee(call, implicit);
                }
            }
            // adv19 c8: c.accept(in) runs what the local c holds, a method reference or a lambda; adv21 B1:
            // task.run() runs the functions given for the parameter task (FunctionFates)
            Object value = method.getModifiers().contains(javax.lang.model.element.Modifier.ABSTRACT)
                    ? UncheckedExits.runValue(flow.pathOf(call), flow.trees, flow) : null;
            if (value != null) {
                flow.uncheckedExits.run(value, new UncheckedExits.Call(caller(), call, flow.root.getCompilationUnit(),
                        flow.line(call), handlersAround(), heldIn()), handlers);
            }
            if (!ThrowSites.inJdk(method, flow)) { // adv12 A6: what an unchecked exit of the callee's own meets here
                flow.uncheckedExits.run(method, new UncheckedExits.Call(caller(), call, flow.root.getCompilationUnit(),
                        flow.line(call), handlersAround(), heldIn()), handlers);
            }
            if (call instanceof NewClassTree) {
                functionObject(call, method);
            }
        } finally {
            beforeCall = Map.of();
        }
    }

    /**
     * adv18 A8: {@code call} of {@code method} sets up a session or an endpoint ({@code request()},
     * {@code accept()}, {@code SJService.create}, {@code SJServerSocket.create}). One that fails (a server
     * down, a port taken: the commonest failures) has begun no session and tells nobody, and the sessions
     * live around it are left as they are: for each other live plain local session it is a throw point of
     * the session API's unchecked failure, counted where a catch outside that session's scope takes it and
     * goes on (or, out of the method, where a caller's does: {@link UncheckedExits}). An action on a session
     * that is open is not such a point: it fails its own session and the runtime tells that peer.
     */
    void sessionSetUp(Tree call, ExecutableElement method) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        boolean factory = flow.api.isEndpointFactory(method);
        String what = factory
                ? "the call of '" + method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName() + "' on line "
                        + flow.line(call) + " (which makes no endpoint if it fails) throws"
                : "the " + method.getSimpleName() + "() on line " + flow.line(call)
                        + " (which begins no session if it fails) throws";
        escapeAll(call, what, List.of(type(factory ? "org.sessionj.api.SJException" : "org.sessionj.api.SJIOException")),
                true);
    }

    /**
     * adv20 A2: {@code call} is a timed action of {@code actor}'s session ({@code b.receive(Duration)}). Its timeout,
     * an {@code SJTimeoutException}, is an expected failure (the docs teach {@code catch (SJTimeoutException e)}), not
     * a lost connection: the runtime fails {@code actor}'s session and tells its peer, but the other live plain
     * local sessions are left as they are. For each of them it is a throw point of that exception, counted where a
     * catch outside its scope takes it and goes on (or, out of the method, where a caller's does), as a failed
     * set-up is ({@link #sessionSetUp}).
     */
    void timedAction(Tree call, Element actor) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        Set<Element> others = new HashSet<>(flow.state.variables());
        others.remove(actor);
        if (!others.isEmpty()) {
            escapeAll(call, "the timed receive on line " + flow.line(call) + " times out and throws", List.of(
                    type("org.sessionj.api.SJTimeoutException")), true, others);
        }
    }

    /**
     * adv20 A2 E2: {@code call} is a send or receive on {@code actor}'s session of a message of type {@code message},
     * whose codec may run code of the program ({@link CodecCode}: a getter, a setter, a record's own constructor) that
     * throws: the runtime then fails {@code actor}'s session and tells its peer ({@code SJIOException}: "… the
     * message's own code threw …"), but no connection failed, and the other live plain local sessions are left as
     * they are. For each of them it is a throw point of that exception, counted where a catch outside its scope takes
     * it and goes on (or, out of the method, where a caller's does), as a timed receive's timeout is ({@link #timedAction}).
     */
    void codecAction(Tree call, Element actor, TypeMirror message, String action) {
        if (flow.state == null || flow.reporter.silent() || message == null) {
            return;
        }
        Set<Element> others = new HashSet<>(flow.state.variables());
        others.remove(actor);
        if (others.isEmpty()) {
            return;
        }
        javax.lang.model.element.TypeElement code = flow.uncheckedExits.codecCode.programCode(message, flow);
        if (code != null) {
            escapeAll(call, "the " + action + " on line " + flow.line(call) + " (whose message's codec runs the code of '"
                    + code.getSimpleName() + "', which may fail it) fails and throws", List.of(
                            type("org.sessionj.api.SJIOException")), true, others);
        }
    }

    /**
     * adv18 A6: a method reference ({@code A::send}, {@code this::send}) is run wherever the functional value is
     * run — by the JDK call it is given to ({@code values.forEach(A::send)}), inside the try statements around
     * it: for what an unchecked exit of the method referred to meets ({@link UncheckedExits}), it is a call
     * of that method here; given to a JDK call that runs it on another thread ({@code pool.submit(A::book)}), a call
     * of it whose exception that call keeps while the program goes on (adv20 A1, {@link FunctionRunners}).
     */
    void referenced(Tree reference, Element referred) {
        if (flow.state == null || !(referred instanceof ExecutableElement method) || ThrowSites.inJdk(method, flow)
                || sessionApi(method)) {
            return;
        }
        // adv20 A1, A4: pool.submit(A::book); inputs.stream().map(A::book) consumed in a later statement; adv21 B1-B3:
        // runSafely(A::book) runs where runSafely calls its parameter, Map.of("book", A::book) escapes (FunctionFates)
        com.sun.source.util.TreePath path = pathTo(reference);
        FunctionFates.Fate fate = handlers.fate(path);
        Tree consumer = UncheckedExits.lazyConsumer(path, handlers);
        Tree at = consumer != null ? consumer : reference;
        flow.uncheckedExits.call(method, new UncheckedExits.Call(caller(), at, flow.root.getCompilationUnit(),
                flow.line(at), fate.handlers() != null ? fate.handlers() : fate.key() != null ? List.of() : handlersAround(),
                fate.key() != null ? fate.key() : heldIn()), handlers);
    }

    /**
     * adv21 B1 X04, B2 X11, B10: {@code creation} makes an object of a class of the program that implements a JDK
     * functional interface ({@code new BookTask(in)}, {@code new Runnable() { … }}): a function, whose method runs
     * where its fate says ({@link FunctionFates}: given to {@code submit}, held and run, given to a method that runs
     * it, or escaping) — recorded as a call of that method there.
     */
    private void functionObject(Tree creation, ExecutableElement constructor) {
        List<ExecutableElement> runs = flow.uncheckedExits.functionMethods(constructor, flow);
        if (runs.isEmpty()) {
            return;
        }
        FunctionFates.Fate fate = handlers.fate(pathTo(creation));
        UncheckedExits.Call call = new UncheckedExits.Call(caller(), creation, flow.root.getCompilationUnit(),
                flow.line(creation), fate.handlers() != null ? fate.handlers() : fate.key() != null ? List.of()
                        : handlersAround(), fate.key() != null ? fate.key() : heldIn());
        for (ExecutableElement run : runs) {
            flow.uncheckedExits.call(run, call, handlers);
        }
    }

    /**
     * The path of {@code leaf}, the tree being read (the scanner's own path: {@link FlowScanner#pathOf} puts a tree
     * under the current one, which is {@code leaf} itself while it is visited), for looking at where it stands.
     */
    private com.sun.source.util.TreePath pathTo(Tree leaf) {
        com.sun.source.util.TreePath current = flow.getCurrentPath();
        return current != null && current.getLeaf() == leaf ? current
                : flow.trees.getPath(flow.root.getCompilationUnit(), leaf);
    }

    /**
     * The handlers around the point being read, innermost first: this body's try statements, then, in a
     * lambda's body, those around the lambda (adv19 A1: it runs where it stands, {@link UncheckedExits#handlersAround}).
     */
    private List<UncheckedExits.Handlers> handlersAround() {
        List<UncheckedExits.Handlers> around = new ArrayList<>();
        for (Guard guard : guards) {
            around.add(new UncheckedExits.Handlers(guard.clauses(), guard.jumpingFinally()));
        }
        around.addAll(lambdaHandlers());
        return around;
    }

    /** The handlers around the lambda whose body is checked (none for another body), computed once. */
    private List<UncheckedExits.Handlers> lambdaHandlers() {
        if (aroundLambda == null) {
            aroundLambda = lambda() ? UncheckedExits.handlersAround(flow.root, handlers) : List.of();
        }
        return aroundLambda;
    }

    private List<UncheckedExits.Handlers> aroundLambda;

    /**
     * The lambda whose body is checked when it is held in a local variable (adv19 c8, {@link HeldFunctions}): it
     * runs where the variable's functional method is called; else null. Computed once.
     */
    private Object heldIn() {
        if (!heldKnown) {
            held = lambda() ? UncheckedExits.heldKey(flow.root, handlers) : null; // adv21 B1: or the parameter it is given for
            heldKnown = true;
        }
        return held;
    }

    /** {@link #heldIn}'s answer, once computed ({@code heldKnown}). */
    private Object held;

    private boolean heldKnown;

    /** The method whose code the body checked is: its own, or, for a lambda's, the method the lambda is in. */
    private ExecutableElement caller() {
        return flow.unitMethod != null || !lambda() ? flow.unitMethod : flow.uncheckedExits.enclosingMethod(flow.root);
    }

    private boolean lambda() {
        return flow.root != null && flow.root.getLeaf() instanceof com.sun.source.tree.LambdaExpressionTree;
    }

    /**
     * adv19 A1: {@code exit} leaves the lambda whose body is checked, into the call it is given to (where it is
     * taken to run): it meets the handlers around the lambda, and goes on to the enclosing method's callers.
     */
    private void lambdaExit(String session, String remains, String what, List<TypeMirror> thrown, boolean jdk) {
        if (heldIn() != null) { // adv19 c8: it runs where the variable that holds it is called
            flow.uncheckedExits.heldExit(heldIn(), new UncheckedExits.Exit(session, "the lambda on line "
                    + flow.line(flow.root.getLeaf()), remains, what, "", thrown, jdk), handlers);
            return;
        }
        Tree consumer = UncheckedExits.lazyConsumer(flow.root, handlers); // adv20 A4: the terminal operation runs it
        Tree runBy = consumer != null ? consumer : UncheckedExits.runBy(flow.root);
        flow.uncheckedExits.lambdaExit(new UncheckedExits.Call(caller(), runBy, flow.root.getCompilationUnit(),
                flow.line(runBy), lambdaHandlers()), new UncheckedExits.Exit(session, "the lambda on line "
                        + flow.line(flow.root.getLeaf()), remains, what, "", thrown, jdk), handlers);
    }

    /**
     * adv18 A3: a JDK call that runs none of the program's code may throw one of the JDK's unchecked failures
     * that it does not declare ({@code LocalDate.parse}'s DateTimeParseException). Inside this method a catch
     * that names one counts it ({@link #expectedFailures}); one that leaves the method with a plain local
     * session live (no resource, finally block or catch of every unchecked exception on its way) is an exit
     * for the callers' catches that name one ({@link UncheckedExits}).
     */
    private void jdkFailures(String what) {
        if (flow.unitMethod == null && !lambda()) {
            return;
        }
        for (Element var : flow.state.variables()) {
            VarState state = flow.state.get(var);
            if (reported.contains(var) || !live(state) || flow.spawns.scopeMember(var)
                    || !(plainLocalSocket(var) || ownedParameter(var)) || !leavesWithAJdkFailure(var)) {
                continue;
            }
            if (flow.unitMethod == null) {
                lambdaExit(flow.name(var), remains(state), what, List.of(), true);
                return;
            }
            flow.uncheckedExits.exit(flow.unitMethod, new UncheckedExits.Exit(flow.name(var),
                    flow.unitMethod.getKind() == ElementKind.CONSTRUCTOR ? flow.unitMethod.getEnclosingElement().getSimpleName().toString()
                            : flow.unitMethod.getSimpleName().toString(), remains(state), what, "", List.of(), true), handlers);
            return; // one exit per method
        }
    }

    /** Whether a JDK failure thrown now leaves the method with {@code var}'s session live (see {@link #jdkFailures}). */
    private boolean leavesWithAJdkFailure(Element var) {
        int depth = scopeDepth(var);
        for (Guard guard : guards) {
            boolean insideTheScope = depth < guard.scopeDepth();
            if (insideTheScope && (guard.resources().contains(var) || guard.throughFinally() != null)
                    || (insideTheScope ? handlers.takesEveryUnchecked(guard.clauses())
                            : handlers.endsEveryUnchecked(guard.clauses())) // one outside that rethrows passes it on (adv19 A9)
                    || guard.jumpingFinally() != null) {
                return false; // closed on the way, or taken here (this method's own rules apply)
            }
        }
        return true;
    }

    private static String simpleName(TypeMirror type) {
        return type instanceof javax.lang.model.type.DeclaredType declared
                ? declared.asElement().getSimpleName().toString() : String.valueOf(type);
    }

    /**
     * The sockets the call being read lends to {@code @Session} parameters of a method that does not end
     * them, with their states before it ({@link #lent}); taken by the call's {@link #callPoint}, which runs
     * right after its arguments are lent.
     */
    private final Map<Element, VarState> lentNow = new java.util.HashMap<>();

    /** While a call's throw point is read: the lent sockets' states before the call. */
    private Map<Element, VarState> beforeCall = Map.of();

    /**
     * {@code var}, in state {@code before}, is lent to a {@code @Session} parameter of the method called
     * now, which does not end it (adv15 A18): the method may throw anywhere in the part it was lent, so the
     * call's throw point is taken with the session as it was before the call, not after the part (which
     * may be complete: {@code work(s); s.close();} with {@code work} throwing between its two sends).
     */
    void lent(Element var, VarState before) {
        lentNow.put(var, before);
    }

    /**
     * A socket variable is assigned: a {@code @Session} parameter assigned a session of the method's own
     * is no longer the caller's (adv15 A18, b35/01), and is checked as a plain local from then on.
     */
    void assigned(Element var) {
        if (var.getKind() == ElementKind.PARAMETER) {
            ownParameters.add(var);
        }
    }

    /** Parameters assigned in this method (see {@link #assigned}). */
    private final Set<Element> ownParameters = new HashSet<>();

    /**
     * A call that may throw {@code declared} (and unchecked exceptions) runs at {@code at}; {@code programCode}:
     * code of the program (or a library) may run in it; {@code jdkMayFail}: JDK code only, which may fail with
     * an unchecked exception it does not declare (see {@link #unchecked}).
     */
    private void throwsAt(Tree at, String what, List<? extends TypeMirror> declared, boolean programCode,
            boolean jdkMayFail) {
        List<TypeMirror> thrown = checked(declared);
        if (!thrown.isEmpty()) {
            escapeAll(at, what, thrown, false);
        }
        List<TypeMirror> unchecked = unchecked(programCode, jdkMayFail, declared);
        if (!unchecked.isEmpty()) {
            escapeAll(at, what, unchecked, true);
        }
    }

    /**
     * The try block of {@code tree}, a try-with-resources statement, has completed: Java closes each
     * resource that is not a session ({@code sessions}, whose close ends its own session) with an
     * implicit call of its {@code close()}, a throw point like any call (adv15 A1: a
     * {@code close() throws IOException} abandons a session live outside the statement, unless one of
     * its catches takes the exception). Called while the statement's own catches still guard.
     */
    void resourcesClosed(TryTree tree, List<Element> sessions) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        for (Tree resource : tree.getResources()) {
            com.sun.source.util.TreePath path = flow.pathOf(resource);
            Element variable = resource instanceof com.sun.source.tree.VariableTree ? flow.trees.getElement(path)
                    : flow.elementOf((com.sun.source.tree.ExpressionTree) resource);
            if (variable != null && sessions.contains(variable)) {
                continue;
            }
            TypeMirror type = variable != null && variable.getKind().isVariable() ? variable.asType()
                    : flow.trees.getTypeMirror(path);
            ExecutableElement close = closeMethod(type);
            if (close != null && !ThrowSites.inJdk(close, flow)) {
                implicitCallee(resource, close); // adv21 B9: an unchecked exit of the program's close() comes out here
            }
            if (close == null || sessionApi(close)) {
                continue;
            }
            List<? extends TypeMirror> declared = close.getThrownTypes();
            if (type instanceof javax.lang.model.type.DeclaredType declaredType
                    && flow.types.asMemberOf(declaredType, close) instanceof javax.lang.model.type.ExecutableType member) {
                declared = member.getThrownTypes();
            }
            String name = variable != null ? "'" + variable.getSimpleName() + "'" : "the resource";
            boolean programCode = !ThrowSites.inJdk(close, flow) || ThrowSites.mayBeProgramObject(type, flow);
            throwsAt(resource, "the close() of " + name + " (try-with-resources, at the end of its block on line "
                    + flow.line(tree) + ") throws", declared, programCode, !programCode);
        }
    }

    /** The {@code close()} a resource of {@code type} is closed with (the most specific one), or null. */
    private ExecutableElement closeMethod(TypeMirror type) {
        if (!(type instanceof javax.lang.model.type.DeclaredType declaredType)
                || !(declaredType.asElement() instanceof javax.lang.model.element.TypeElement owner)) {
            return null;
        }
        return flow.api.closeMethod(owner);
    }

    /** A {@code throw} runs (its exception evaluated). */
    void thrown(ThrowTree tree) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(tree.getExpression()));
        escapeAll(tree, "the throw on line " + flow.line(tree) + " runs", type == null ? List.of() : List.of(type), false);
    }

    /**
     * An {@code assert} has run its condition (and detail): with assertions enabled ({@code -ea}) a failing
     * one throws an {@code AssertionError} here, the program's own deliberate check, counted as a
     * {@code throw} is (adv15 A20; the field rule counts it too, SJ044).
     */
    void asserted(com.sun.source.tree.AssertTree tree) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        escapeAll(tree, "the assert on line " + flow.line(tree) + " fails (with -ea)",
                List.of(type("java.lang.AssertionError")), false);
    }

    /**
     * A throw point: {@code thrown} may leave here ({@code what} says how); {@code unchecked}: counted only
     * where a catch of this method swallows it.
     */
    private void escapeAll(Tree at, String what, List<TypeMirror> thrown, boolean unchecked) {
        escapeAll(at, what, thrown, unchecked, null);
    }

    /**
     * {@link #escapeAll(Tree, String, List, boolean)} for the sockets in {@code only} (null: every live one,
     * and the sessions of the finally blocks being read).
     */
    private void escapeAll(Tree at, String what, List<TypeMirror> thrown, boolean unchecked, Set<Element> only) {
        for (Element var : flow.state.variables()) {
            VarState state = beforeCall.containsKey(var) ? beforeCall.get(var) : flow.state.get(var);
            if (reported.contains(var) || only != null && !only.contains(var) || !live(state)
                    || flow.spawns.scopeMember(var)) {
                continue;
            }
            if (plainLocalSocket(var) || ownedParameter(var)) {
                escape(var, new Escape(at, what, thrown, state, unchecked, flow.spawns.scopeMemberOnSomePaths(var)
                        ? Escape.MEMBER_ON_SOME_PATHS : Escape.RESOURCE_OR_FINALLY), guards.iterator());
            }
        }
        if (only != null) {
            return;
        }
        for (Map<Element, Escape> running : finallies) {
            for (Map.Entry<Element, Escape> entry : running.entrySet()) {
                Element var = entry.getKey();
                Escape first = entry.getValue();
                if (!reported.contains(var) && flow.state.tracks(var) && !closedByFinally(flow.state.get(var))) {
                    // adv15 A17: the finally block runs for an exception that left the session live, and
                    // throws anew before its close: the new exception leaves with the session abandoned
                    escape(var, new Escape(at, what + " in the finally block run for the exception where "
                            + first.what(), thrown, first.state(), unchecked || first.unchecked(),
                            "close it first in the finally block"), guards.iterator());
                }
            }
        }
    }

    /**
     * The finally blocks being read from their exceptional entry, innermost first: the sessions an
     * exception runs each with while they are live and incomplete ({@link #enterFinally}).
     */
    private final Deque<Map<Element, Escape>> finallies = new ArrayDeque<>();

    /**
     * A finally block is read from its exceptional entry: until {@link #exitFinally}, each of its throw
     * points before a session's close is a throw point for the sessions in {@code throughFinally} (the
     * state the finally block is read in is that of the normal paths, where they may be complete).
     */
    void enterFinally(Map<Element, Escape> throughFinally) {
        finallies.push(throughFinally == null ? Map.of() : throughFinally);
    }

    /** The finally block of {@link #enterFinally} has been read. */
    void exitFinally() {
        finallies.pop();
    }

    private boolean plainLocalSocket(Element var) {
        VarInfo info = flow.infos.get(var);
        return info != null && info.kind() == Kind.SOCKET && var.getKind() == ElementKind.LOCAL_VARIABLE;
    }

    /** Whether {@code var} is a socket parameter of the method checked (not of a lambda in it). */
    private boolean lentParameter(Element var) {
        VarInfo info = flow.infos.get(var);
        return info != null && info.kind() == Kind.SOCKET && var.getKind() == ElementKind.PARAMETER
                && var.getEnclosingElement() instanceof ExecutableElement method && method.getParameters().contains(var);
    }

    /**
     * Whether {@code var} is a socket parameter whose session is this method's to end, checked as a plain
     * local (adv15 A18): the method ends it (closes, delegates, spawns: its callers take the call as the
     * end, so its exception paths must end it too, by a finally block or {@code try (s)}), or assigned it a
     * session of its own.
     */
    private boolean ownedParameter(Element var) {
        return lentParameter(var) && (ownParameters.contains(var) || flow.lent.ending(
                (ExecutableElement) var.getEnclosingElement(), (javax.lang.model.element.VariableElement) var) != null);
    }


    /**
     * Whether {@code state} is a session begun and not complete (on some path, for a maybe-null one; in
     * one of its states, for one an exception may have left at several points: adv15 A10, a catch block
     * that wraps and rethrows, and A17, a finally block that throws before its close).
     */
    private static boolean live(VarState state) {
        return state instanceof VarState.Live live && !live.complete()
                || state instanceof VarState.Nullable nullable && !nullable.session().complete()
                || state instanceof VarState.Unknown unknown && unknown.incomplete();
    }

    /**
     * Follows {@code escape} of {@code var} outwards through the remaining {@code guards}: inside the
     * variable's scope a resource, a catch or a finally block may cover it; once it has left the scope, a
     * checked escape is reported, and an unchecked one only where a catch of this method takes it and goes on.
     */
    private void escape(Element var, Escape escape, Iterator<Guard> outer) {
        int depth = scopeDepth(var);
        List<TypeMirror> thrown = escape.thrown(); // outside the scope, what a catch rethrows goes on (adv16 A14)
        while (outer.hasNext()) {
            Guard guard = outer.next();
            if (depth >= guard.scopeDepth()) {
                // the variable is declared inside this try statement: the exception leaves its scope
                if (!escape.unchecked()) {
                    break;
                }
                List<TypeMirror> onwards = new ArrayList<>();
                CatchClauses.Clause swallower = handlers.swallower(thrown, guard.clauses(), guard.jumpingFinally(), onwards);
                if (swallower != null) {
                    report(var, escape, swallower.finallyBlock() ? " an unchecked exception, which the finally block on "
                            + "line " + swallower.line() + " drops (it can end with a jump) and goes on"
                            : " an unchecked exception, which the catch on line " + swallower.line() + " takes and goes on");
                    return;
                }
                thrown = onwards;
                if (thrown.isEmpty()) {
                    return; // every catch that takes it ends the program (System.exit)
                }
                continue; // not taken here, or rethrown: on outwards (out of the method, the caller's affair)
            }
            if (guard.resources().contains(var)) {
                return; // try (s) { … }: Java closes it on the way out, and the runtime tells the peer
            }
            // the catch blocks of this statement start with the session live (and are checked from there):
            // what none of them surely takes goes on (an Error past a catch of RuntimeException)
            thrown = notCaught(thrown, guard.catches());
            if (thrown.isEmpty()) {
                return;
            }
            if (guard.throughFinally() != null) {
                // decided once the finally block is read; a checked escape outranks an unchecked one, which
                // counts only where a catch swallows it (the first of each kind would do; one is kept)
                Escape earlier = guard.throughFinally().get(var);
                if (earlier == null || earlier.unchecked() && !escape.unchecked()) {
                    guard.throughFinally().put(var, new Escape(escape.at(), escape.what(), thrown, escape.state(),
                            escape.unchecked(), escape.fix()));
                }
                return;
            }
        }
        if (!escape.unchecked()) {
            report(var, escape, "");
        } else if (flow.unitMethod == null && lambda()) {
            lambdaExit(flow.name(var), remains(escape.state()), escape.what(), thrown, false);
        } else if (flow.unitMethod != null) {
            // out of the method: the caller's affair, which its check follows (adv12 A6, UncheckedExits)
            flow.uncheckedExits.exit(flow.unitMethod, new UncheckedExits.Exit(flow.name(var),
                    flow.unitMethod.getKind() == ElementKind.CONSTRUCTOR ? flow.unitMethod.getEnclosingElement().getSimpleName().toString()
                            : flow.unitMethod.getSimpleName().toString(), remains(escape.state()), escape.what(), "", thrown), handlers);
        }
    }

    /** The types of {@code thrown} that no catch of {@code catches} surely takes. */
    private List<TypeMirror> notCaught(List<TypeMirror> thrown, List<TypeMirror> catches) {
        List<TypeMirror> left = new ArrayList<>();
        for (TypeMirror type : thrown) {
            if (!ThrowSites.caughtBy(List.of(type), catches, flow.types)) {
                left.add(type);
            }
        }
        return left;
    }

    private void report(Element var, Escape escape, String how) {
        VarState value = escape.state();
        if (reported.add(var)) {
            flow.reporter.error(escape.at(), Diagnostic.INCOMPLETE_SESSION, flow.name(var),
                    "if " + escape.what() + how + " (the exception leaves its scope and abandons the session: the peer "
                            + "would wait; " + escape.fix() + ")",
                    remains(value));
        }
    }

    /** What remains of a live session in {@code value} (a {@link #live} state), for a message. */
    private static String remains(VarState value) {
        return value instanceof VarState.Unknown unknown ? unknown.how()
                : TypeModel.describe((value instanceof VarState.Nullable nullable ? nullable.session()
                        : (VarState.Live) value).remaining());
    }

    /** Whether a finally block closed the session (not only the try block, on its normal path). */
    private static boolean closedByFinally(VarState state) {
        return state instanceof VarState.Moved moved && moved.how() != null
                && moved.how().startsWith(LinearityRules.CLOSED_IN_FINALLY);
    }

    /** How many scopes enclose {@code var}'s own (1 for the outermost); 0 if it is in none. */
    private int scopeDepth(Element var) {
        int depth = flow.scopes.size();
        for (Scope scope : flow.scopes) { // innermost first
            if (scope.vars.contains(var)) {
                return depth;
            }
            depth--;
        }
        return 0;
    }

    /** The session API's own code (its failures are session failures: see the class comment). */
    private boolean sessionApi(ExecutableElement method) {
        PackageElement pkg = flow.elements.getPackageOf(method);
        String name = pkg == null ? "" : pkg.getQualifiedName().toString();
        return name.equals("org.sessionj.api") || name.startsWith("org.sessionj.api.")
                || name.equals("org.sessionj.runtime") || name.startsWith("org.sessionj.runtime.");
    }

    /**
     * The exceptions a call of {@code method} at {@code call} declares, as instantiated there (adv15 A2:
     * {@code Optional.orElseThrow(IllegalStateException::new)} throws an {@code IllegalStateException}, not
     * the declaration's {@code X extends Throwable}; a {@code Task<RuntimeException>}'s {@code throws E} is
     * unchecked). A constructor's, or a call javac gave no method type, is read from its declaration.
     */
    private List<? extends TypeMirror> thrownAt(Tree call, ExecutableElement method) {
        if (call instanceof MethodInvocationTree invocation
                && flow.trees.getTypeMirror(flow.pathOf(invocation.getMethodSelect()))
                        instanceof javax.lang.model.type.ExecutableType instantiated) {
            return instantiated.getThrownTypes();
        }
        return method.getThrownTypes();
    }

    /** The checked exceptions among {@code declared} (a call's). */
    private List<TypeMirror> checked(List<? extends TypeMirror> declared) {
        TypeMirror runtime = type("java.lang.RuntimeException");
        TypeMirror error = type("java.lang.Error");
        List<TypeMirror> checked = new ArrayList<>();
        for (TypeMirror thrown : declared) {
            if (!flow.types.isSubtype(thrown, runtime) && !flow.types.isSubtype(thrown, error)) {
                checked.add(thrown);
            }
        }
        return checked;
    }

    /**
     * The unchecked exceptions a call is counted with: any ({@code RuntimeException}, {@code Error}) where
     * code of the program or a library may run in it ({@code programCode}: a call of such code, or of the
     * JDK given a receiver or argument that may be the program's — {@code IntSupplier.getAsInt()},
     * {@code o.toString()} on an {@code Object}, a lambda passed to {@code list.sort}: adv16 A6,
     * {@link ThrowSites#runsProgramCode}); else (JDK code given nothing of the program) the unchecked exceptions it declares ({@code Integer.parseInt}'s
     * {@code NumberFormatException}) and each one a catch around the call names as expected (adv16 A16:
     * {@code catch (DateTimeParseException e)} around {@code LocalDate.parse(text)}, which documents it
     * without declaring it; a broad catch, {@code catch (Exception e)}, expects every one: adv18 A12; see
     * {@link #expectedFailures}), unless {@code jdkMayFail} is false (a method that cannot fail for any argument,
     * {@link UnfailingJdkCalls}). The JDK's other unchecked failures are the program's bugs, like the JVM's own checks.
     */
    private List<TypeMirror> unchecked(boolean programCode, boolean jdkMayFail, List<? extends TypeMirror> declared) {
        TypeMirror runtime = type("java.lang.RuntimeException");
        TypeMirror error = type("java.lang.Error");
        List<TypeMirror> unchecked = new ArrayList<>();
        if (programCode) {
            unchecked.add(runtime);
            unchecked.add(error); // an assert of the program's, an Error it throws (adv16 A4: catch (Error e))
        }
        for (TypeMirror thrown : declared) {
            if (flow.types.isSubtype(thrown, runtime) || flow.types.isSubtype(thrown, error)) {
                unchecked.add(thrown);
            }
        }
        if (jdkMayFail) {
            unchecked.addAll(expectedFailures());
        }
        return unchecked;
    }

    /**
     * The unchecked exception types the catch clauses around the code being read name as expected (adv16
     * A16): a catch names the failure it expects its try block to have, so each call in that block may
     * throw it, whatever the callee declares. Not a type that is (or is a subtype or supertype of) one the
     * JVM throws by its own checks ({@link ThrowSites#jvmCheck}: {@code NullPointerException},
     * {@code ClassCastException}, an index, {@code VirtualMachineError}…): {@code catch (RuntimeException e)}
     * names no particular failure, and those are the program's bugs.
     */
    private List<TypeMirror> expectedFailures() {
        List<TypeMirror> expected = new ArrayList<>();
        for (Guard guard : guards) {
            expected.addAll(handlers.expectedFailures(guard.clauses()));
        }
        return expected;
    }

    /**
     * Java runs code that may be the program's where the source shows no call ({@link ImplicitCalls}: the
     * {@code toString()} of a string concatenation's operand, the {@code iterator()}, {@code hasNext()} and
     * {@code next()} of an enhanced for over an {@code Iterable}): a throw point of any unchecked exception,
     * as a call of the program's code is (adv16 A6).
     */
    void implicitCall(Tree at, String what) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        escapeAll(at, what + " (line " + flow.line(at) + ") throws",
                List.of(type("java.lang.RuntimeException"), type("java.lang.Error")), true);
    }

    /**
     * adv21 B9: Java or the JDK calls {@code callee}, a method of the program, at {@code at}, where the source shows no
     * call of it ({@link ImplicitCallees}): what an unchecked exit of it meets here, as for a call written out.
     */
    void implicitCallee(Tree at, ExecutableElement callee) {
        if (flow.state == null || flow.reporter.silent() || callee == null || ThrowSites.inJdk(callee, flow)
                || sessionApi(callee)) {
            return;
        }
        flow.uncheckedExits.call(callee, new UncheckedExits.Call(caller(), at, flow.root.getCompilationUnit(),
                flow.line(at), handlersAround(), heldIn()), handlers);
    }

    /**
     * adv21 B8: one of the JVM's own checks ({@link JvmChecks}) may throw {@code exception} at {@code at}: a throw point
     * of that unchecked exception, counted where a catch outside a live plain local session's scope, or a caller's,
     * takes it and goes on.
     */
    void jvmCheck(Tree at, String what, String exception) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        escapeAll(at, what, List.of(type(exception)), true);
    }

    /**
     * Whether a plain local session (or a parameter's this method ends) is live here and not reported yet: else a JVM
     * check records nothing ({@link JvmChecks}'s cost bound).
     */
    boolean anyLiveLocal() {
        if (flow.state == null || flow.reporter.silent()) {
            return false;
        }
        for (Element var : flow.state.variables()) {
            if (!reported.contains(var) && live(flow.state.get(var)) && (plainLocalSocket(var) || ownedParameter(var))) {
                return true;
            }
        }
        return !finallies.isEmpty();
    }

    /**
     * adv20 A6 (U07): a static field's first use runs its class's static initializer ({@link ImplicitCalls#staticField}),
     * which may fail with an {@code Error} ({@code ExceptionInInitializerError}): a throw point of that, counted as
     * an implicit call's is (a catch of {@code Exception} does not take it; one of {@code Throwable} does).
     */
    void initializer(Tree at, String what) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        escapeAll(at, what + " (line " + flow.line(at) + ") throws", List.of(type("java.lang.Error")), true);
    }

    private TypeMirror type(String name) {
        return flow.api.namedType(name);
    }

    // ------------------------------------------------------------------ try statements

    /** A try block of {@code tree} is about to be read (its resource scope pushed); returns its finally escapes. */
    Map<Element, Escape> enterTryBlock(TryTree tree) {
        Map<Element, Escape> throughFinally = tree.getFinallyBlock() == null ? null : new LinkedHashMap<>();
        List<TypeMirror> catches = new ArrayList<>();
        List<CatchClauses.Clause> clauses = handlers.of(tree);
        for (CatchClauses.Clause clause : clauses) {
            catches.addAll(clause.types());
        }
        CatchClauses.Clause jumpingFinally = handlers.jumpingFinally(tree);
        Set<Element> resources = new HashSet<>();
        for (Tree resource : tree.getResources()) {
            Element socket = resource instanceof com.sun.source.tree.ExpressionTree expression
                    ? flow.trackedSocket(expression) : null;
            if (socket != null) {
                resources.add(socket);
            }
        }
        guards.push(new Guard(flow.scopes.size(), catches, throughFinally, resources, clauses, jumpingFinally));
        return throughFinally;
    }

    /** The catch blocks of the statement are read now: what they throw runs only the finally block. */
    void enterCatches(Map<Element, Escape> throughFinally) {
        Guard tryGuard = guards.pop();
        guards.push(new Guard(tryGuard.scopeDepth(), List.of(), throughFinally, Set.of(), List.of(),
                tryGuard.jumpingFinally()));
    }

    /** The try and catch blocks are read. */
    void exitTry() {
        guards.pop();
    }

    /**
     * The finally block has been read from the exceptional paths and ends in {@code after}: a session
     * an exception left live that the finally block did not end (close) goes on outwards.
     */
    void afterFinally(Map<Element, Escape> throughFinally, FlowState<Element> after) {
        if (throughFinally == null || throughFinally.isEmpty() || after == null) {
            return; // no escape, or the finally block never completes normally (it throws or jumps)
        }
        for (Map.Entry<Element, Escape> entry : throughFinally.entrySet()) {
            if (after.tracks(entry.getKey()) && !closedByFinally(after.get(entry.getKey()))) {
                escape(entry.getKey(), entry.getValue(), guards.iterator());
            }
        }
    }
}
