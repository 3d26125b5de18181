package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.util.TreePath;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * The JDK's copying calls: constructors and factories that copy a collection, map, array or characters
 * ({@code new ArrayList<>(src)}, {@code List.copyOf}, {@code Arrays.copyOf}, a stream's {@code toList}, an
 * array's {@code clone()}), and which of their arguments or receivers is the source they copy. A copy is a new
 * value that keeps no reference to its source; its elements are the source's (by reference), which is what
 * {@link MoveContexts} and {@link NoAliasViews} follow when they may be views of a {@code @NoAlias} value.
 */
final class JdkCopies {
    private final MethodChecker flow;

    JdkCopies(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * The JDK classes whose constructors copy the collection, map, array or characters they are given
     * and keep no reference to it (adv14 A4): {@code new ArrayList<>(x)}, {@code new HashMap<>(m)},
     * {@code new String(chars)} read {@code x} as {@code Arrays.copyOf(x, n)} does (they call methods on
     * it, {@code toArray()}, {@code entrySet()}: methods called on the value, trusted like {@code x.m()}).
     * Only a parameter that takes such a source borrows ({@link #copyingConstructor}): a comparator,
     * which {@code new TreeSet<>(comparator)} keeps, moves. The static factories {@code List.copyOf},
     * {@code Set.copyOf}, {@code Map.copyOf} and {@code EnumSet.copyOf} borrow too ({@link MoveContexts#borrowedBy});
     * {@code List.copyOf(x)} returns {@code x} itself only when it is an unmodifiable list, which nobody
     * can change. Not here: {@code CopyOnWriteArrayList}, which may share its source's array.
     */
    static final Set<String> COPYING_CONSTRUCTORS = Set.of("java.util.ArrayList", "java.util.LinkedList",
            "java.util.ArrayDeque", "java.util.Vector", "java.util.PriorityQueue", "java.util.HashSet",
            "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.HashMap", "java.util.LinkedHashMap",
            "java.util.TreeMap", "java.util.IdentityHashMap", "java.util.Hashtable", "java.util.EnumMap",
            "java.util.concurrent.ConcurrentHashMap", "java.lang.String", "java.lang.StringBuilder",
            "java.lang.StringBuffer");

    /**
     * Whether argument {@code position} of {@code constructor} is a source one of
     * {@link #COPYING_CONSTRUCTORS} copies: a parameter of an array type, a {@code Collection}, a
     * {@code Map} or a {@code CharSequence} (never a comparator or another value the new object keeps).
     */
    boolean copyingConstructor(ExecutableElement constructor, int position) {
        if (!(constructor.getEnclosingElement() instanceof TypeElement owner)
                || !COPYING_CONSTRUCTORS.contains(owner.getQualifiedName().toString())
                || position >= constructor.getParameters().size()
                || constructor.isVarArgs() && position == constructor.getParameters().size() - 1) {
            return false;
        }
        TypeMirror parameter = flow.types.erasure(constructor.getParameters().get(position).asType());
        if (parameter.getKind() == TypeKind.ARRAY) {
            return true;
        }
        for (String source : List.of("java.util.Collection", "java.util.Map", "java.lang.CharSequence")) {
            TypeElement type = flow.elements.getTypeElement(source);
            if (type != null && flow.types.isSubtype(parameter, flow.types.erasure(type.asType()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a value of type {@code type} is a collection or a map, whose {@code clone()} is a shallow copy
     * (adv19 A10: {@code (ArrayList<int[]>) x.clone()} shares x's rows; {@code HashMap}, {@code TreeSet},
     * {@code ArrayDeque}…; a subclass's own {@code clone()} is taken as such a copy too, the safe side).
     */
    boolean sharedByItsClone(TypeMirror type) {
        return type.getKind() == TypeKind.DECLARED && (flow.viewResults.isA(type, "java.util.Collection")
                || flow.viewResults.isA(type, "java.util.Map"));
    }

    /**
     * The type of the copy {@code copy} (at {@code path}) as a container of its source's elements: its own, or for
     * a collection's or map's {@code clone()}, which returns an {@code Object}, its receiver's.
     */
    TypeMirror copyType(TreePath path) {
        if (path.getLeaf() instanceof MethodInvocationTree call && call.getArguments().isEmpty()
                && call.getMethodSelect() instanceof MemberSelectTree select && select.getIdentifier().contentEquals("clone")) {
            TypeMirror receiver = flow.trees.getTypeMirror(new TreePath(new TreePath(path, select), select.getExpression()));
            if (receiver != null && sharedByItsClone(receiver)) {
                return receiver;
            }
        }
        return flow.trees.getTypeMirror(path);
    }

    /**
     * The source whose elements the JDK copy {@code expression} copies by reference (adv16 A3), or null: the
     * collection, map or array a copying constructor is given ({@code new ArrayList<>(src)}), the argument of
     * {@code List.copyOf}/{@code Set.copyOf}/{@code Map.copyOf}/{@code Arrays.copyOf}/{@code copyOfRange}, the
     * stream a {@code toList}/{@code collect}/{@code toArray} terminal reads, the collection whose {@code toArray}
     * it is, the array, collection or map whose {@code clone()} it is. The copy is a new value, but its elements
     * are the source's: when those may be views of a {@code @NoAlias} value (the entries of a map's
     * {@code entrySet()} are its nodes), so may the copy's.
     */
    ExpressionTree copiedSource(ExpressionTree expression) {
        if (expression instanceof NewClassTree creation && creation.getClassBody() == null
                && creation.getArguments().size() == 1
                && flow.trees.getElement(flow.pathOf(creation)) instanceof ExecutableElement constructor
                && copyingConstructor(constructor, 0)) {
            return creation.getArguments().get(0);
        }
        if (!(expression instanceof MethodInvocationTree call)
                || !(flow.trees.getElement(flow.pathOf(call)) instanceof ExecutableElement method)
                || !(method.getEnclosingElement() instanceof TypeElement owner)) {
            return null;
        }
        String name = method.getSimpleName().toString();
        String ownerName = owner.getQualifiedName().toString();
        if (name.equals("copyOf") && call.getArguments().size() == 1 && (ownerName.equals("java.util.List")
                || ownerName.equals("java.util.Set") || ownerName.equals("java.util.Map"))
                || (name.equals("copyOf") || name.equals("copyOfRange")) && ownerName.equals("java.util.Arrays")) {
            return call.getArguments().get(0); // Arrays.copyOf(rows, n) shares the rows
        }
        if (!(call.getMethodSelect() instanceof MemberSelectTree select)) {
            return null;
        }
        TypeMirror receiver = flow.trees.getTypeMirror(flow.pathOf(select.getExpression()));
        if (name.equals("clone") && call.getArguments().isEmpty() && receiver != null
                && (receiver.getKind() == TypeKind.ARRAY || sharedByItsClone(receiver))) {
            return select.getExpression(); // a shallow copy: rows.clone() shares the rows
        }
        boolean copies = name.equals("toArray") && receiver != null && flow.viewResults.isA(receiver, "java.util.Collection")
                || (name.equals("toList") || name.equals("collect") || name.equals("toArray"))
                        && receiver != null && flow.viewResults.isA(receiver, "java.util.stream.BaseStream");
        return copies ? select.getExpression() : null;
    }
}
