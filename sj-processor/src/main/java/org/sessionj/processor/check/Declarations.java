package org.sessionj.processor.check;

import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.VarState;

/**
 * What a declaration starts tracked as: a parameter, a local or a {@code @NoAlias} field of the
 * checked method's class becomes a session socket, a service or server socket, or a {@code @NoAlias}
 * variable with its first state ({@link Kind}); every other declaration is not tracked. Where the
 * first state comes from (an initializer, a {@code @Session} annotation) is the rule families' job.
 */
final class Declarations {
    private final MethodChecker flow;

    Declarations(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * Declares a parameter; {@code inherited}: the {@code @Session} type of the functional method's
     * parameter a lambda parameter stands for (taken when the lambda parameter has none), or null.
     */
    void parameter(TreePath path, SessionParameters.SessionParameter inherited) {
        VariableTree tree = (VariableTree) path.getLeaf();
        Element var = flow.trees.getElement(path);
        if (var == null) {
            return;
        }
        TypeMirror type = var.asType();
        SessionApi api = flow.api;
        boolean unannotated = inherited != null
                && !flow.sessionParameters.of((VariableElement) var, null, null).annotated();
        if (unannotated && api.isSocket(type)) {
            declare(var, Kind.SOCKET, tree, inherited.type() == null ? VarState.FAILED
                    : new VarState.Live(inherited.type(), 0));
        } else if (unannotated && (api.isService(type) || api.isServerSocket(type))) {
            declare(var, Kind.ENDPOINT, tree, new VarState.Endpoint(inherited.declared(), "of parameter '"
                    + var.getSimpleName() + "'"));
        } else if (api.isSocket(type)) {
            declare(var, Kind.SOCKET, tree, flow.origins.socketParameter((VariableElement) var, tree));
        } else if (api.isService(type) || api.isServerSocket(type)) {
            declare(var, Kind.ENDPOINT, tree, flow.origins.endpointParameter((VariableElement) var, tree));
        } else if (NoAliasRules.isNoAlias(var)) {
            declare(var, Kind.NOALIAS, tree, VarState.OWNED);
        }
    }

    /**
     * Declares the parameters of the lambda at {@code unit}, each with the {@code @Session} type of the
     * functional method's parameter it stands for when it has none of its own, and checks them against
     * that method ({@link ImplementationContracts#lambdaParameters}); {@code flow.resultContract} is set.
     */
    void lambdaParameters(TreePath unit, LambdaExpressionTree lambda) {
        ExecutableElement contract = flow.resultContract;
        List<VariableElement> parameters = new ArrayList<>();
        List<org.sessionj.types.SessionType> spawned = flow.spawnedTypes.get(lambda);
        for (VariableTree parameter : lambda.getParameters()) {
            TreePath path = new TreePath(unit, parameter);
            SessionParameters.SessionParameter inherited = flow.contracts.sessionType(parameters.size(), contract);
            if (inherited == null && spawned != null && parameters.size() < spawned.size()) {
                // An SJ.spawn body: the session handed over is at this type (adv13 A6.3); none when the spawn
                // could not hand it over (reported there: SJ025, SJ051), and the parameter is not reported again
                inherited = new SessionParameters.SessionParameter(true, spawned.get(parameters.size()));
            }
            parameter(path, inherited);
            if (flow.trees.getElement(path) instanceof VariableElement element) {
                parameters.add(element);
            }
        }
        if (contract != null) {
            flow.contracts.lambdaParameters(lambda, parameters, contract, flow.reporter);
        }
    }

    /**
     * The {@code @NoAlias} fields a method of their class may move out and must refill (instance
     * fields only in instance methods); they are reported at {@code method} if it ends without.
     */
    void ownFields(ExecutableElement method, MethodTree tree) {
        boolean isStatic = method.getModifiers().contains(Modifier.STATIC);
        for (VariableElement field : ElementFilter.fieldsIn(method.getEnclosingElement().getEnclosedElements())) {
            if ((!isStatic || field.getModifiers().contains(Modifier.STATIC)) && NoAliasRules.isNoAlias(field)) {
                declare(field, Kind.NOALIAS_FIELD, tree, VarState.OWNED);
                flow.fieldExits.activate();
            }
        }
    }

    /**
     * Declares the local {@code var} of {@code tree} (its initializer checked by the rule that gives
     * its first state); returns false when it is no tracked kind and the scanner goes on into it.
     */
    boolean local(VariableTree tree, Element var) {
        TypeMirror type = var.asType();
        SessionApi api = flow.api;
        if (api.isSocket(type) && flow.sockets.patternVariable(tree, var)) {
            declare(var, Kind.SOCKET, tree, VarState.FAILED);
            return true;
        }
        if (api.isSocket(type)) {
            VarState initial = tree.getInitializer() == null ? VarState.UNASSIGNED
                    : flow.origins.socketSource(tree.getInitializer(), var.getSimpleName().toString());
            declare(var, Kind.SOCKET, tree, initial);
            if (tree.getInitializer() != null) {
                flow.spawns.addedToScope(var, tree.getInitializer());
            }
            return true;
        }
        if (api.isService(type) || api.isServerSocket(type)) {
            VarState initial = tree.getInitializer() == null ? VarState.Endpoint.unknown()
                    : flow.origins.endpointSource(tree.getInitializer());
            declare(var, Kind.ENDPOINT, tree, initial);
            return true;
        }
        if (NoAliasRules.isNoAlias(var)) {
            Tree parent = flow.getCurrentPath().getParentPath().getLeaf();
            VarState bound = flow.noAliasValues.bound(tree, var); // a pattern variable or catch parameter
            VarState initial = parent instanceof EnhancedForLoopTree loop ? flow.noAliasValues.loopVariable(var, loop)
                    : bound != null ? bound : flow.noAliasValues.declared(var, tree.getInitializer());
            declare(var, Kind.NOALIAS, tree, initial);
            return true;
        }
        Tree parent = flow.getCurrentPath().getParentPath().getLeaf();
        VarState view = parent instanceof EnhancedForLoopTree loop ? flow.views.element(loop, var)
                : getsNoValue(tree) ? null : flow.views.declared(tree, var);
        if (view != null) {
            declare(var, Kind.VIEW, tree, view);
            return true;
        }
        if (tree.getInitializer() != null && api.isSelector(type)) {
            flow.selectors.declared(var);
        }
        return flow.choices.labelDeclaration(tree, var);
    }

    /** Whether {@code tree} is an enhanced for statement's variable, a catch parameter or a pattern's: it gets no value to view. */
    private boolean getsNoValue(VariableTree tree) {
        Tree parent = flow.getCurrentPath().getParentPath().getLeaf();
        return parent instanceof EnhancedForLoopTree || parent instanceof com.sun.source.tree.CatchTree
                || parent instanceof com.sun.source.tree.BindingPatternTree;
    }

    /**
     * The state of the tracked local {@code var} on a path that enters its scope past its declaration: a
     * later statement group of the switch block that declared it (JLS 6.3: the scope of a local declared
     * in a group runs to the end of the switch block, and a path that enters a later group directly has
     * not assigned it; adv15 A9). As declared without an initializer.
     */
    VarState unassigned(Element var) {
        return flow.infos.get(var).kind() == Kind.ENDPOINT ? VarState.Endpoint.unknown() : VarState.UNASSIGNED;
    }

    /** Starts tracking {@code var} in the innermost scope, in state {@code initial} if the code is reachable. */
    private void declare(Element var, Kind kind, Tree declaration, VarState initial) {
        if (kind.owned()) {
            flow.views.startOwning();
        }
        flow.infos.put(var, new VarInfo(var.getSimpleName().toString(), kind, flow.handlers.size(),
                flow.onceOnly.size(), declaration));
        flow.scopes.peek().vars.add(var);
        if (flow.state != null) {
            flow.state = flow.state.with(var, initial);
        }
    }
}
