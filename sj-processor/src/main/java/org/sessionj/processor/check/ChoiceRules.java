package org.sessionj.processor.check;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.ConstantCaseLabelTree;
import com.sun.source.tree.DefaultCaseLabelTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.PatternCaseLabelTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.check.FlowScanner.Frame;
import org.sessionj.processor.check.FlowScanner.Scope;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.model.TypeText;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/** Choices: {@code outbranch(L)} selects a label; a {@code switch (s.inbranch())} must cover each label. */
final class ChoiceRules {
    private final MethodChecker flow;
    /** Label variables declared by {@link #labelDeclaration}, each with its socket, until their switch. */
    private final Map<Element, Element> receivedLabels = new HashMap<>();

    ChoiceRules(MethodChecker flow) {
        this.flow = flow;
    }

    void outbranch(Element var, ExpressionTree argument, Tree call) {
        VarState.Live live = flow.actions.usable(var, call);
        if (live == null) {
            return;
        }
        String name = flow.name(var);
        String label = constantLabel(argument);
        if (label == null) {
            flow.reporter.error(argument, Diagnostic.NON_CONSTANT_LABEL, name, argument);
            flow.fail(var);
            return;
        }
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Select select)) {
            flow.reporter.error(call, Diagnostic.WRONG_ACTION, name, SessionActionRules.expected(unfolded, live),
                    "selects '" + label + "' (outbranch)" + SessionActionRules.hint(unfolded, live, Action.Select.class));
            flow.fail(var);
            return;
        }
        SessionType branch = select.branches().get(label);
        if (branch == null) {
            flow.reporter.error(argument, Diagnostic.UNKNOWN_LABEL, name, label, TypeText.labels(select.branches()),
                    TypeModel.printAction(select));
            flow.fail(var);
            return;
        }
        flow.linearity.actionPoint(var, call);
        flow.set(var, new VarState.Live(branch.then(unfolded.tail()), live.iterations()));
        flow.lastActions.put(var, call);
    }

    /** The label a constant expression denotes: a string constant or an enum constant's name. */
    String constantLabel(ExpressionTree argument) {
        ExpressionTree stripped = FlowScanner.strip(argument);
        if (stripped instanceof LiteralTree literal) {
            return literal.getValue() instanceof String text ? text : null;
        }
        Element element = flow.elementOf(stripped);
        if (element instanceof VariableElement variable) {
            if (variable.getKind() == ElementKind.ENUM_CONSTANT) {
                return variable.getSimpleName().toString();
            }
            return variable.getConstantValue() instanceof String text ? text : null;
        }
        // PREFIX + "A", "" + 'A': constant expressions (JLS 15.29) as well (adv10 F18).
        return ConstantExpressions.value(stripped, flow) instanceof String text ? text : null;
    }

    /** The tracked socket of an {@code s.inbranch()} / {@code s.inbranch(E.class)} call, or null. */
    private Element inbranchSocket(ExpressionTree expression) {
        if (expression instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select
                && flow.elementOf(call) instanceof ExecutableElement method
                && flow.api.isSocketClass(method.getEnclosingElement())
                        && method.getSimpleName().contentEquals("inbranch")) {
            return flow.trackedSocket(select.getExpression());
        }
        return null;
    }

    /**
     * {@code E label = s.inbranch(E.class);} (or {@code String label = s.inbranch();}) immediately
     * followed by {@code switch (label)}: that switch is the inbranch, as if it switched on the call
     * (common Java style). Returns false, checking nothing, for any other declaration.
     */
    boolean labelDeclaration(VariableTree tree, Element var) {
        Element socket = tree.getInitializer() == null ? null
                : inbranchSocket(FlowScanner.strip(tree.getInitializer()));
        if (socket == null || !(nextStatement(flow.getCurrentPath()) instanceof SwitchTree next)
                || !(FlowScanner.strip(next.getExpression()) instanceof IdentifierTree selector)
                || !selector.getName().contentEquals(tree.getName())) {
            return false;
        }
        flow.noAliasFields.labelEnum((MethodInvocationTree) FlowScanner.strip(tree.getInitializer()));
        receivedLabels.put(var, socket);
        return true;
    }

    /** The statement after the one at {@code path} in its block or case, or null. */
    private static StatementTree nextStatement(TreePath path) {
        // instanceof, not a pattern switch, and no stream: javac loads the processor afresh for every
        // compilation, and each switch's bootstrap and lambda would be linked cold every time
        Tree parent = path.getParentPath().getLeaf();
        List<? extends StatementTree> statements = List.of();
        if (parent instanceof BlockTree block) {
            statements = block.getStatements();
        } else if (parent instanceof CaseTree caseTree && caseTree.getStatements() != null) {
            statements = caseTree.getStatements();
        } else if (parent instanceof SwitchTree enclosing) {
            // The statements of an old-style case group are scanned with the switch as their parent.
            for (CaseTree c : enclosing.getCases()) {
                if (c.getStatements() != null && c.getStatements().contains(path.getLeaf())) {
                    statements = c.getStatements();
                    break;
                }
            }
        }
        for (int i = 0; i + 1 < statements.size(); i++) {
            if (statements.get(i) == path.getLeaf()) {
                return statements.get(i + 1);
            }
        }
        return null;
    }

    /**
     * A case's pattern variables (a socket bound by a pattern is SJ010) and its guard, which runs once
     * for each case tried (or not at all), so it may perform no session action (SJ027). Returns the
     * state after the guard ran (null: no guard): when it is false, the later cases are tried from there,
     * so what it moved is moved in them ({@code case String s when g(x) > 0 -> …; default -> x[0] = 1;}).
     */
    private FlowState<Element> patternsAndGuard(CaseTree caseTree) {
        FlowState<Element> start = flow.state;
        for (Tree label : caseTree.getLabels()) {
            if (label instanceof PatternCaseLabelTree pattern) {
                flow.scan(pattern, null);
            }
        }
        if (caseTree.getGuard() == null) {
            return null;
        }
        FlowState<Element> before = flow.state;
        flow.onceOnly("a case guard (it runs for each case tried, or not at all)",
                () -> flow.scan(caseTree.getGuard(), null));
        FlowState<Element> ran = flow.state;
        flow.state = flow.join(before, flow.state, caseTree, "running and skipping this guard");
        if (ran == null || start == null) {
            return ran;
        }
        java.util.List<Element> bound = new java.util.ArrayList<>(); // this case's pattern variables
        for (Element var : ran.variables()) {
            if (!start.tracks(var)) {
                bound.add(var);
            }
        }
        return ran.without(bound);
    }

    void switchStatement(Tree tree, ExpressionTree selector, List<? extends CaseTree> cases,
            boolean expression) {
        ExpressionTree stripped = FlowScanner.strip(selector);
        Element socket = inbranchSocket(stripped);
        if (socket != null) {
            flow.noAliasFields.labelEnum((MethodInvocationTree) stripped);
        }
        if (stripped instanceof IdentifierTree && !receivedLabels.isEmpty()) {
            Element received = receivedLabels.remove(flow.elementOf(stripped));
            socket = received != null ? received : socket;
        }
        // A typecase over a typed selector's set is checked as a branch over its members (SelectorRules).
        if (socket != null && flow.selectors.refuseInbranch(socket, stripped)) {
            socket = null;
        } else if (socket == null) {
            socket = flow.selectors.typecaseSocket(stripped);
        }
        Action.Branch branch = null;
        SessionType continuation = null;
        VarState.Live live = null;
        if (socket != null) {
            live = flow.actions.usable(socket, stripped);
            if (live != null) {
                SessionType unfolded = TypeModel.unfold(live.remaining());
                if (!unfolded.isEnd() && unfolded.head() instanceof Action.Branch b) {
                    flow.linearity.actionPoint(socket, stripped);
                    branch = b;
                    continuation = unfolded.tail();
                    flow.lastActions.put(socket, stripped);
                } else {
                    flow.reporter.error(stripped, Diagnostic.WRONG_ACTION, flow.name(socket),
                            SessionActionRules.expected(unfolded, live),
                            "waits for a label (inbranch)" + SessionActionRules.hint(unfolded, live, Action.Branch.class));
                    flow.fail(socket);
                }
            }
        } else {
            flow.scan(selector, null);
        }
        FlowState<Element> base = flow.state;
        Frame frame = flow.pushFrame(tree, false, expression);
        // The switch block's own scope: a local declared by a statement of one group is in scope in the
        // later groups too (JLS 6.3), so it is tracked to the end of the block, not of its group (adv15 A9).
        Scope block = flow.pushScope();
        FlowState<Element> fallthrough = null;
        FlowState<Element> guardsFalse = null; // the states after the guards tried so far (they were false)
        boolean hasDefault = false;
        Set<String> covered = new LinkedHashSet<>();
        for (CaseTree caseTree : cases) {
            boolean isDefault = isDefault(caseTree);
            hasDefault |= isDefault;
            FlowState<Element> entry = base;
            if (branch != null) {
                entry = null;
                if (isDefault) {
                    entry = base.with(socket, VarState.FAILED);
                }
                boolean neverTaken = !caseTree.getExpressions().isEmpty();
                for (ExpressionTree labelTree : caseTree.getExpressions()) {
                    String label = constantLabel(labelTree);
                    SessionType arm = label == null ? null : branch.branches().get(label);
                    if (arm == null && label != null && flow.elementOf(FlowScanner.strip(labelTree)) instanceof Element
                            constant && constant.getKind() == ElementKind.ENUM_CONSTANT) {
                        // A constant of the label enum that this choice lacks (the enum may serve another
                        // protocol too): the peer never sends it, so its arm is never taken (adv10 F18).
                        continue;
                    }
                    neverTaken = false;
                    FlowState<Element> labelEntry;
                    if (arm == null) {
                        flow.reporter.error(labelTree, Diagnostic.UNKNOWN_LABEL, flow.name(socket),
                                String.valueOf(label), TypeText.labels(branch.branches()),
                                TypeModel.printAction(branch));
                        labelEntry = base.with(socket, VarState.FAILED);
                    } else {
                        covered.add(label);
                        labelEntry = base.with(socket, new VarState.Live(arm.then(continuation), live.iterations()));
                    }
                    entry = flow.join(entry, labelEntry, caseTree, "the labels of this case");
                }
                if (entry == null && !neverTaken) {
                    entry = base;
                }
            }
            entry = flow.join(entry, guardsFalse, caseTree, "the guards of the earlier cases");
            if (caseTree.getCaseKind() == CaseTree.CaseKind.STATEMENT) {
                flow.state = flow.join(declaredEarlier(entry, block), fallthrough, caseTree, "falling through into this case");
                Scope scope = flow.pushScope();
                guardsFalse = flow.join(guardsFalse, patternsAndGuard(caseTree), caseTree, "the guards of the earlier cases");
                for (StatementTree statement : caseTree.getStatements()) {
                    flow.scan(statement, null);
                }
                for (java.util.Iterator<Element> vars = scope.vars.iterator(); vars.hasNext();) {
                    Element var = vars.next();
                    if (caseTree.getStatements().contains(flow.infos.get(var).declaration())) {
                        vars.remove();
                        block.vars.add(var); // a statement's local: in scope to the end of the switch block
                    }
                }
                flow.exitScope(scope, null, "at the end of its scope");
                flow.scopes.pop();
                fallthrough = flow.state;
            } else {
                flow.state = entry;
                guardsFalse = flow.join(guardsFalse, patternsAndGuard(caseTree), caseTree, "the guards of the earlier cases");
                flow.scan(caseTree.getBody(), null);
                frame.breaks = flow.join(frame.breaks, flow.state, tree, "the cases of this switch");
            }
        }
        flow.state = fallthrough;
        flow.exitScope(block, null, "at the end of its scope");
        fallthrough = flow.state;
        flow.scopes.pop();
        flow.frames.pop();
        FlowState<Element> exit = flow.join(frame.breaks, fallthrough, tree, "the cases of this switch");
        if (branch != null) {
            Set<String> missing = new LinkedHashSet<>(branch.branches().keySet());
            missing.removeAll(covered);
            if (!missing.isEmpty()) {
                flow.reporter.error(stripped, Diagnostic.MISSING_LABEL, flow.name(socket), missing.size() > 1
                        ? "s" : "",
                        String.join(", ", missing), TypeModel.printAction(branch));
                exit = exit == null ? null : exit.with(socket, VarState.FAILED);
            }
        } else if (!hasDefault && !expression && !enhanced(selector, cases)) {
            exit = flow.join(exit, base, tree, "the cases of this switch and the path where none matches (a switch"
                    + " statement over an int, String or enum with no default, pattern or case null completes"
                    + " when no case matches: add default -> throw ...)");
        } else if (!hasDefault) {
            // javac checked that the cases are exhaustive and adds a default that throws MatchException:
            // the path where none matches is a throw from the state before the cases, not a way on.
            FlowState<Element> after = flow.state;
            flow.state = flow.join(base, guardsFalse, tree, "the guards of the cases");
            flow.linearity.jvmThrowPoint(); // MatchException
            flow.fieldExits.throwPoint(tree);
            flow.state = after;
        }
        flow.state = exit;
    }

    /**
     * {@code entry} (a path into a statement group that did not fall through the groups before it) with the
     * locals those groups declared, which are in scope here but not assigned on this path.
     */
    private FlowState<Element> declaredEarlier(FlowState<Element> entry, Scope block) {
        if (entry == null) {
            return null;
        }
        for (Element var : block.vars) {
            if (!entry.tracks(var)) {
                entry = entry.with(var, flow.declarations.unassigned(var));
            }
        }
        return entry;
    }

    /** Whether a case is the default one (a loop, not a stream: each lambda is linked afresh per compilation). */
    private static boolean isDefault(CaseTree caseTree) {
        for (Tree label : caseTree.getLabels()) {
            if (label instanceof DefaultCaseLabelTree) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a switch statement is an enhanced one (JLS 14.11.2), which javac requires to be
     * exhaustive: it has a pattern or {@code case null}, or its selector is not of an int-like, String or
     * enum type. An old-style switch over an enum naming every constant is not: when the enum gains a
     * constant (compiled separately), no case matches and the statement completes normally.
     */
    private boolean enhanced(ExpressionTree selector, List<? extends CaseTree> cases) {
        for (CaseTree caseTree : cases) {
            for (Tree label : caseTree.getLabels()) {
                if (label instanceof PatternCaseLabelTree || label instanceof ConstantCaseLabelTree constant
                        && constant.getConstantExpression().getKind() == Tree.Kind.NULL_LITERAL) {
                    return true;
                }
            }
        }
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(selector));
        if (type == null || type.getKind() == TypeKind.ERROR) {
            return false;
        }
        if (type.getKind().isPrimitive()) {
            return false; // char, byte, short, int (javac rejects the others without patterns)
        }
        TypeMirror unboxed;
        try {
            unboxed = flow.types.unboxedType(type);
        } catch (IllegalArgumentException notABox) {
            unboxed = null;
        }
        if (unboxed != null && unboxed.getKind() != TypeKind.NONE) {
            return false;
        }
        Element element = flow.types.asElement(type);
        return element == null || !(element.getKind() == ElementKind.ENUM
                || element instanceof javax.lang.model.element.TypeElement named
                        && named.getQualifiedName().contentEquals("java.lang.String"));
    }
}
