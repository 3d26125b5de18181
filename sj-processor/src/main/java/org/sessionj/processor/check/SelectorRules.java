package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.ProtocolDefinition;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;
import org.sessionj.types.Action;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * Typed selectors, {@code SJSelector.of(P1.class, …, Pn.class)}: the session set type
 * {@code {B1, …, Bn}} where {@code Bi} is what a session of {@code Pi} does after its begin.
 * Invariants:
 * <ul>
 *   <li>the selector is a local variable (a try-with-resources resource too) or field initialised by {@code SJSelector.of} with distinct
 *       {@code @Protocol} class literals of distinct simple names, each starting (after its begin) with
 *       an input — a selector yields a session when input is ready, so a session waiting to send would
 *       never be yielded — and never assigned again (SJ052);</li>
 *   <li>{@code sel.register(s)} takes a session at exactly one member's type (its very start), and
 *       moves it into the selector (SJ053);</li>
 *   <li>{@code SJSocket s = sel.select()} is typed as the set: it may only be the subject of
 *       {@code switch (sel.typecase(s))} with a case per member (SJ016 for a missing one), in each of
 *       which it is typed as that member; any other action on it, or {@code inbranch}, is an error
 *       (SJ012, SJ054), and each arm must complete it or hand it on like any session (SJ024).</li>
 * </ul>
 * A set-typed session is held as a {@link VarState.Live} whose type is a branch over the member names
 * ({@code ?{Get: B1, Put: B2}}), so the checker's inbranch machinery checks the typecase switch; the
 * state is marked {@link VarState.Live#selected()}, so that a real inbranch on such a session, a
 * typecase on a real branch, handing it on as that branch (SJ054), and meeting a real branch where
 * paths join (SJ020) or a loop goes round (SJ021) are all refused.
 */
final class SelectorRules {
    private final MethodChecker flow;
    /** Typed selector variables and their members (name → body); {@link #INVALID} when reported, null when untyped. */
    private final Map<Element, Map<String, SessionType>> selectors = new java.util.HashMap<>();
    /** The members of a typed selector whose declaration was reported (SJ052): its sessions are not checked further. */
    private static final Map<String, SessionType> INVALID = java.util.Collections.unmodifiableMap(new LinkedHashMap<>());

    SelectorRules(MethodChecker flow) {
        this.flow = flow;
    }

    /** The members of the typed selector {@code expression} names, or null when it is not one. */
    private Map<String, SessionType> membersOf(ExpressionTree expression) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        Element var = stripped instanceof IdentifierTree || stripped instanceof MemberSelectTree
                ? flow.elementOf(stripped) : null;
        if (var == null) {
            return null;
        }
        // A field's declaration is reported where it is checked (its initializer); uses stay silent.
        flow.reporter.silence();
        try {
            return membersOf(var);
        } finally {
            flow.reporter.speak();
        }
    }

    /**
     * A declaration of a selector variable: a typed one ({@code SJSelector.of}) is checked here, where
     * it is declared, even if it is never used (SJ052).
     */
    void declared(Element var) {
        membersOf(var);
    }

    /**
     * Records a final typed selector field's members for the checks of other classes, without
     * reporting (its declaration is reported where its initializer is checked).
     */
    void recordField(Element field) {
        flow.reporter.silence();
        try {
            membersOf(field);
        } finally {
            flow.reporter.speak();
        }
    }

    private Map<String, SessionType> membersOf(Element var) {
        // A try-with-resources resource (try (SJSelector sel = SJSelector.of(…))) is a local variable too.
        if (!(var.getKind() == ElementKind.LOCAL_VARIABLE || var.getKind() == ElementKind.RESOURCE_VARIABLE
                || var.getKind() == ElementKind.FIELD)) {
            return null;
        }
        if (selectors.containsKey(var)) {
            return selectors.get(var);
        }
        boolean field = var.getKind() == ElementKind.FIELD;
        if (field) {
            flow.facts.read(var);
        }
        Map<String, SessionType> members = field ? flow.facts.selectorField(var) : null;
        if (members != null) {
            selectors.put(var, members); // recorded while its class's tree was intact (DeclarationFacts)
            return members;
        }
        TreePath declaration = field ? flow.trees.getPath(var) : localDeclaration(var);
        if (declaration != null && declaration.getLeaf() instanceof VariableTree tree && tree.getInitializer() != null
                && typedCreation(tree.getInitializer(), declaration) != null) {
            members = declared(var, tree, declaration);
            members = members == null ? INVALID : members;
            if (field && members != INVALID) {
                flow.facts.selectorField(var, members);
            }
        }
        if (members != INVALID) {
            selectors.put(var, members); // an invalid one is not cached: a silent loop pass must not swallow its report
        }
        return members;
    }

    /** The {@code SJSelector.of(…)} (or {@code runtime.openSelector(P.class, …)}) call {@code initializer} is, or null. */
    private MethodInvocationTree typedCreation(ExpressionTree initializer, TreePath context) {
        ExpressionTree stripped = FlowScanner.strip(initializer);
        return stripped instanceof MethodInvocationTree call
                && flow.trees.getElement(new TreePath(context, call)) instanceof ExecutableElement method
                && flow.api.isTypedSelectorFactory(method) ? call : null;
    }

    /** The declaration of a local variable, found in the enclosing body. */
    private TreePath localDeclaration(Element var) {
        TreePath body = enclosingBody(flow.getCurrentPath());
        TreePath[] found = new TreePath[1];
        if (body != null) {
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitVariable(VariableTree tree, Void unused) {
                    if (var.equals(flow.trees.getElement(getCurrentPath()))) {
                        found[0] = getCurrentPath();
                    }
                    return super.visitVariable(tree, unused);
                }
            }.scan(body, null);
        }
        return found[0];
    }

    private static TreePath enclosingBody(TreePath path) {
        TreePath body = null;
        for (TreePath p = path; p != null; p = p.getParentPath()) {
            if (p.getLeaf() instanceof MethodTree || p.getLeaf() instanceof LambdaExpressionTree) {
                body = p;
            }
        }
        return body;
    }

    /** Checks a typed selector's declaration and returns its members, or null (reported, SJ052). */
    private Map<String, SessionType> declared(Element var, VariableTree tree, TreePath declaration) {
        String name = var.getSimpleName().toString();
        if (var.getKind() == ElementKind.FIELD ? !var.getModifiers().contains(Modifier.FINAL) : reassigned(var)) {
            flow.reporter.error(tree, Diagnostic.SELECTOR_DECLARATION, name, "it is assigned again (declare it final"
                    + " and never reassign it, so every use sees the set it was made with)");
            return null;
        }
        MethodInvocationTree call = typedCreation(tree.getInitializer(), declaration);
        Map<String, SessionType> members = new LinkedHashMap<>();
        for (ExpressionTree argument : call.getArguments()) {
            ExpressionTree literal = FlowScanner.strip(argument);
            Element protocol = literal instanceof MemberSelectTree select && select.getIdentifier().contentEquals("class")
                    ? flow.trees.getElement(new TreePath(new TreePath(declaration, call), select.getExpression())) : null;
            if (!(protocol instanceof TypeElement type) || !ProtocolRegistry.isProtocol(type)) {
                flow.reporter.error(argument, Diagnostic.SELECTOR_DECLARATION, name, "each member is a @Protocol"
                        + " interface's class literal (P.class), found '" + argument + "'");
                return null;
            }
            ProtocolDefinition definition = flow.registry.definition(type);
            if (definition instanceof ProtocolDefinition.SetProtocol set) {
                if (!addSetMembers(set, type, argument, name, members)) {
                    return null;
                }
                continue;
            }
            if (!(definition instanceof ProtocolDefinition.Valid valid)) {
                return null; // the protocol's own declaration reports it
            }
            if (!addMember(type, valid, argument, name, members)) {
                return null;
            }
        }
        if (members.isEmpty()) {
            flow.reporter.error(tree, Diagnostic.SELECTOR_DECLARATION, name, "a typed selector has at least one member");
            return null;
        }
        return members;
    }

    /** Adds member {@code type}; false when its simple name is taken (reported, SJ052). */
    private boolean addMember(TypeElement type, ProtocolDefinition.Valid valid, ExpressionTree argument, String name,
            Map<String, SessionType> members) {
        String member = type.getSimpleName().toString();
        if (members.containsKey(member)) {
            flow.reporter.error(argument, Diagnostic.SELECTOR_DECLARATION, name, "two members are named '" + member
                    + "' (typecase tells members apart by their protocols' simple names)");
            return false;
        }
        SessionType body = TypeModel.stripBegin(valid.expanded());
        SessionType unfolded = TypeModel.unfold(body);
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Receive || unfolded.head() instanceof Action.Branch
                || unfolded.head() instanceof Action.InWhile)) {
            flow.reporter.error(argument, Diagnostic.SELECTOR_DECLARATION, name, "member '" + member + "' is "
                    + TypeModel.describe(body) + ", which " + (unfolded.isEnd() ? "is complete"
                    : "starts with an output, " + TypeModel.printAction(unfolded.head())) + ": a selector yields a"
                    + " session when its input is ready, so each member starts with an input (?(T), ?{…}, ?[…]*);"
                    + " act on such a session before registering it");
            return false;
        }
        members.put(member, body);
        return true;
    }

    /**
     * A set protocol's members, {@code {@(P1), …}}, each as if given as {@code Pi.class}; false when one
     * is no single protocol reference, or is invalid (reported, SJ052, or where the protocol is declared).
     */
    private boolean addSetMembers(ProtocolDefinition.SetProtocol set, TypeElement type, ExpressionTree argument,
            String name, Map<String, SessionType> members) {
        for (int i = 0; i < set.protocols().size(); i++) {
            String protocol = set.protocols().get(i);
            TypeElement memberType = protocol == null ? null : flow.registry.typeForBinaryName(protocol).orElse(null);
            if (memberType == null) {
                flow.reporter.error(argument, Diagnostic.SELECTOR_DECLARATION, name, "member " + (i + 1) + " of the set"
                        + " protocol '" + type.getSimpleName() + "', " + TypeModel.describe(set.resolved().get(i))
                        + ", is not a protocol reference @(P): a typed selector tells its members apart by their"
                        + " protocols, so each member of its set is one");
                return false;
            }
            if (!(flow.registry.definition(memberType) instanceof ProtocolDefinition.Valid valid)
                    || !addMember(memberType, valid, argument, name, members)) {
                return false;
            }
        }
        return true;
    }

    private boolean reassigned(Element var) {
        TreePath body = enclosingBody(flow.getCurrentPath());
        boolean[] found = new boolean[1];
        if (body != null) {
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitAssignment(AssignmentTree tree, Void unused) {
                    found[0] |= var.equals(flow.trees.getElement(new TreePath(getCurrentPath(), tree.getVariable())));
                    return super.visitAssignment(tree, unused);
                }

                @Override
                public Void visitCompoundAssignment(CompoundAssignmentTree tree, Void unused) {
                    found[0] |= var.equals(flow.trees.getElement(new TreePath(getCurrentPath(), tree.getVariable())));
                    return super.visitCompoundAssignment(tree, unused);
                }
            }.scan(body, null);
        }
        return found[0];
    }

    /** {@code sel.register(s)} on a typed selector: false when {@code sel} is not one (the call is not handled). */
    boolean register(MethodInvocationTree call, ExpressionTree selector) {
        Map<String, SessionType> members = membersOf(selector);
        if (members == null || call.getArguments().size() != 1) {
            return false;
        }
        ExpressionTree argument = call.getArguments().get(0);
        Element var = flow.trackedSocket(argument);
        if (var == null) {
            flow.scan(argument, null); // an untracked socket expression: SJ010 where it is
            if (flow.state != null && CallArguments.givesNull(argument)) {
                // null registers no session: the selector's select() would fail at run time (adv14 A6)
                flow.reporter.error(argument, Diagnostic.USE_AFTER_MOVE, argument.toString(),
                        "given as null to selector '" + selector + "': register(s) takes a session at the start of "
                                + "one of its member protocols");
            }
            return true;
        }
        if (members == INVALID) {
            flow.fail(var);
            return true;
        }
        VarState.Live live = flow.actions.usable(var, argument);
        if (live == null || refuseHandOver(var, argument, "registered with selector '" + selector + "'")) {
            return true;
        }
        String member = live.iterations() > 0 ? null : memberAt(live.remaining(), members);
        if (member == null) {
            flow.reporter.error(argument, Diagnostic.NOT_A_MEMBER, flow.name(var), MethodChecker.describe(live),
                    describe(members));
            flow.fail(var);
            return true;
        }
        String closer = flow.spawns.closer(var);
        if (closer != null) {
            flow.reporter.error(argument, Diagnostic.HANDED_OVER_AND_CLOSED, flow.name(var),
                    "registered with selector '" + selector + "'", closer);
            flow.fail(var);
            return true;
        }
        flow.lastActions.put(var, call);
        flow.set(var, new VarState.Moved("registered with selector '" + selector + "' on line " + flow.line(call)));
        return true;
    }

    /** The state of {@code SJSocket s = sel.select()}: the set type, or null when {@code sel} is not typed. */
    VarState selected(ExpressionTree selector) {
        Map<String, SessionType> members = membersOf(selector);
        if (members == null) {
            return null;
        }
        if (members == INVALID) {
            return VarState.FAILED;
        }
        // membersOf found the selector's variable: the key that its typecase must name again.
        return new VarState.Live(SessionType.of(new Action.Branch(members)), 0,
                flow.elementOf(FlowScanner.strip(selector)));
    }

    /** Whether {@code var} is a set-typed session (selected, no typecase yet). */
    boolean setTyped(Element var) {
        return flow.state != null && setTyped(flow.state.get(var));
    }

    /** Whether {@code state} is that of a set-typed session (selected, no typecase yet). */
    static boolean setTyped(VarState state) {
        return state instanceof VarState.Live live && live.selected();
    }

    /** {@link MethodChecker#describe} that tells a set-typed session from a real branch of the same shape. */
    String describe(VarState state) {
        return setTyped(state) ? "one of the set " + describe(((Action.Branch) ((VarState.Live) state).remaining().head())
                .branches()) + " (selected, before its typecase)" : MethodChecker.describe(state);
    }

    /**
     * A set-typed session handed on — to a {@code @Session} parameter, a session thread, a delegation,
     * a selector — before its typecase (SJ054): true when refused. Its type reads like a branch over
     * the member names, and a receiver typed as that branch would wait for a label no peer sends; in a
     * typecase arm it is at the member's type and may be handed on as that.
     */
    boolean refuseHandOver(Element var, Tree at, String how) {
        if (!setTyped(var)) {
            return false;
        }
        String name = flow.name(var);
        flow.reporter.error(at, Diagnostic.TYPECASE, name, "it is one of the set "
                + describe(((Action.Branch) ((VarState.Live) flow.state.get(var)).remaining().head()).branches())
                + " and no label tells which, so it cannot be " + how + " as a branch over the member names:"
                + " switch (selector.typecase(" + name + ")) first, and hand it on in an arm, at that member's type");
        flow.fail(var);
        return true;
    }

    /**
     * The socket of {@code sel.typecase(s)}, checked: {@code s} must be set-typed by {@code sel}'s set
     * (SJ054). Null when {@code expression} is no typecase, or the typecase is refused (reported).
     */
    Element typecaseSocket(ExpressionTree expression) {
        if (!(expression instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select
                && flow.elementOf(call) instanceof ExecutableElement method
                && flow.api.isSelectorClass(method.getEnclosingElement())
                && method.getSimpleName().contentEquals("typecase") && call.getArguments().size() == 1)) {
            return null;
        }
        ExpressionTree argument = call.getArguments().get(0);
        Element var = flow.trackedSocket(argument);
        Map<String, SessionType> members = membersOf(select.getExpression());
        if (var == null) {
            flow.scan(argument, null);
            return null;
        }
        if (flow.state == null || flow.state.get(var) instanceof VarState.Failed) {
            return null;
        }
        if (!setTyped(var)) {
            flow.reporter.error(call, Diagnostic.TYPECASE, flow.name(var), "typecase applies to a session just selected"
                    + " from a typed selector, but it is at " + MethodChecker.describe(flow.state.get(var)));
            flow.fail(var);
            return null;
        }
        VarState.Live live = (VarState.Live) flow.state.get(var);
        Action.Branch set = (Action.Branch) live.remaining().head();
        Element typecaseSelector = flow.elementOf(FlowScanner.strip(select.getExpression()));
        if (members == null || !members.equals(set.branches()) || !live.selectedBy().equals(typecaseSelector)) {
            // Another selector, even of the same set, did not select it: its typecase fails at run time.
            flow.reporter.error(call, Diagnostic.TYPECASE, flow.name(var), "it was selected from selector '"
                    + ((Element) live.selectedBy()).getSimpleName() + "' of " + describe(set.branches())
                    + ", so the typecase must be on that selector");
            flow.fail(var);
            return null;
        }
        return var;
    }

    /** A real inbranch on a set-typed session (SJ054): true when refused. */
    boolean refuseInbranch(Element var, Tree at) {
        if (!setTyped(var)) {
            return false;
        }
        flow.reporter.error(at, Diagnostic.TYPECASE, flow.name(var), "it is one of the set "
                + describe(((Action.Branch) ((VarState.Live) flow.state.get(var)).remaining().head()).branches())
                + " and no label was sent: tell the members apart with switch (selector.typecase(" + flow.name(var)
                + "))");
        flow.fail(var);
        return true;
    }

    private static String memberAt(SessionType remaining, Map<String, SessionType> members) {
        for (Map.Entry<String, SessionType> member : members.entrySet()) {
            SessionType type = member.getValue();
            if (remaining.equals(type) || TypeModel.unfold(remaining).equals(TypeModel.unfold(type))) {
                return member.getKey();
            }
            try {
                if (SessionTypes.equivalent(remaining, type)) {
                    return member.getKey();
                }
            } catch (ProtocolException e) {
                // ill-formed: reported where declared
            }
        }
        return null;
    }

    private static String describe(Map<String, SessionType> members) {
        StringBuilder out = new StringBuilder("{");
        members.forEach((name, type) -> out.append(out.length() == 1 ? "" : ", ").append(name).append(": ")
                .append(TypeModel.describe(type)));
        return out.append('}').toString();
    }

    /**
     * {@code sel.typecase(s)} anywhere but as the selector of a switch (SJ054): the arms are what type
     * the session. True when reported.
     */
    boolean misplacedTypecase(MethodInvocationTree call) {
        Element var = call.getArguments().size() == 1 ? flow.trackedSocket(call.getArguments().get(0)) : null;
        if (var == null || flow.state == null || flow.state.get(var) instanceof VarState.Failed) {
            return false;
        }
        flow.reporter.error(call, Diagnostic.TYPECASE, flow.name(var), "typecase must be the selector of a switch"
                + " with a case per member: switch (selector.typecase(" + flow.name(var) + ")) { case \"P\" -> ... }");
        flow.fail(var);
        return true;
    }
}
