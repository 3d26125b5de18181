package org.sessionj.processor.check;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.UnionTypeTree;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.type.TypeMirror;

/**
 * What the handlers of a try statement do with an exception that reaches them, for {@link LiveSessionExits}'
 * "swallow and go on" rule: which catch clause may take it, whether the program goes on after that clause
 * (not when its block ends in a {@code throw} or {@code System.exit}), what it throws on, and whether a finally
 * block that can end with a jump drops it (adv12 A6; adv16 A4, A5, A7, A14).
 */
final class CatchClauses {
    private final MethodChecker flow;

    CatchClauses(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * One catch clause of a try statement: its types (a union's alternatives), its line, whether the program goes
     * on after it (its block does not end in a {@code throw} or {@code System.exit} on every path), the
     * types of the exceptions its block throws ({@code rethrows}; {@code rethrowsItself}: it throws its
     * parameter, {@code throw e;}), and whether it is in fact a finally block that can end with a jump
     * ({@code finally { continue; }}: it drops any exception and goes on, adv16 A5); {@code runner}: null, or
     * how a message says what the JDK call this clause stands for does with the exception, a call that runs a
     * function on another thread and keeps what it throws ("'submit' on line 9 runs it on another thread: …",
     * adv20 A1, {@link FunctionRunners}), or a lazy stream operation whose stream is consumed where the checker
     * does not follow it (adv20 A4, {@link LazyStreams}).
     */
    record Clause(List<TypeMirror> types, long line, boolean swallows, List<TypeMirror> rethrows,
            boolean rethrowsItself, boolean finallyBlock, String runner) {
        /** A catch clause or a finally block (no runner). */
        Clause(List<TypeMirror> types, long line, boolean swallows, List<TypeMirror> rethrows, boolean rethrowsItself,
                boolean finallyBlock) {
            this(types, line, swallows, rethrows, rethrowsItself, finallyBlock, null);
        }

        /** How a message says what this clause does with an exception it takes ("the catch on line 9 takes it and goes on"). */
        String goesOn() {
            return runner != null ? runner
                    : finallyBlock ? "the finally block on line " + line + " drops it (it can end with a jump) and goes on"
                    : "the catch on line " + line + " takes it and goes on";
        }
    }

    /**
     * adv20 A1: the handler a function given to a JDK call that runs it on another thread meets instead of the try
     * statements around the call ({@link FunctionRunners}): it takes every exception, and the program goes on.
     * Null when the function at {@code function} is not given to such a call.
     */
    Clause runner(com.sun.source.util.TreePath function) {
        com.sun.source.util.TreePath call = FunctionRunners.runner(function, flow);
        if (call == null) {
            return null;
        }
        long line = flow.line(call.getLeaf());
        return new Clause(List.of(type("java.lang.Throwable")), line, true, List.of(), false, false,
                FunctionRunners.name(call.getLeaf(), flow) + " on line " + line
                        + " runs it on another thread: the exception ends there and the program goes on");
    }

    /** adv20 A4: where the function at {@code function} runs when it is given to a lazy stream operation ({@link LazyStreams}), or null. */
    LazyStreams.Lazy lazy(com.sun.source.util.TreePath function) {
        return LazyStreams.of(function, flow);
    }

    /**
     * adv20 A4: the handler a function given to the lazy stream operation {@code op} meets when the terminal
     * operation that runs it is not known here ({@link LazyStreams}): taken as one that takes every exception and
     * goes on.
     */
    Clause unfollowedStream(com.sun.source.util.TreePath op) {
        long line = flow.line(op.getLeaf());
        String name = op.getLeaf() instanceof MethodInvocationTree call ? FlowScanner.calleeName(call) : "the operation";
        return new Clause(List.of(type("java.lang.Throwable")), line, true, List.of(), false, false, "'" + name
                + "' on line " + line + " only records it, and its stream is consumed where the checker does not follow"
                + " it, taken as a catch that goes on");
    }

    /**
     * adv21 B1–B3: the handler a leaking function meets where it escapes the checker ({@link FunctionFates}):
     * {@code where} says how; taken as one that takes every exception and goes on.
     */
    Clause escape(String where) {
        return new Clause(List.of(type("java.lang.Throwable")), 0, true, List.of(), false, false,
                "the function escapes where the checker does not follow it (" + where + "), taken as a catch that goes"
                        + " on");
    }

    /** adv21 B1–B3: where the lambda or method reference at {@code function} runs ({@link FunctionFates}). */
    FunctionFates.Fate fate(com.sun.source.util.TreePath function) {
        return FunctionFates.of(function, this, flow);
    }

    /** The catch clauses of {@code tree}, in order. */
    List<Clause> of(TryTree tree) {
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
            List<TypeMirror> rethrows = new ArrayList<>();
            boolean itself = rethrows(catchTree, rethrows);
            clauses.add(new Clause(types, flow.line(catchTree), !alwaysThrows(catchTree.getBlock()), rethrows, itself,
                    false));
        }
        return clauses;
    }

    /** The finally block of {@code tree} as a clause that takes anything and goes on, when it can end with a jump; else null. */
    Clause jumpingFinally(TryTree tree) {
        return tree.getFinallyBlock() != null && TryStatements.jumpsOut(tree.getFinallyBlock())
                ? new Clause(List.of(type("java.lang.Throwable")), flow.line(tree.getFinallyBlock()), true, List.of(),
                        false, true)
                : null;
    }

    /**
     * The first of {@code clauses} (in order) that may take one of {@code thrown} and goes on after it,
     * or {@code jumpingFinally}, the statement's finally block when that can end with a jump and an exception reaches it; else null, with what
     * leaves the statement in {@code onwards}: the types no clause surely takes, and what the clauses that
     * may take them throw. A clause may take a type when its own type is a supertype of it, or a subtype
     * (adv16 A4: {@code catch (ValidationException e)} takes one of the "any unchecked exception" a call of
     * the program may throw); it surely takes it only in the first case, and later clauses do not see it.
     */
    Clause swallower(List<TypeMirror> thrown, List<Clause> clauses, Clause jumpingFinally, List<TypeMirror> onwards) {
        for (TypeMirror type : thrown) {
            boolean taken = false;
            for (Clause clause : clauses) {
                if (!mayTake(clause, type)) {
                    continue;
                }
                if (clause.swallows()) {
                    return clause;
                }
                if (clause.rethrowsItself()) {
                    onwards.add(type);
                }
                onwards.addAll(clause.rethrows());
                if (surelyTakes(clause, type)) {
                    taken = true;
                    break; // the next clauses of this statement do not see it
                }
            }
            if (!taken) {
                onwards.add(type);
            }
        }
        return !onwards.isEmpty() && jumpingFinally != null ? jumpingFinally : null;
    }

    /**
     * The unchecked exception types {@code clauses} expect of a JDK call (adv16 A16, and adv18 A3 for a caller's
     * catch): each one of the JDK's own classes a clause names (adv20 A3: a JDK call that runs no code of the
     * program cannot throw an {@code SJIOException} nor the program's {@code BookingException}) that the JVM does
     * not throw by its own checks, nor is a subtype or supertype of one ({@link ThrowSites#jvmCheck}); and {@code RuntimeException} for a clause that takes
     * every unchecked exception ({@code catch (Exception e)}, {@code RuntimeException}, {@code Throwable}:
     * adv18 A12), which takes the JDK's undeclared failures ({@code LocalDate.parse}'s) too. The JVM's own
     * checks are not counted all the same: no JDK call is taken to throw one, and the calls that cannot fail
     * otherwise are listed ({@link UnfailingJdkCalls}).
     */
    List<TypeMirror> expectedFailures(List<Clause> clauses) {
        List<TypeMirror> expected = new java.util.ArrayList<>();
        TypeMirror runtime = type("java.lang.RuntimeException");
        TypeMirror error = type("java.lang.Error");
        for (Clause clause : clauses) {
            if (clause.finallyBlock()) {
                continue;
            }
            for (TypeMirror caught : clause.types()) {
                TypeMirror erased = flow.types.erasure(caught);
                if ((flow.types.isSubtype(erased, runtime) || flow.types.isSubtype(erased, error))
                        && !ThrowSites.jvmCheck(erased, flow)) {
                    if (jdkClass(erased)) {
                        expected.add(erased); // adv20 A3: JDK code throws no SJIOException, no exception of the program's
                    }
                } else if (flow.types.isSubtype(runtime, erased)) {
                    expected.add(runtime); // adv18 A12: catch (Exception e) takes every JDK failure, the undeclared too
                }
            }
        }
        return expected;
    }

    /** Whether {@code type} is a class of the JDK's ({@link ThrowSites#inJdk}), the only ones JDK code throws. */
    private boolean jdkClass(TypeMirror type) {
        return type instanceof javax.lang.model.type.DeclaredType declared && ThrowSites.inJdk(declared.asElement(), flow);
    }

    /** Whether one of {@code clauses} takes every unchecked exception ({@code RuntimeException} or a supertype). */
    boolean takesEveryUnchecked(List<Clause> clauses) {
        return everyUncheckedTaker(clauses) != null;
    }

    /**
     * Whether one of {@code clauses} takes every unchecked exception and does not throw it on: a catch that throws
     * its own parameter ({@code catch (RuntimeException e) { log(e); throw e; }}) passes what it took to the
     * handlers outside, the JDK's undeclared failures included (adv19 A9: such a catch in a method between a JDK
     * call and a caller's catch that names the failure ended its way, and the program compiled).
     */
    boolean endsEveryUnchecked(List<Clause> clauses) {
        Clause taker = everyUncheckedTaker(clauses);
        return taker != null && !taker.rethrowsItself();
    }

    /** The first of {@code clauses} that takes every unchecked exception ({@code RuntimeException} or a supertype), or null. */
    private Clause everyUncheckedTaker(List<Clause> clauses) {
        TypeMirror runtime = type("java.lang.RuntimeException");
        for (Clause clause : clauses) {
            if (!clause.finallyBlock() && surelyTakes(clause, runtime)) {
                return clause;
            }
        }
        return null;
    }

    private boolean surelyTakes(Clause clause, TypeMirror type) {
        for (TypeMirror handler : clause.types()) {
            if (flow.types.isSubtype(flow.types.erasure(type), flow.types.erasure(handler))) {
                return true;
            }
        }
        return false;
    }

    /** Whether an exception of {@code type} (or of a subtype) may be one {@code clause} takes. */
    private boolean mayTake(Clause clause, TypeMirror type) {
        TypeMirror vmError = type("java.lang.VirtualMachineError");
        for (TypeMirror handler : clause.types()) {
            TypeMirror erased = flow.types.erasure(handler);
            if (flow.types.isSubtype(flow.types.erasure(type), erased)
                    || flow.types.isSubtype(erased, flow.types.erasure(type)) && !flow.types.isSubtype(erased, vmError)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The exceptions the block of {@code catchTree} throws (its {@code throw} statements, not those of a
     * lambda or class in it) into {@code into}; returns whether one of them throws the parameter itself
     * ({@code throw e;}, which rethrows what it took).
     */
    private boolean rethrows(CatchTree catchTree, List<TypeMirror> into) {
        javax.lang.model.element.Name parameter = catchTree.getParameter().getName();
        boolean[] itself = {false};
        com.sun.source.util.TreePath blockPath = flow.pathOf(catchTree.getBlock());
        if (blockPath == null) {
            return true;
        }
        new com.sun.source.util.TreePathScanner<Void, Void>() {
            @Override
            public Void visitThrow(ThrowTree statement, Void unused) {
                Tree expression = FlowScanner.strip(statement.getExpression());
                if (expression instanceof com.sun.source.tree.IdentifierTree name && name.getName().equals(parameter)) {
                    itself[0] = true;
                } else {
                    addKnown(into, flow.trees.getTypeMirror(new com.sun.source.util.TreePath(getCurrentPath(),
                            statement.getExpression())));
                }
                return super.visitThrow(statement, unused);
            }

            @Override
            public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree lambda, Void unused) {
                return null; // another body
            }

            @Override
            public Void visitClass(com.sun.source.tree.ClassTree local, Void unused) {
                return null; // another body
            }
        }.scan(blockPath, null);
        return itself[0];
    }

    /**
     * Whether {@code statement} ends in a {@code throw} or ends the program ({@code System.exit},
     * {@code Runtime.getRuntime().halt}: adv16 A7) on every path (a catch that rethrows, wraps or gives
     * up): a throw, such a call as a statement, a block whose last statement always does, an if/else whose
     * branches both do. Anything else (a return, a loop, a switch) is taken as going on, which only counts
     * more catches as swallowing.
     */
    private static boolean alwaysThrows(StatementTree statement) {
        // instanceof, not a pattern switch: see NoPatternSwitchTest (the processor is loaded afresh for every compilation)
        if (statement instanceof ThrowTree) {
            return true;
        }
        if (statement instanceof com.sun.source.tree.ExpressionStatementTree expression
                && expression.getExpression() instanceof MethodInvocationTree call) {
            String callee = call.getMethodSelect().toString();
            return callee.equals("System.exit") || callee.equals("java.lang.System.exit")
                    || callee.equals("Runtime.getRuntime().exit") || callee.equals("Runtime.getRuntime().halt");
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

    private TypeMirror type(String name) {
        return flow.elements.getTypeElement(name).asType();
    }
}
