package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * Which results may be a {@code @NoAlias} value itself or a view over it (docs/noalias.md, "Results that may
 * be the value"): a call's result ({@link #returnsView}), an element read from the value or a view of it
 * ({@link #elementMayView}), and the elements' type of a container ({@link #elementType}). Decided from
 * types alone, and on the safe side: a result whose type could hold a view is taken as one.
 */
final class ViewResults {
    private final MethodChecker flow;

    ViewResults(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * The elements' type of {@code type}: an array's component, an {@code Iterable}'s or a stream's first
     * type argument, a map's values' type (as seen from {@code type}); {@code Object} for a raw one (adv19 A3:
     * {@code (Collection) x.entrySet()} holds the map's entries all the same); null for anything else.
     */
    TypeMirror elementType(TypeMirror type) {
        if (type.getKind() == TypeKind.ARRAY) {
            return ((javax.lang.model.type.ArrayType) type).getComponentType();
        }
        if (type.getKind() != TypeKind.DECLARED) {
            return null;
        }
        javax.lang.model.type.DeclaredType declared = (javax.lang.model.type.DeclaredType) type;
        String name = ((TypeElement) declared.asElement()).getQualifiedName().toString();
        if (name.equals("java.lang.Iterable") || name.equals("java.util.stream.BaseStream")) {
            return declared.getTypeArguments().isEmpty() ? object() : declared.getTypeArguments().get(0);
        }
        if (name.equals("java.util.Map")) { // its values: a copy of the map holds the same value objects
            return declared.getTypeArguments().size() == 2 ? declared.getTypeArguments().get(1) : object();
        }
        for (TypeMirror supertype : flow.types.directSupertypes(type)) {
            TypeMirror element = elementType(supertype);
            if (element != null) {
                return element;
            }
        }
        return null;
    }

    /** The elements' type of a raw container: anything. */
    private TypeMirror object() {
        return flow.elements.getTypeElement("java.lang.Object").asType();
    }


    /**
     * Invariant (docs/noalias.md, "Results that may be the value"): <em>the result of a call on a
     * {@code @NoAlias} value is taken as (possibly) the value itself when its static type could hold
     * the value or a view over it</em> — the value's class, a subclass or a supertype of it (a fluent
     * {@code Buf set(int v) { …; return this; }}, {@code StringBuilder.append}), or one of the JDK's
     * view types ({@link #VIEW_TYPES}: {@code subList}, {@code keySet}, {@code iterator},
     * {@code stream}, {@code ByteBuffer.put}) — unless the method is known to return a new value:
     * {@code clone()}, {@code toString()}, a stream's terminal operations ({@link #STREAM_TERMINALS}),
     * a primitive, a {@code String} or a boxed primitive. The JDK methods of {@link #viewFactory}
     * return a view of their first argument ({@code Arrays.stream(x)}, {@code Collections.unmodifiableList(x)}).
     * Returns whether the call at {@code callPath} may so return {@code operand}'s value (its receiver,
     * or a view factory's first argument) or a view of it.
     */
    boolean returnsView(TreePath callPath, Tree operand) {
        if (!(callPath.getLeaf() instanceof MethodInvocationTree call)
                || !(flow.trees.getElement(callPath) instanceof ExecutableElement method)) {
            return false;
        }
        if (call.getMethodSelect() instanceof MemberSelectTree select && select.getExpression() == operand) {
            if (method.getModifiers().contains(javax.lang.model.element.Modifier.STATIC)) {
                return false; // a static method named through an instance: the instance is not given to it
            }
            TypeMirror receiver = flow.trees.getTypeMirror(new TreePath(new TreePath(callPath, select), operand));
            return receiver != null && viewOfReceiver(callPath, method, receiver);
        }
        if (call.getArguments().indexOf(operand) != 0) {
            return false;
        }
        if (viewFactory(method, call)) {
            return true;
        }
        // Collections.max(x.entrySet(), cmp) is one of the map's own nodes (adv16 A3's addendum)
        TypeMirror argument = ELEMENT_OF_FIRST.contains(method.getSimpleName().toString())
                && method.getEnclosingElement() instanceof TypeElement owner
                && owner.getQualifiedName().contentEquals("java.util.Collections")
                ? flow.trees.getTypeMirror(new TreePath(callPath, operand)) : null;
        return argument != null && elementsMayView(argument);
    }

    /** {@code java.util.Collections}' methods that return an element of their first argument. */
    private static final Set<String> ELEMENT_OF_FIRST = Set.of("max", "min");

    /** Whether the call at {@code callPath} of {@code method} on a receiver of type {@code receiver} may return it or a view. */
    private boolean viewOfReceiver(TreePath callPath, ExecutableElement method, TypeMirror receiver) {
        TypeMirror result = flow.trees.getTypeMirror(callPath);
        TypeKind kind = result == null ? TypeKind.ERROR : result.getKind();
        if (kind != TypeKind.DECLARED && kind != TypeKind.ARRAY && kind != TypeKind.TYPEVAR
                && kind != TypeKind.INTERSECTION && kind != TypeKind.WILDCARD) {
            return false; // a primitive, void, or not understood
        }
        String name = method.getSimpleName().toString();
        if (method.getParameters().isEmpty() && (name.equals("clone") || name.equals("toString"))) {
            return false;
        }
        if (STREAM_TERMINALS.contains(name) && isA(receiver, "java.util.stream.BaseStream")) {
            // findFirst, min, reduce, …: one of the stream's elements, a view when they may be (adv16 A3's
            // addendum: x.entrySet().stream().findFirst().get() is one of the map's own nodes)
            return ELEMENT_TERMINALS.contains(name) && elementsMayView(receiver);
        }
        if (name.equals("toArray") && isA(receiver, "java.util.Collection")) {
            return false; // a new array (of the same elements: JdkCopies#copiedSource)
        }
        return mayView(result, receiver);
    }

    /**
     * Whether an element of type {@code element} that an enhanced {@code for} statement reads from an
     * {@code Iterable} of type {@code iterable} may be (a view of) the iterated value, as the same element
     * read by {@code get(i)} or {@code next()} may be (adv16 A1: a {@code Map.Entry} of {@code entrySet()} is
     * the map's own node; a row of a list of lists is typed like a view).
     */
    boolean elementMayView(TypeMirror element, TypeMirror iterable) {
        TypeKind kind = element.getKind();
        return (kind == TypeKind.DECLARED || kind == TypeKind.TYPEVAR || kind == TypeKind.INTERSECTION
                || kind == TypeKind.ARRAY)
                && (iterable.getKind() == TypeKind.DECLARED || iterable.getKind() == TypeKind.ARRAY)
                && mayView(element, iterable);
    }

    /** Whether the elements of a value of type {@code container} (an array, an {@code Iterable}, a stream) may be views of it. */
    boolean elementsMayView(TypeMirror container) {
        TypeMirror element = elementType(container);
        return element != null && elementMayView(element, container);
    }

    /**
     * Whether the array access {@code access} (at {@code path}) reads an element that may be a view of the
     * array: a row of an array of arrays, a list in an array of lists ({@link #elementMayView}).
     */
    boolean elementMayView(TreePath path) {
        if (!(path.getLeaf() instanceof ArrayAccessTree access)) {
            return false;
        }
        TypeMirror array = flow.trees.getTypeMirror(new TreePath(path, access.getExpression()));
        TypeMirror element = flow.trees.getTypeMirror(path);
        return array != null && element != null && array.getKind() == TypeKind.ARRAY && elementMayView(element, array);
    }

    /** Whether a result of type {@code result} of a call on a receiver of type {@code receiver} may be it or a view. */
    private boolean mayView(TypeMirror result, TypeMirror receiver) {
        TypeMirror returned = flow.types.erasure(result);
        if (returned.getKind() == TypeKind.ARRAY) {
            return true; // anyone's array may be changed through: a getter's internal array, a row of rows
        }
        if (returned.getKind() == TypeKind.DECLARED && IMMUTABLE.contains(
                ((TypeElement) flow.types.asElement(returned)).getQualifiedName().toString())) {
            return false;
        }
        TypeMirror own = flow.types.erasure(receiver);
        if (flow.types.isSubtype(own, returned) || flow.types.isSubtype(returned, own)) {
            return true;
        }
        for (String view : VIEW_TYPES) {
            if (isA(returned, view)) {
                return true;
            }
        }
        return innerOf(returned, own) || holdsViews(result, receiver);
    }

    /**
     * Whether a value of the generic type {@code type} may hold a view of a value of type {@code receiver}
     * (adv19 A12, closed by a rule rather than a list of holders): one of its type arguments may be one
     * ({@code Optional<Map.Entry<K, V>>}, {@code CompletableFuture<int[]>}, {@code Supplier<List<T>>}, a program's
     * {@code Box<Map.Entry<K, V>>}) — a generic type's type argument names what it holds or hands out, and a
     * value typed so may well be keeping the very element it was made from ({@code map(Optional::of)},
     * {@code map(CompletableFuture::completedFuture)}, {@code map(e -> () -> e)}). A raw generic type may hold
     * anything; a wildcard is read as its bound (none: anything), a type variable or an array as a possible view.
     * An {@code Optional<String>} holds nothing of it.
     */
    private boolean holdsViews(TypeMirror type, TypeMirror receiver) {
        if (!(type instanceof javax.lang.model.type.DeclaredType declared)) {
            return false;
        }
        if (declared.getTypeArguments().isEmpty()) {
            return declared.asElement() instanceof TypeElement element && !element.getTypeParameters().isEmpty();
        }
        for (TypeMirror argument : declared.getTypeArguments()) {
            if (argumentMayView(argument, receiver)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the type argument {@code argument} of a generic type may be (or hold) a view (see {@link #holdsViews}). */
    private boolean argumentMayView(TypeMirror argument, TypeMirror receiver) {
        if (argument instanceof WildcardType wildcard) {
            TypeMirror bound = wildcard.getExtendsBound() != null ? wildcard.getExtendsBound() : wildcard.getSuperBound();
            return bound == null || argumentMayView(bound, receiver);
        }
        TypeKind kind = argument.getKind();
        if (kind == TypeKind.DECLARED) {
            return mayView(argument, receiver);
        }
        return kind == TypeKind.ARRAY || kind == TypeKind.TYPEVAR || kind == TypeKind.INTERSECTION;
    }

    /**
     * Whether {@code type} is an inner class (a member class that is not static: its instances keep their
     * enclosing instance) of {@code own}'s class or of one of its supertypes — a user class's own view of
     * itself, as {@code Grid.Row} of a {@code Grid} (adv16 A2).
     */
    private boolean innerOf(TypeMirror type, TypeMirror own) {
        if (type.getKind() != TypeKind.DECLARED || !(flow.types.asElement(type) instanceof TypeElement element)) {
            return false;
        }
        for (Element at = element; at instanceof TypeElement member && at.getEnclosingElement() instanceof TypeElement outer;
                at = outer) {
            if (member.getNestingKind() != javax.lang.model.element.NestingKind.MEMBER
                    || member.getModifiers().contains(javax.lang.model.element.Modifier.STATIC)
                    || member.getKind() != ElementKind.CLASS) {
                return false;
            }
            if (flow.types.isSubtype(own, flow.types.erasure(outer.asType()))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code type}'s erasure is a subtype of the erasure of the class named {@code name}. */
    boolean isA(TypeMirror type, String name) {
        TypeElement element = flow.elements.getTypeElement(name);
        return element != null && flow.types.isSubtype(flow.types.erasure(type), flow.types.erasure(element.asType()));
    }

    /**
     * The JDK types whose instances a method typically returns as a view over its receiver's state:
     * collections and maps ({@code subList}, {@code keySet}, {@code values}), their entries, iterators and
     * spliterators, streams (lazy: they read the source when a terminal operation runs), NIO buffers
     * ({@code put}, {@code slice}, {@code asIntBuffer}) and character sequences other than {@code String}.
     */
    private static final List<String> VIEW_TYPES = List.of("java.util.Collection", "java.util.Map",
            "java.util.Map.Entry", "java.lang.Iterable", "java.util.Iterator", "java.util.Spliterator",
            "java.util.Enumeration", "java.util.stream.BaseStream", "java.nio.Buffer", "java.lang.CharSequence");

    /** Types of values nobody can change: a call returning one never hands out a view. */
    private static final Set<String> IMMUTABLE = Set.of("java.lang.String", "java.lang.Integer", "java.lang.Long",
            "java.lang.Short", "java.lang.Byte", "java.lang.Character", "java.lang.Boolean", "java.lang.Float",
            "java.lang.Double", "java.lang.Class");

    /** The terminal operations of {@link #STREAM_TERMINALS} whose result is (an {@code Optional} of) one of the elements. */
    private static final Set<String> ELEMENT_TERMINALS = Set.of("findFirst", "findAny", "min", "max", "reduce");

    /** A stream's terminal operations: they consume the stream and return new values (or elements). */
    private static final Set<String> STREAM_TERMINALS = Set.of("collect", "toList", "toArray", "reduce", "count",
            "sum", "average", "min", "max", "findFirst", "findAny", "anyMatch", "allMatch", "noneMatch",
            "summaryStatistics", "forEach", "forEachOrdered");

    /**
     * JDK methods that return a view of their first argument, keeping it: {@code java.util.Arrays}'
     * {@code stream}, {@code spliterator} and one-argument {@code asList}; {@code java.util.Collections}'
     * {@code unmodifiable…}, {@code synchronized…} and {@code checked…} wrappers; the streams' one-argument
     * {@code of} ({@code IntStream.of(x)} is {@code Arrays.stream(x)}); the NIO buffers' {@code wrap}.
     * Consumed in the statement ({@code Arrays.stream(x).sum()}), they only read the value; stored, the
     * variable is a view (docs/noalias.md).
     */
    private static boolean viewFactory(ExecutableElement method, MethodInvocationTree call) {
        if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
            return false;
        }
        String name = method.getSimpleName().toString();
        String type = owner.getQualifiedName().toString();
        return switch (type) {
            case "java.util.Arrays" -> name.equals("stream") || name.equals("spliterator")
                    || name.equals("asList") && call.getArguments().size() == 1;
            case "java.util.Collections" -> name.startsWith("unmodifiable") || name.startsWith("synchronized")
                    || name.startsWith("checked");
            case "java.util.stream.Stream", "java.util.stream.IntStream", "java.util.stream.LongStream",
                    "java.util.stream.DoubleStream" -> name.equals("of") && call.getArguments().size() == 1;
            default -> type.startsWith("java.nio.") && type.endsWith("Buffer") && name.equals("wrap");
        };
    }

    /**
     * Whether the elements of the stream {@code stream} are new values that cannot be views (adv17 A5): a
     * {@code map} of the JDK's entry copies ({@code Map.Entry::copyOf}, {@code AbstractMap.SimpleEntry::new},
     * {@code e -> Map.entry(e.getKey(), e.getValue())}) whose keys and values cannot be views themselves — a
     * snapshot of a map's entries, not its nodes.
     */
    boolean freshElements(Tree stream) {
        if (!(stream instanceof MethodInvocationTree call) || call.getArguments().size() != 1
                || !(call.getMethodSelect() instanceof MemberSelectTree select)
                || !select.getIdentifier().contentEquals("map")) {
            return false;
        }
        TreePath path = flow.pathOf(call);
        TypeMirror result = flow.trees.getTypeMirror(path);
        TypeMirror entry = result == null ? null : elementType(result);
        if (entry == null || entry.getKind() != TypeKind.DECLARED
                || !isA(entry, "java.util.Map.Entry") || !entryCopy(call.getArguments().get(0), new TreePath(path,
                        call.getArguments().get(0)))) {
            return false;
        }
        for (TypeMirror part : ((javax.lang.model.type.DeclaredType) entry).getTypeArguments()) {
            if (part.getKind() != TypeKind.DECLARED || elementMayView(part, entry)) {
                return false; // a copied entry still holds the same key and value objects
            }
        }
        return true;
    }

    /** Whether {@code function} (at {@code path}) makes a new entry of the one it is given: the JDK's entry copies. */
    private boolean entryCopy(Tree function, TreePath path) {
        Tree body = function instanceof com.sun.source.tree.LambdaExpressionTree lambda ? lambda.getBody() : function;
        if (body instanceof com.sun.source.tree.BlockTree block && block.getStatements().size() == 1
                && block.getStatements().get(0) instanceof com.sun.source.tree.ReturnTree returned) {
            body = returned.getExpression();
        }
        if (body instanceof com.sun.source.tree.ExpressionTree expression) {
            body = FlowScanner.strip(expression);
        }
        return body != null && copiesEntry(new TreePath(path, body));
    }

    /**
     * Whether the call, constructor call or method reference at {@code path} is one of the JDK's entry copies
     * ({@code Map.entry}, {@code Map.Entry.copyOf}, the {@code AbstractMap.SimpleEntry} and
     * {@code SimpleImmutableEntry} constructors): it reads the key and the value of what it is given and keeps
     * neither the entry nor a view of it.
     */
    boolean copiesEntry(TreePath path) {
        Element made = flow.trees.getElement(path);
        if (!(made instanceof ExecutableElement method) || !(method.getEnclosingElement() instanceof TypeElement owner)) {
            return false;
        }
        String type = owner.getQualifiedName().toString();
        String name = method.getSimpleName().toString();
        return type.equals("java.util.Map") && name.equals("entry")
                || type.equals("java.util.Map.Entry") && name.equals("copyOf")
                || (type.equals("java.util.AbstractMap.SimpleEntry") || type.equals("java.util.AbstractMap.SimpleImmutableEntry"))
                        && method.getKind() == ElementKind.CONSTRUCTOR;
    }
}
