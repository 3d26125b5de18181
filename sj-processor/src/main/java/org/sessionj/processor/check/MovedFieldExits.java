package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssertTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnionTypeTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;

/**
 * Invariant: <em>no exception leaves a method while one of its class's {@code @NoAlias} fields is
 * moved out</em> (SJ044). Between {@code s.pass(ghost)} and {@code ghost = s.receive()} the field
 * still refers to the array the peer now owns; if the receive throws and the exception leaves the
 * method, the caller (or whoever holds the object) would go on with an object whose field is shared.
 * So every point in that window where Java may throw — a call (session operations included, also
 * after the call that took the value, which may fail after taking it), a {@code throw}, an
 * {@code assert}, an array access, a cast, an integer division, a dereference of something other
 * than {@code this}, an array creation of a non-constant size — must be covered by a
 * {@code catch} that takes what it may throw (and then refills the field before the catch ends or
 * rethrows: the catch is checked from the moved state) or by a {@code finally} block that refills it.
 * {@code VirtualMachineError}s (out of memory, stack overflow) are not counted: the JLS lets them
 * happen anywhere, and no refill could then be exception-free.
 */
final class MovedFieldExits {
    private final MethodChecker flow;

    MovedFieldExits(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * One try statement being read: its catch types while the try block is read (none while its catch
     * blocks are), and, with a finally block, the exceptions that run it with a field moved out
     * (field to the first throw point), checked again once the finally block has been read.
     */
    private static final class Guard {
        final List<TypeMirror> catches;
        final Map<Element, Escape> throughFinally;

        Guard(List<TypeMirror> catches, Map<Element, Escape> throughFinally) {
            this.catches = catches;
            this.throughFinally = throughFinally;
        }
    }

    /** A point that may throw {@code thrown} with a field moved out ({@code what} says which point). */
    record Escape(Tree at, String what, List<TypeMirror> thrown) {
    }

    /** Innermost first. */
    private final Deque<Guard> guards = new ArrayDeque<>();

    /** Whether the body tracks a {@code @NoAlias} field at all (else nothing here has work to do). */
    private boolean active;

    /** The body tracks its class's {@code @NoAlias} fields. */
    void activate() {
        active = true;
    }

    boolean active() {
        return active && flow.state != null;
    }

    /** Whether {@code tree} may throw an exception other than a VirtualMachineError. */
    boolean mayThrow(Tree tree) {
        return switch (tree) {
            case MethodInvocationTree call -> true;
            case NewClassTree creation -> true;
            case AssertTree check -> true;
            case ArrayAccessTree access -> true;
            case TypeCastTree cast -> !cast.getType().getKind().equals(Tree.Kind.PRIMITIVE_TYPE);
            case NewArrayTree array -> array.getDimensions().stream()
                    .anyMatch(dimension -> !(FlowScanner.strip(dimension) instanceof LiteralTree));
            case BinaryTree binary -> (binary.getKind() == Tree.Kind.DIVIDE || binary.getKind() == Tree.Kind.REMAINDER)
                    && integral(binary);
            case MemberSelectTree select -> dereferences(select);
            default -> false;
        };
    }

    private boolean integral(BinaryTree binary) {
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(binary));
        return type != null && (type.getKind() == TypeKind.INT || type.getKind() == TypeKind.LONG);
    }

    /** {@code x.f} or {@code x.m} with {@code x} an object that may be null (not {@code this}, not a type). */
    private boolean dereferences(MemberSelectTree select) {
        ExpressionTree target = FlowScanner.strip(select.getExpression());
        if (target instanceof com.sun.source.tree.IdentifierTree identifier
                && (identifier.getName().contentEquals("this") || identifier.getName().contentEquals("super"))) {
            return false;
        }
        Element element = flow.elementOf(target);
        return element == null || !(element.getKind().isClass() || element.getKind().isInterface()
                || element.getKind() == javax.lang.model.element.ElementKind.PACKAGE);
    }

    /** What {@code tree} may throw (besides VirtualMachineErrors). */
    private List<TypeMirror> thrown(Tree tree) {
        List<TypeMirror> thrown = new ArrayList<>();
        switch (tree) {
            case ThrowTree throwTree -> thrown.add(flow.trees.getTypeMirror(flow.pathOf(throwTree.getExpression())));
            case AssertTree check -> thrown.add(type("java.lang.AssertionError"));
            case MethodInvocationTree call -> {
                thrown.add(type("java.lang.RuntimeException"));
                if (flow.elementOf(call) instanceof ExecutableElement method) {
                    thrown.addAll(method.getThrownTypes());
                }
            }
            case NewClassTree creation -> {
                thrown.add(type("java.lang.RuntimeException"));
                if (flow.trees.getElement(flow.pathOf(creation)) instanceof ExecutableElement constructor) {
                    thrown.addAll(constructor.getThrownTypes());
                }
            }
            default -> thrown.add(type("java.lang.RuntimeException"));
        }
        return thrown;
    }

    private TypeMirror type(String name) {
        return flow.elements.getTypeElement(name).asType();
    }

    /**
     * Code that may throw runs at {@code at} ({@code what}: e.g. "the call of 'receive' on line 9"):
     * a field moved out now must be refilled on the way out by a catch that takes the exception or a
     * finally block; else the exception leaves the method with the field moved out (SJ044).
     */
    void throwPoint(Tree at) {
        throwPoint(at, false);
    }

    /** {@link #throwPoint(Tree)}; {@code after}: the call at {@code at} has taken its arguments already. */
    void throwPoint(Tree at, boolean after) {
        if (!active() || flow.reporter.silent()) {
            return; // a silent pass is read again aloud (loop probes) or was already (finally replays)
        }
        List<Element> moved = new ArrayList<>();
        for (Element var : flow.state.variables()) {
            VarInfo info = flow.infos.get(var);
            if (info != null && info.kind() == Kind.NOALIAS_FIELD && flow.state.get(var) instanceof VarState.Moved) {
                moved.add(var);
            }
        }
        if (moved.isEmpty()) {
            return;
        }
        Escape escape = new Escape(at, describe(at) + (at instanceof ThrowTree ? " runs"
                : after ? " throws (it may fail after taking the value)" : " throws"), thrown(at));
        for (Element var : moved) {
            escape(var, escape, guards.iterator());
        }
    }

    private String describe(Tree at) {
        String where = " on line " + flow.line(at);
        return switch (at) {
            case MethodInvocationTree call -> "the call of '" + FlowScanner.calleeName(call) + "'" + where;
            case NewClassTree creation -> "the constructor call" + where;
            case ThrowTree throwTree -> "the throw" + where;
            case AssertTree check -> "the assert" + where;
            case ArrayAccessTree access -> "the array access" + where;
            case TypeCastTree cast -> "the cast" + where;
            case NewArrayTree array -> "the array creation" + where;
            case BinaryTree binary -> "the division" + where;
            case TryTree statement -> "closing the resources of the try statement" + where;
            default -> "'" + at + "'" + where;
        };
    }

    /** Follows {@code escape} of {@code var} outwards through the remaining {@code guards}. */
    private void escape(Element var, Escape escape, java.util.Iterator<Guard> outer) {
        while (outer.hasNext()) {
            Guard guard = outer.next();
            if (ThrowSites.caughtBy(escape.thrown(), guard.catches, flow.types)) {
                return; // the catch block starts with the field moved out (it must refill it)
            }
            if (guard.throughFinally != null) {
                guard.throughFinally.putIfAbsent(var, escape); // decided once the finally block is read
                return;
            }
        }
        VarState value = flow.state == null ? null : flow.state.get(var);
        if (value instanceof VarState.Moved moved) {
            flow.reporter.error(escape.at(), Diagnostic.FIELD_NOT_REFILLED, flow.infos.get(var).name(), moved.how(),
                    "on the exceptional paths too: if " + escape.what() + ", the exception leaves the method with "
                            + "the field still referring to the moved value (refill it in a finally block, or in a "
                            + "catch block that takes the exception)");
            flow.fail(var);
        }
    }

    // ------------------------------------------------------------------ try statements

    /** A try block of {@code tree} is about to be read; returns its finally escapes (null: no finally). */
    Map<Element, Escape> enterTryBlock(TryTree tree) {
        Map<Element, Escape> throughFinally = tree.getFinallyBlock() == null ? null : new LinkedHashMap<>();
        List<TypeMirror> catches = new ArrayList<>();
        for (CatchTree catchTree : tree.getCatches()) {
            Tree type = catchTree.getParameter().getType();
            // loops, not lambdas: the processor is loaded afresh per compilation, and so is each lambda linked
            if (type instanceof UnionTypeTree union) {
                for (Tree alternative : union.getTypeAlternatives()) {
                    addKnown(catches, typeOf(alternative));
                }
            } else {
                addKnown(catches, typeOf(type));
            }
        }
        guards.push(new Guard(catches, throughFinally));
        return throughFinally;
    }

    private static void addKnown(List<TypeMirror> catches, TypeMirror type) {
        if (type != null) {
            catches.add(type);
        }
    }

    private TypeMirror typeOf(Tree type) {
        return flow.trees.getTypeMirror(flow.pathOf(type));
    }

    /** The catch blocks of the statement are read now: what they throw runs only the finally block. */
    void enterCatches(Map<Element, Escape> throughFinally) {
        guards.pop();
        guards.push(new Guard(List.of(), throughFinally));
    }

    /** The try and catch blocks are read. */
    void exitTry() {
        guards.pop();
    }

    /**
     * The finally block has been read from the exceptional paths and ends in {@code after}: a field an
     * exception left moved out that the finally block did not refill goes on outwards.
     */
    void afterFinally(Map<Element, Escape> throughFinally, FlowState<Element> after) {
        if (throughFinally == null || throughFinally.isEmpty() || after == null) {
            return; // no escape, or the finally block never completes normally (it throws or jumps)
        }
        FlowState<Element> saved = flow.state;
        flow.state = after; // the state the exception leaves the finally block with
        try {
            throughFinally.forEach((var, escape) -> {
                if (after.get(var) instanceof VarState.Moved) {
                    escape(var, escape, guards.iterator());
                }
            });
        } finally {
            flow.state = saved;
        }
    }
}
