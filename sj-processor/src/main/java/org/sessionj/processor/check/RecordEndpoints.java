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
import com.sun.source.util.Trees;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Types;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.types.SessionType;

/**
 * The accessor of a record component declared {@code @Session(protocol = P.class) SJService svc} (or a
 * server socket) gives an endpoint of protocol P (adv10 F18): the canonical constructor takes the
 * component as a {@code @Session} parameter, so every construction the checker sees gives it a P
 * endpoint (SJ035 otherwise), and the field javac writes keeps it. Only where nothing else can change
 * what the accessor returns: javac writes the accessor, and no explicit canonical constructor assigns
 * the component — read from the record's source when it is compiled now, else from what its compilation
 * recorded (adv13 A12).
 */
final class RecordEndpoints {
    private final MethodChecker flow;

    RecordEndpoints(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * The endpoint {@code call} returns when it is such an accessor, or null. A record known from its class
     * file (another module, a library jar: adv13 A12) gives one when its own compilation recorded that it
     * keeps the component as constructed ({@link FieldFacts}); its protocol is the one on the canonical
     * constructor's parameter, which the class file keeps ({@code @Session} has class retention).
     */
    VarState endpoint(MethodInvocationTree call) {
        if (!call.getArguments().isEmpty() || !(flow.elementOf(call) instanceof ExecutableElement accessor)
                || !(accessor.getEnclosingElement() instanceof TypeElement record)
                || record.getKind() != ElementKind.RECORD) {
            return null;
        }
        boolean fromSource = flow.trees.getTree(record) != null;
        if (fromSource && flow.trees.getTree(accessor) != null) {
            return null;
        }
        for (RecordComponentElement component : ElementFilter.recordComponentsIn(record.getEnclosedElements())) {
            if (accessor.equals(component.getAccessor())) {
                return kept(record, component, fromSource);
            }
        }
        return null;
    }

    /**
     * The endpoint the field of such a component holds, read inside the record compiled now ({@code svc.request()},
     * {@code this.svc.request()}; adv16 A13): javac's canonical constructor stores the parameter as given, so the
     * field holds what its accessor returns. Null when {@code field} is no such component's field, or a canonical
     * constructor written out assigns it (its stores are then read as any constructor's).
     */
    VarState componentField(VariableElement field) {
        if (!(field.getEnclosingElement() instanceof TypeElement record) || record.getKind() != ElementKind.RECORD) {
            return null;
        }
        for (RecordComponentElement component : ElementFilter.recordComponentsIn(record.getEnclosedElements())) {
            if (component.getSimpleName().equals(field.getSimpleName())) {
                return kept(record, component, true);
            }
        }
        return null;
    }

    /**
     * The endpoint of {@code component}'s {@code @Session(protocol = P.class)} when the record keeps it as
     * constructed (from its source when {@code fromSource}, else as its compilation recorded), or null.
     */
    private VarState kept(TypeElement record, RecordComponentElement component, boolean fromSource) {
        VariableElement parameter = ImplementationContracts.canonicalParameter(record, component, flow.types);
        if (parameter == null || !(flow.api.isService(parameter.asType())
                || flow.api.isServerSocket(parameter.asType()))) {
            return null;
        }
        if (fromSource ? assignedByConstructor(flow.trees, parameter) : !recordedAsKept(record, component)) {
            return null;
        }
        SessionType protocol = flow.sessionParameters.of(parameter, null, null).declared();
        if (protocol == null) {
            return null;
        }
        return new VarState.Endpoint(protocol, "of record component '" + record.getSimpleName() + "."
                + component.getSimpleName() + "'" + (fromSource ? "" : " (as its class file records)"));
    }

    /** Whether the compilation of {@code record}, known from its class file, recorded that it keeps {@code component}. */
    private boolean recordedAsKept(TypeElement record, RecordComponentElement component) {
        flow.facts.read(record); // SJ009: a user rechecked when the record's facts change
        String fact = flow.recordedFields(record).get(component.getSimpleName() + "()");
        return fact != null && fact.startsWith(FieldFacts.ACCESSOR_KEEPS); // then " as protocol=…" (adv16 A10)
    }

    /**
     * Whether {@code record}, compiled now, keeps {@code component} as constructed: javac writes its accessor
     * and no canonical constructor written out assigns it (what the record's compilation records for others).
     */
    static boolean keeps(Trees trees, Types types, TypeElement record, RecordComponentElement component) {
        VariableElement parameter = ImplementationContracts.canonicalParameter(record, component, types);
        return parameter != null && trees.getTree(component.getAccessor()) == null
                && !assignedByConstructor(trees, parameter);
    }

    /** Whether the canonical constructor, if written out, assigns the component (its parameter or field). */
    private static boolean assignedByConstructor(Trees trees, VariableElement parameter) {
        Element constructor = parameter.getEnclosingElement();
        if (!(trees.getTree(constructor) instanceof MethodTree tree) || tree.getBody() == null) {
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
