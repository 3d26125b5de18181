package org.sessionj.processor.check;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.UnionTypeTree;
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
 * Invariant (adv12 A6, SJ024 on the exception paths): <em>no exception of the program's own code leaves
 * the scope of a plain local socket variable while its session is live and incomplete</em>. Such an
 * exception abandons the session without telling the peer, which then waits for an action that never
 * comes. A try-with-resources resource is closed by Java on the way out (the runtime then fails the
 * session and tells the peer), so resources are not concerned; nor are parameters (the caller's
 * session: the call is a throw point of the caller).
 *
 * <p>The throw points counted are the program's expected failures: a call (of the program, a library or
 * the JDK, not of the session API) that declares a checked exception ({@code Thread.sleep}, a file
 * read, the program's own {@code throws IOException}), and a {@code throw} statement. An unchecked
 * exception out of a call — any exception for the code of the program or a library, the declared ones
 * ({@code Integer.parseInt}'s {@code NumberFormatException}) for the JDK's — counts only where a catch
 * of the same method outside the variable's scope takes it and goes on (its block does not end in a
 * {@code throw}): the "swallow and go on" case, where the program outlives the abandoned session
 * (adv12 A6). Elsewhere it is not counted: an unchecked exception that leaves the method is the
 * caller's affair (which the checker does not follow), and counting every call would make every
 * session held in a plain local need try-with-resources (two translated programs of the original SJ
 * corpus were rejected so). Not counted either: the JVM's own checks (a null dereference, an index, a
 * cast), which are the program's bugs; and session actions: an action that throws has failed its own
 * session and told the peer (the runtime does it), and a failure of one session's I/O is the
 * connection's, not the program's — counting it for the other sessions would make every program with
 * two sessions in plain locals need try-with-resources.
 *
 * <p>Such a point is covered when the exception it may throw (the checked exceptions a call declares, the
 * thrown expression's type) is taken by a catch of a try statement inside the variable's
 * scope (that catch block starts from the live state and is checked like any other code), or runs a
 * finally block inside that scope after which the session is no longer live (it closed it).
 */
final class LiveSessionExits {
    private final MethodChecker flow;

    LiveSessionExits(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * One try statement being read: how many scopes enclose its block (its resource scope counted), its
     * catch types while the try block is read (none while its catch blocks are), and, with a finally
     * block, the sessions an exception runs it with while they are live, checked once it has been read.
     */
    private record Guard(int scopeDepth, List<TypeMirror> catches, Map<Element, Escape> throughFinally,
            Set<Element> resources, List<Clause> clauses) {
    }

    /**
     * One catch clause of a guard: its types (a union's alternatives), its line, and whether the program
     * goes on after it (its block does not end in a {@code throw} on every path).
     */
    private record Clause(List<TypeMirror> types, long line, boolean swallows) {
    }

    /**
     * A point that may throw {@code thrown} ({@code what} says which point) with a socket in {@code state};
     * {@code unchecked} when what it may throw is unchecked: then it counts only where a catch of this
     * method outside the socket's scope takes the exception and goes on (see the class comment).
     */
    record Escape(Tree at, String what, List<TypeMirror> thrown, VarState state, boolean unchecked) {
    }

    /** Innermost first. */
    private final Deque<Guard> guards = new ArrayDeque<>();

    /** The sockets already reported (once each). */
    private final Set<Element> reported = new HashSet<>();

    /** A call of {@code callee} runs at {@code call} (its arguments evaluated). */
    void callPoint(Tree call, Element callee) {
        if (flow.state == null || flow.reporter.silent() || !(callee instanceof ExecutableElement method)
                || sessionApi(method)) {
            return;
        }
        String name = call instanceof MethodInvocationTree invocation ? "the call of '" + FlowScanner.calleeName(invocation) + "'"
                : call instanceof NewClassTree ? "the constructor call" : "the call";
        List<? extends TypeMirror> declared = thrownAt(call, method);
        List<TypeMirror> thrown = checked(declared);
        if (!thrown.isEmpty()) {
            escapeAll(call, name + " on line " + flow.line(call) + " throws", thrown, false);
        }
        List<TypeMirror> unchecked = unchecked(method, declared);
        if (!unchecked.isEmpty()) {
            escapeAll(call, name + " on line " + flow.line(call) + " throws", unchecked, true);
        }
    }

    /** A {@code throw} runs (its exception evaluated). */
    void thrown(ThrowTree tree) {
        if (flow.state == null || flow.reporter.silent()) {
            return;
        }
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(tree.getExpression()));
        escapeAll(tree, "the throw on line " + flow.line(tree) + " runs", type == null ? List.of() : List.of(type), false);
    }

    private void escapeAll(Tree at, String what, List<TypeMirror> thrown, boolean unchecked) {
        for (Element var : flow.state.variables()) {
            VarState state = flow.state.get(var);
            if (!reported.contains(var) && plainLocalSocket(var) && live(state)) {
                escape(var, new Escape(at, what, thrown, state, unchecked), guards.iterator());
            }
        }
    }

    private boolean plainLocalSocket(Element var) {
        VarInfo info = flow.infos.get(var);
        return info != null && info.kind() == Kind.SOCKET && var.getKind() == ElementKind.LOCAL_VARIABLE;
    }

    /** Whether {@code state} is a session begun and not complete (on some path, for a maybe-null one). */
    private static boolean live(VarState state) {
        return state instanceof VarState.Live live && !live.complete()
                || state instanceof VarState.Nullable nullable && !nullable.session().complete();
    }

    /**
     * Follows {@code escape} of {@code var} outwards through the remaining {@code guards}: inside the
     * variable's scope a resource, a catch or a finally block may cover it; once it has left the scope, a
     * checked escape is reported, and an unchecked one only where a catch of this method takes it and goes on.
     */
    private void escape(Element var, Escape escape, Iterator<Guard> outer) {
        int depth = scopeDepth(var);
        while (outer.hasNext()) {
            Guard guard = outer.next();
            if (depth >= guard.scopeDepth()) {
                // the variable is declared inside this try statement: the exception leaves its scope
                if (!escape.unchecked()) {
                    break;
                }
                Clause swallower = swallower(escape.thrown(), guard.clauses());
                if (swallower != null) {
                    report(var, escape, " an unchecked exception, which the catch on line " + swallower.line()
                            + " takes and goes on");
                    return;
                }
                continue; // not taken here, or rethrown: on outwards (out of the method, the caller's affair)
            }
            if (guard.resources().contains(var)) {
                return; // try (s) { … }: Java closes it on the way out, and the runtime tells the peer
            }
            if (ThrowSites.caughtBy(escape.thrown(), guard.catches(), flow.types)) {
                return; // the catch block starts with the session live (and is checked from there)
            }
            if (guard.throughFinally() != null) {
                // decided once the finally block is read; a checked escape outranks an unchecked one, which
                // counts only where a catch swallows it (the first of each kind would do; one is kept)
                Escape earlier = guard.throughFinally().get(var);
                if (earlier == null || earlier.unchecked() && !escape.unchecked()) {
                    guard.throughFinally().put(var, escape);
                }
                return;
            }
        }
        if (!escape.unchecked()) {
            report(var, escape, "");
        }
    }

    private void report(Element var, Escape escape, String how) {
        VarState value = escape.state();
        if (reported.add(var)) {
            VarState.Live session = value instanceof VarState.Nullable nullable ? nullable.session() : (VarState.Live) value;
            flow.reporter.error(escape.at(), Diagnostic.INCOMPLETE_SESSION, flow.name(var),
                    "if " + escape.what() + how + " (the exception leaves its scope and abandons the session: the peer "
                            + "would wait; declare it in try-with-resources, or close it in a finally block)",
                    TypeModel.describe(session.remaining()));
        }
    }

    /**
     * The first catch clause (in order) that takes one of {@code thrown} and goes on after it, or null: each
     * exception type goes to the first clause whose type is a supertype of it.
     */
    private Clause swallower(List<TypeMirror> thrown, List<Clause> clauses) {
        for (TypeMirror type : thrown) {
            for (Clause clause : clauses) {
                if (takes(clause, type)) {
                    if (clause.swallows()) {
                        return clause;
                    }
                    break; // rethrown: the next clauses of this statement do not see it
                }
            }
        }
        return null;
    }

    private boolean takes(Clause clause, TypeMirror type) {
        for (TypeMirror handler : clause.types()) {
            if (flow.types.isSubtype(flow.types.erasure(type), flow.types.erasure(handler))) {
                return true;
            }
        }
        return false;
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
     * The unchecked exceptions a call of {@code method} is counted with: any ({@code RuntimeException}) for
     * code outside the JDK (the program's or a library's: it may fail in any way), the unchecked exceptions it
     * declares for the JDK's ({@code Integer.parseInt}'s {@code NumberFormatException}; its other methods'
     * unchecked failures are the program's bugs, like the JVM's own checks).
     */
    private List<TypeMirror> unchecked(ExecutableElement method, List<? extends TypeMirror> declared) {
        TypeMirror runtime = type("java.lang.RuntimeException");
        TypeMirror error = type("java.lang.Error");
        List<TypeMirror> unchecked = new ArrayList<>();
        if (!ThrowSites.inJdk(method, flow)) {
            unchecked.add(runtime);
        }
        for (TypeMirror thrown : declared) {
            if (flow.types.isSubtype(thrown, runtime) || flow.types.isSubtype(thrown, error)) {
                unchecked.add(thrown);
            }
        }
        return unchecked;
    }

    private TypeMirror type(String name) {
        return flow.elements.getTypeElement(name).asType();
    }

    // ------------------------------------------------------------------ try statements

    /** A try block of {@code tree} is about to be read (its resource scope pushed); returns its finally escapes. */
    Map<Element, Escape> enterTryBlock(TryTree tree) {
        Map<Element, Escape> throughFinally = tree.getFinallyBlock() == null ? null : new LinkedHashMap<>();
        List<TypeMirror> catches = new ArrayList<>();
        List<Clause> clauses = new ArrayList<>();
        for (CatchTree catchTree : tree.getCatches()) {
            Tree type = catchTree.getParameter().getType();
            List<TypeMirror> types = new ArrayList<>();
            if (type instanceof UnionTypeTree union) {
                for (Tree alternative : union.getTypeAlternatives()) {
                    addKnown(types, flow.trees.getTypeMirror(flow.pathOf(alternative)));
                }
            } else {
                addKnown(types, flow.trees.getTypeMirror(flow.pathOf(type)));
            }
            catches.addAll(types);
            clauses.add(new Clause(types, flow.line(catchTree), !alwaysThrows(catchTree.getBlock())));
        }
        Set<Element> resources = new HashSet<>();
        for (Tree resource : tree.getResources()) {
            Element socket = resource instanceof com.sun.source.tree.ExpressionTree expression
                    ? flow.trackedSocket(expression) : null;
            if (socket != null) {
                resources.add(socket);
            }
        }
        guards.push(new Guard(flow.scopes.size(), catches, throughFinally, resources, clauses));
        return throughFinally;
    }

    /**
     * Whether {@code statement} ends in a {@code throw} on every path (a catch that rethrows or wraps): a
     * throw, a block whose last statement always throws, an if/else whose branches both do. Anything else
     * (a return, a loop, a switch) is taken as going on, which only counts more catches as swallowing.
     */
    private static boolean alwaysThrows(StatementTree statement) {
        // instanceof, not a pattern switch: see NoPatternSwitchTest (the processor is loaded afresh for every compilation)
        if (statement instanceof ThrowTree) {
            return true;
        }
        if (statement instanceof BlockTree block) {
            return !block.getStatements().isEmpty()
                    && alwaysThrows(block.getStatements().get(block.getStatements().size() - 1));
        }
        return statement instanceof IfTree branch && branch.getElseStatement() != null
                && alwaysThrows(branch.getThenStatement()) && alwaysThrows(branch.getElseStatement());
    }

    private static void addKnown(List<TypeMirror> catches, TypeMirror type) {
        if (type != null) {
            catches.add(type);
        }
    }

    /** The catch blocks of the statement are read now: what they throw runs only the finally block. */
    void enterCatches(Map<Element, Escape> throughFinally) {
        Guard tryGuard = guards.pop();
        guards.push(new Guard(tryGuard.scopeDepth(), List.of(), throughFinally, Set.of(), List.of()));
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
