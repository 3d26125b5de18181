package org.sessionj.processor.check;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.DeconstructionPatternTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * adv21 B9: the methods of the program that Java or the JDK calls where the source shows no call of them, for SJ024
 * across methods ({@link UncheckedExits}): <em>a call Java or the JDK makes on a program object is a call of that
 * method</em>, resolved on the value's static type as a call written out would be — so an unchecked exit of the
 * method (a plain local session it, or a method it calls, leaves live) meets the handlers around the place that makes
 * the call. Modelled (docs/diagnostics.md, SJ024 "Implicit calls"):
 * <ul>
 * <li>the {@code close()} of a try-with-resources resource, at the end of its block;</li>
 * <li>the {@code iterator()} of an enhanced for's {@code Iterable}, and the {@code hasNext()} and {@code next()} of
 * the class that {@code iterator()} is declared to return;</li>
 * <li>the accessors a record pattern calls (each one the record declares itself);</li>
 * <li>{@code toString()} of an operand of a string concatenation ({@code +}, {@code +=}), and of the argument of
 * {@code String.valueOf(Object)}, {@code StringBuilder}/{@code StringBuffer.append(Object)},
 * {@code PrintStream}/{@code PrintWriter.print}/{@code println(Object)}, {@code Objects.toString};</li>
 * <li>{@code hashCode()} and {@code equals(Object)} of the key or element given to a JDK set or map's
 * {@code add}, {@code contains}, {@code remove}, {@code put}, {@code get}, {@code containsKey}, {@code putIfAbsent},
 * {@code getOrDefault}, {@code computeIfAbsent}, {@code merge}, and of the arguments of {@code Objects.equals},
 * {@code Objects.hash}, {@code Objects.hashCode}; {@code equals} of the element given to another collection's
 * {@code contains}, {@code remove}, {@code indexOf}, {@code lastIndexOf};</li>
 * <li>{@code compareTo} of the elements of a list given to {@code Collections.sort}, {@code max}, {@code min},
 * of an array given to {@code Arrays.sort}, of a list sorted by {@code list.sort(null)}, and of the key or element
 * given to a {@code TreeMap}/{@code TreeSet}'s {@code put}, {@code add}, {@code get}, {@code contains},
 * {@code containsKey}, {@code remove}.</li>
 * </ul>
 * Not modelled: a method the static type does not declare (a subclass's override behind an {@code Object} or an
 * interface of the JDK), the JDK's other calls of program objects (a stream's {@code sorted()}, a
 * {@code HashMap}'s rehash on a later {@code put}).
 */
final class ImplicitCallees {
    private final Elements elements;
    private final Types types;
    /** The program's method each class is called through, by class and {@code name/arity} (null: the JDK's own). */
    private final Map<TypeElement, Map<String, ExecutableElement>> resolved = new IdentityHashMap<>();

    ImplicitCallees(Elements elements, Types types) {
        this.elements = elements;
        this.types = types;
    }

    /** The JDK methods that call {@code toString()} of their (only or first) argument. */
    private static final Map<String, Set<String>> TO_STRING = Map.of(
            "java.lang.String", Set.of("valueOf"),
            "java.lang.StringBuilder", Set.of("append", "insert"),
            "java.lang.StringBuffer", Set.of("append", "insert"),
            "java.lang.AbstractStringBuilder", Set.of("append", "insert"),
            "java.io.PrintStream", Set.of("print", "println"),
            "java.io.PrintWriter", Set.of("print", "println"),
            "java.util.Objects", Set.of("toString"));

    /** The methods of a JDK set or map that hash (or, sorted, compare) their first argument, a key or an element. */
    private static final Set<String> LOOK_UP = Set.of("add", "contains", "remove", "put", "get", "containsKey",
            "putIfAbsent", "getOrDefault", "computeIfAbsent", "merge");

    /** The methods of any other JDK collection (a list, a queue) that compare their argument with {@code equals}. */
    private static final Set<String> EQUALS = Set.of("contains", "remove", "indexOf", "lastIndexOf");

    /**
     * The program's methods a try-with-resources statement {@code tree} calls when its block ends: each resource's
     * {@code close()} ({@code sessionApi}: the session API's own resources are not the program's), with the resource.
     */
    void resources(TryTree tree, TreePath at, Trees trees, SessionApi api, Map<Tree, ExecutableElement> into) {
        for (Tree resource : tree.getResources()) {
            TypeMirror type = trees.getTypeMirror(new TreePath(at, resource));
            if (type instanceof DeclaredType declared && declared.asElement() instanceof TypeElement owner) {
                ExecutableElement close = api.closeMethod(owner);
                if (program(close)) {
                    into.put(resource, close);
                }
            }
        }
    }

    /** The program's methods an enhanced for over an {@code Iterable} of static type {@code iterable} calls. */
    List<ExecutableElement> iteration(TypeMirror iterable) {
        List<ExecutableElement> found = new ArrayList<>();
        ExecutableElement iterator = member(iterable, "iterator", 0);
        if (iterator != null) {
            found.add(iterator);
        }
        TypeMirror returned = iterator != null ? iterator.getReturnType() : null;
        if (iterable instanceof DeclaredType declared && returned == null) {
            ExecutableElement jdk = anyMember(declared, "iterator");
            returned = jdk == null ? null : jdk.getReturnType();
        }
        addIfProgram(found, member(returned, "hasNext", 0));
        addIfProgram(found, member(returned, "next", 0));
        return found;
    }

    /** The accessors of a program's record that a record pattern over {@code record} calls and that it declares itself. */
    List<ExecutableElement> accessors(Element record) {
        List<ExecutableElement> found = new ArrayList<>();
        if (record instanceof TypeElement type && !jdk(type)) {
            for (RecordComponentElement component : type.getRecordComponents()) {
                ExecutableElement accessor = component.getAccessor();
                if (accessor != null && program(accessor)) {
                    found.add(accessor);
                }
            }
        }
        return found;
    }

    /** The {@code toString()} of the program's that a string concatenation's operand of static type {@code type} calls. */
    ExecutableElement toStringOf(TypeMirror type) {
        return member(type, "toString", 0);
    }

    /** Whether Java may call a method of the program at {@code tree} with no call in the source ({@link #at}). */
    static boolean mayCall(Tree tree) {
        return tree != null && (tree.getKind() == Tree.Kind.PLUS || tree.getKind() == Tree.Kind.PLUS_ASSIGNMENT
                || tree.getKind() == Tree.Kind.ENHANCED_FOR_LOOP || tree.getKind() == Tree.Kind.DECONSTRUCTION_PATTERN);
    }

    /**
     * The program's methods Java calls at {@code tree} (its path {@code path}) with no call in the source, for a body
     * the checker does not read ({@link UncheckedExits#callsOf}): a string concatenation's operands' {@code toString()},
     * an enhanced for's {@link #iteration}, a record pattern's {@link #accessors}.
     */
    List<ExecutableElement> at(Tree tree, TreePath path, Trees trees) {
        List<ExecutableElement> found = new ArrayList<>();
        if (tree instanceof BinaryTree || tree instanceof CompoundAssignmentTree) {
            for (ExpressionTree operand : concatenated(tree, path, trees)) {
                addIfProgram(found, toStringOf(trees.getTypeMirror(new TreePath(path, operand))));
            }
        } else if (tree instanceof EnhancedForLoopTree loop && overIterable(loop, path, trees)) {
            found.addAll(iteration(trees.getTypeMirror(new TreePath(path, loop.getExpression()))));
        } else if (tree instanceof DeconstructionPatternTree pattern) {
            found.addAll(accessors(record(pattern, path, trees)));
        }
        return found;
    }

    /** Each operand of a string concatenation {@code tree} ({@code +} of a String, or {@code +=}), for {@link #toStringOf}. */
    static List<ExpressionTree> concatenated(Tree tree, TreePath path, Trees trees) {
        List<ExpressionTree> operands = new ArrayList<>();
        if (tree instanceof BinaryTree binary && tree.getKind() == Tree.Kind.PLUS && string(trees.getTypeMirror(path))) {
            operands.add(binary.getLeftOperand());
            operands.add(binary.getRightOperand());
        } else if (tree instanceof CompoundAssignmentTree compound && tree.getKind() == Tree.Kind.PLUS_ASSIGNMENT
                && string(trees.getTypeMirror(new TreePath(path, compound.getVariable())))) {
            operands.add(compound.getExpression());
        }
        return operands;
    }

    private static boolean string(TypeMirror type) {
        return type instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                && element.getQualifiedName().contentEquals("java.lang.String");
    }

    /**
     * The program's methods the JDK method {@code method}, called at {@code call} (its path {@code path}), calls on the
     * objects given to it: their {@code toString()}, {@code hashCode()} and {@code equals}, {@code compareTo}
     * (see the class comment).
     */
    List<ExecutableElement> givenToJdk(MethodInvocationTree call, ExecutableElement method, TreePath path, Trees trees) {
        List<ExecutableElement> found = new ArrayList<>();
        if (!(method.getEnclosingElement() instanceof TypeElement owner) || call.getArguments().isEmpty()) {
            return found;
        }
        String ownerName = owner.getQualifiedName().toString();
        String name = method.getSimpleName().toString();
        List<? extends ExpressionTree> arguments = call.getArguments();
        Set<String> toString = TO_STRING.get(ownerName);
        if (toString != null && toString.contains(name)) {
            ExpressionTree argument = arguments.get(name.equals("insert") && arguments.size() > 1 ? 1 : 0);
            addIfProgram(found, toStringOf(typeOf(argument, path, trees)));
            return found;
        }
        if (ownerName.equals("java.util.Objects") && (name.equals("equals") || name.equals("hash")
                || name.equals("hashCode"))) {
            for (ExpressionTree argument : arguments) {
                hashing(found, typeOf(argument, path, trees));
            }
            return found;
        }
        if (ownerName.equals("java.util.Collections") && (name.equals("sort") || name.equals("max") || name.equals("min"))
                && arguments.size() == 1) {
            addIfProgram(found, member(elementType(typeOf(arguments.get(0), path, trees)), "compareTo", 1));
            return found;
        }
        if (ownerName.equals("java.util.Arrays") && name.equals("sort") && arguments.size() == 1
                && typeOf(arguments.get(0), path, trees) instanceof ArrayType array) {
            addIfProgram(found, member(array.getComponentType(), "compareTo", 1));
            return found;
        }
        if (method.getModifiers().contains(Modifier.STATIC) || !(call.getMethodSelect() instanceof MemberSelectTree select)) {
            return found;
        }
        TypeMirror receiver = typeOf(select.getExpression(), path, trees);
        if (name.equals("sort") && arguments.size() == 1 && FlowScanner.strip(arguments.get(0)).getKind()
                == Tree.Kind.NULL_LITERAL && collection(receiver, "java.util.List")) {
            addIfProgram(found, member(elementType(receiver), "compareTo", 1));
        } else if (LOOK_UP.contains(name) && (collection(receiver, "java.util.Set")
                || collection(receiver, "java.util.Map"))) {
            TypeMirror key = typeOf(arguments.get(0), path, trees);
            if (sorted(receiver)) {
                addIfProgram(found, member(key, "compareTo", 1));
            } else {
                hashing(found, key);
            }
        } else if (EQUALS.contains(name) && collection(receiver, "java.util.Collection")) {
            addIfProgram(found, member(typeOf(arguments.get(0), path, trees), "equals", 1)); // a list compares with equals
        }
        return found;
    }

    private void hashing(List<ExecutableElement> found, TypeMirror type) {
        addIfProgram(found, member(type, "hashCode", 0));
        addIfProgram(found, member(type, "equals", 1));
    }

    private static TypeMirror typeOf(ExpressionTree tree, TreePath path, Trees trees) {
        return trees.getTypeMirror(new TreePath(path, tree));
    }

    /** Whether {@code type} is (a subtype of) the JDK's {@code name}, erased. */
    private boolean collection(TypeMirror type, String name) {
        TypeElement element = elements.getTypeElement(name);
        return type != null && element != null && type.getKind() == TypeKind.DECLARED
                && types.isSubtype(types.erasure(type), types.erasure(element.asType()));
    }

    /** Whether {@code type} is a sorted set or map ({@code TreeSet}, {@code TreeMap}): it compares, not hashes. */
    private boolean sorted(TypeMirror type) {
        return collection(type, "java.util.SortedSet") || collection(type, "java.util.SortedMap");
    }

    /** The element type of a collection type {@code type} ({@code List<Key>}: {@code Key}), or null. */
    private static TypeMirror elementType(TypeMirror type) {
        return type instanceof DeclaredType declared && declared.getTypeArguments().size() == 1
                ? declared.getTypeArguments().get(0) : null;
    }

    private void addIfProgram(List<ExecutableElement> found, ExecutableElement method) {
        if (method != null && program(method) && !found.contains(method)) {
            found.add(method);
        }
    }

    /**
     * The program's method {@code name} of {@code arity} parameters that a call on a value of static type {@code type}
     * runs, as a call written out resolves it: the most specific one of its class's members; null when that is the
     * JDK's (or none, or the type is no class: a type variable is taken at its bound).
     */
    ExecutableElement member(TypeMirror type, String name, int arity) {
        if (type != null && type.getKind() == TypeKind.TYPEVAR) {
            type = ((javax.lang.model.type.TypeVariable) type).getUpperBound();
        }
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement owner)) {
            return null;
        }
        Map<String, ExecutableElement> of = resolved.get(owner);
        if (of == null) {
            of = new HashMap<>();
            resolved.put(owner, of);
        }
        String key = name + "/" + arity;
        if (of.containsKey(key)) {
            return of.get(key);
        }
        ExecutableElement found = null;
        if (!jdk(owner)) {
            for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(owner))) {
                if (method.getSimpleName().contentEquals(name) && method.getParameters().size() == arity
                        && !method.getModifiers().contains(Modifier.STATIC)
                        && (found == null || elements.overrides(method, found, owner))) {
                    found = method;
                }
            }
        }
        ExecutableElement program = found != null && program(found) ? found : null;
        of.put(key, program);
        return program;
    }

    /** Any method {@code name} of {@code type}'s class (the JDK's too), or null. */
    private ExecutableElement anyMember(DeclaredType type, String name) {
        if (!(type.asElement() instanceof TypeElement owner)) {
            return null;
        }
        for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(owner))) {
            if (method.getSimpleName().contentEquals(name) && method.getParameters().isEmpty()) {
                return method;
            }
        }
        return null;
    }

    /** Whether {@code method} is the program's (not the JDK's, nor the session API's). */
    private boolean program(ExecutableElement method) {
        if (method == null || !(method.getEnclosingElement() instanceof TypeElement owner) || jdk(owner)) {
            return false;
        }
        PackageElement pkg = elements.getPackageOf(owner);
        String name = pkg == null ? "" : pkg.getQualifiedName().toString();
        return !(name.equals("org.sessionj.api") || name.startsWith("org.sessionj.api.")
                || name.equals("org.sessionj.runtime") || name.startsWith("org.sessionj.runtime."));
    }

    /** Whether {@code type} is the JDK's ({@link ThrowSites#inJdk}'s rule, without a checker at hand). */
    private boolean jdk(TypeElement type) {
        PackageElement pkg = elements.getPackageOf(type);
        String name = pkg == null ? "" : pkg.getQualifiedName().toString();
        if (name.startsWith("java.")) {
            return true;
        }
        if (!name.startsWith("javax.")) {
            return false;
        }
        javax.lang.model.element.ModuleElement module = elements.getModuleOf(type);
        String moduleName = module == null || module.isUnnamed() ? "" : module.getQualifiedName().toString();
        return moduleName.startsWith("java.") || moduleName.startsWith("jdk.");
    }

    /** Whether an enhanced for {@code loop} runs over an {@code Iterable} (not an array). */
    static boolean overIterable(EnhancedForLoopTree loop, TreePath path, Trees trees) {
        TypeMirror type = trees.getTypeMirror(new TreePath(path, loop.getExpression()));
        return type != null && type.getKind() != TypeKind.ARRAY;
    }

    /** The record a record pattern {@code pattern} at {@code path} deconstructs, or null. */
    static Element record(DeconstructionPatternTree pattern, TreePath path, Trees trees) {
        return trees.getElement(new TreePath(path, pattern.getDeconstructor()));
    }
}
