package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreeScanner;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.types.SessionType;

/**
 * The accessor of a record component declared {@code @Session(protocol = P.class) SJService svc} (or a
 * server socket) gives an endpoint of protocol P (adv10 F18): the canonical constructor takes the
 * component as a {@code @Session} parameter, so every construction the checker sees gives it a P
 * endpoint (SJ035 otherwise), and the field javac writes keeps it. Only where nothing else can change
 * what the accessor returns: the record is compiled here, javac writes the accessor, and no explicit
 * canonical constructor assigns the component.
 */
final class RecordEndpoints {
    private final MethodChecker flow;

    RecordEndpoints(MethodChecker flow) {
        this.flow = flow;
    }

    /** The endpoint {@code call} returns when it is such an accessor, or null. */
    VarState endpoint(MethodInvocationTree call) {
        if (!call.getArguments().isEmpty() || !(flow.elementOf(call) instanceof ExecutableElement accessor)
                || !(accessor.getEnclosingElement() instanceof TypeElement record)
                || record.getKind() != ElementKind.RECORD || flow.trees.getTree(record) == null
                || flow.trees.getTree(accessor) != null) {
            return null;
        }
        for (RecordComponentElement component : ElementFilter.recordComponentsIn(record.getEnclosedElements())) {
            if (!accessor.equals(component.getAccessor())) {
                continue;
            }
            VariableElement parameter = ImplementationContracts.canonicalParameter(record, component);
            if (parameter == null || !(flow.api.isService(parameter.asType())
                    || flow.api.isServerSocket(parameter.asType()))) {
                return null;
            }
            SessionType protocol = flow.sessionParameters.of(parameter, null, null).declared();
            if (protocol == null || assignedByConstructor(parameter)) {
                return null;
            }
            return new VarState.Endpoint(protocol, "of record component '" + record.getSimpleName() + "."
                    + component.getSimpleName() + "'");
        }
        return null;
    }

    /** Whether the canonical constructor, if written out, assigns the component (its parameter or field). */
    private boolean assignedByConstructor(VariableElement parameter) {
        Element constructor = parameter.getEnclosingElement();
        if (!(flow.trees.getTree(constructor) instanceof MethodTree tree) || tree.getBody() == null) {
            return false; // javac writes it: it stores the parameter as given
        }
        String name = parameter.getSimpleName().toString();
        boolean[] assigned = {false};
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitAssignment(AssignmentTree assignment, Void unused) {
                assigned[0] |= names(assignment.getVariable(), name);
                return super.visitAssignment(assignment, unused);
            }

            @Override
            public Void visitCompoundAssignment(CompoundAssignmentTree assignment, Void unused) {
                assigned[0] |= names(assignment.getVariable(), name);
                return super.visitCompoundAssignment(assignment, unused);
            }

            @Override
            public Void visitClass(ClassTree nested, Void unused) {
                return null; // cannot assign a constructor parameter (effectively final there)
            }

            @Override
            public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
                return null; // likewise
            }
        }.scan(tree.getBody(), null);
        return assigned[0];
    }

    private static boolean names(Tree target, String name) {
        return target instanceof IdentifierTree identifier && identifier.getName().contentEquals(name)
                || target instanceof MemberSelectTree select && select.getIdentifier().contentEquals(name);
    }
}
