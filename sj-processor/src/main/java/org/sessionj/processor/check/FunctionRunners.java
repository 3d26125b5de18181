package org.sessionj.processor.check;

import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.util.TreePath;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * adv20 A1: a method reference or lambda given to a JDK method that runs it on another thread and keeps what it
 * throws — an executor's {@code submit}, {@code execute} or {@code schedule}, a {@code CompletableFuture}'s
 * {@code runAsync}, {@code supplyAsync}, {@code thenApply}, {@code exceptionally}… (any method of a
 * {@code CompletionStage}), a {@code Thread}'s body, or a session thread's ({@code SJ.spawn}) — does not run in
 * the call it is given to, and nothing it throws comes out of that call: the JDK (or the runtime) catches it
 * there, and hands it back later wrapped ({@code ExecutionException} from {@code Future.get()},
 * {@code CompletionException} from {@code join()}, the argument of {@code exceptionally}, {@code SJException}
 * from {@code SJThread.join()}), or to the thread's uncaught-exception handler, while the program — the pool,
 * the thread that gave it — goes on. Such a call is a handler that takes every exception and goes on: an
 * unchecked exit of a live plain local session out of the function's body (or out of a method it calls, or the
 * method referred to) is SJ024 whatever the try statements around the call do ({@link UncheckedExits}).
 * Recognised only where the function is an argument of the call (through parentheses and casts); one held in a
 * variable and given later is taken to run where it stands ({@link HeldFunctions}).
 */
final class FunctionRunners {
    private FunctionRunners() {
    }

    /**
     * The call that runs the function at {@code function} (a lambda or a method reference) on another thread and
     * keeps its failure (see the class comment), as its path; else null.
     */
    static TreePath runner(TreePath function, MethodChecker flow) {
        Tree child = function.getLeaf();
        TreePath up = function.getParentPath();
        while (up != null && (up.getLeaf() instanceof ParenthesizedTree || up.getLeaf() instanceof TypeCastTree)) {
            child = up.getLeaf();
            up = up.getParentPath();
        }
        if (up == null) {
            return null;
        }
        List<? extends Tree> arguments = up.getLeaf() instanceof MethodInvocationTree invocation ? invocation.getArguments()
                : up.getLeaf() instanceof NewClassTree creation ? creation.getArguments() : List.of();
        if (!arguments.contains(child) || !(flow.trees.getElement(up) instanceof ExecutableElement method)) {
            return null;
        }
        return runsElsewhere(method, flow) ? up : null;
    }

    /** What a message calls the runner at {@code call}: "'submit'", "the Thread constructor". */
    static String name(Tree call, MethodChecker flow) {
        if (call instanceof MethodInvocationTree invocation) {
            return "'" + FlowScanner.calleeName(invocation) + "'";
        }
        return "the " + (call instanceof NewClassTree creation ? creation.getIdentifier().toString() : "") + " constructor";
    }

    /**
     * Whether a call of {@code method} runs the functions given to it on another thread and keeps (or ends the
     * thread with) what they throw: see the class comment.
     */
    static boolean runsElsewhere(ExecutableElement method, MethodChecker flow) {
        Element owner = method.getEnclosingElement();
        if (!(owner instanceof TypeElement type)) {
            return false;
        }
        String name = method.getSimpleName().toString();
        if (type.getQualifiedName().contentEquals("org.sessionj.api.SJ")) {
            return name.equals("spawn"); // the session thread logs the body's failure; SJThread.join() raises it
        }
        if (!ThrowSites.inJdk(method, flow)) {
            return false; // the program's own executor is code the checker reads (it may run the task in place)
        }
        if (method.getKind() == ElementKind.CONSTRUCTOR) {
            return subtype(type, "java.lang.Thread", flow); // new Thread(() -> …): the body runs in the thread started later
        }
        switch (name) {
            case "execute":
                return subtype(type, "java.util.concurrent.Executor", flow);
            case "submit":
                return subtype(type, "java.util.concurrent.ExecutorService", flow);
            case "schedule":
            case "scheduleAtFixedRate":
            case "scheduleWithFixedDelay":
                return subtype(type, "java.util.concurrent.ScheduledExecutorService", flow);
            case "startVirtualThread":
                return type.getQualifiedName().contentEquals("java.lang.Thread");
            case "start":
            case "unstarted":
            case "newThread":
                return subtype(type, "java.lang.Thread.Builder", flow) || subtype(type, "java.util.concurrent.ThreadFactory", flow);
            default:
                // a CompletableFuture's stages run their functions (async, or when the stage before completes) and
                // complete exceptionally with what they throw
                return subtype(type, "java.util.concurrent.CompletionStage", flow);
        }
    }

    /** Whether {@code type} is (a subtype of) the JDK type {@code name}. */
    private static boolean subtype(TypeElement type, String name, MethodChecker flow) {
        TypeElement base = flow.elements.getTypeElement(name);
        if (base == null) {
            return false;
        }
        TypeMirror erased = flow.types.erasure(type.asType());
        return flow.types.isSubtype(erased, flow.types.erasure(base.asType()));
    }
}
