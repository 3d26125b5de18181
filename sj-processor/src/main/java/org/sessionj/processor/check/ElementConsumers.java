package org.sessionj.processor.check;

import com.sun.source.tree.ArrayTypeTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * The code a call on a {@code @NoAlias} value (or a view of it) hands the value's elements to (adv16 A3's
 * addendum): {@code x.entrySet().forEach(keep::add)} gives each of the map's own nodes to {@code keep.add},
 * which keeps them after {@code x} is passed. Invariant (docs/noalias.md, "Results that may be the value"):
 * <em>an element that may be a view of the value ({@link ViewResults#elementMayView}) reaches only code that
 * lets it escape nowhere</em> — a lambda whose parameters are only read through ({@code e -> total +=
 * e.getValue()}), an object made there of a class whose source is read the same way (an anonymous
 * {@code new Consumer<>() {…}}, {@code new Keeper()} of a class in this file: adv19 A8), a method reference that
 * calls the element's own method ({@code Map.Entry::getKey}) or a JDK static method or constructor
 * ({@code Map.Entry::copyOf}), or a functional value the JDK made ({@code Map.Entry.comparingByValue()}). Any
 * other functional argument — a lambda that stores, returns or passes on its parameter (or returns code that
 * captures it), a bound or static method reference ({@code keep::add}), a JDK constructor or static method
 * reference whose result may keep it unfollowed ({@code EventObject::new}), a functional value of the program's
 * held in a field, a constant ({@code Keeper.INSTANCE}) or a variable that may hold more than one, an object whose
 * class inherits the functional method — moves the value, as giving it to that code would. A local variable that
 * always holds one lambda or method reference is read as that code ({@link HeldFunctions#fixedValue}).
 */
final class ElementConsumers {
    private final MethodChecker flow;
    private final ElementContainers containers;

    ElementConsumers(MethodChecker flow) {
        this.flow = flow;
        this.containers = new ElementContainers(flow, this);
    }

    /**
     * How the value used at {@code use} is kept by the code that a call on it, or on a result that may be
     * it or a view of it up to {@code outermost} ({@link MoveContexts#reach}), gives its elements to
     * ({@code x.entrySet().stream().filter(e -> keep.add(e)).count()}), or null.
     */
    String keptAlong(TreePath use, Tree outermost) {
        for (TreePath at = use; at != null && at.getParentPath() != null; at = at.getParentPath()) {
            String kept = keptBy(at.getLeaf(), at.getParentPath());
            if (kept != null || at.getLeaf() == outermost) {
                return kept;
            }
        }
        return null;
    }

    /**
     * How the value {@code value} (under {@code parentPath}) is kept by the code a call on it gives its
     * elements to (the receiver of {@code forEach}, {@code removeIf}, {@code stream().filter}, …), or null.
     */
    private String keptBy(Tree value, TreePath parentPath) {
        if (flow.views.owns() && parentPath.getLeaf() instanceof MethodInvocationTree call
                && call.getArguments().indexOf(value) == 0 && flow.viewResults.returnsView(parentPath, value)) {
            // Collections.max(x.entrySet(), comparing(e -> keep.add(e))): the comparator is given the elements
            return keptBy(call, parentPath, flow.trees.getTypeMirror(new TreePath(parentPath, value)));
        }
        if (!flow.views.owns() || !(parentPath.getLeaf() instanceof MemberSelectTree select)
                || select.getExpression() != value || parentPath.getParentPath() == null
                || !(parentPath.getParentPath().getLeaf() instanceof MethodInvocationTree call)
                || call.getMethodSelect() != select || call.getArguments().isEmpty()) {
            return null;
        }
        return keptBy(call, parentPath.getParentPath(), flow.trees.getTypeMirror(new TreePath(parentPath, value)));
    }

    /**
     * How the call at {@code callPath}, which reads a value of type {@code valueType} (its receiver or an
     * argument it borrows: {@code Collections.sort(x, cmp)}), lets that value's elements escape through one
     * of its functional arguments, or null when none can keep them.
     */
    String keptBy(MethodInvocationTree call, TreePath callPath, TypeMirror valueType) {
        if (valueType == null || valueType.getKind() != TypeKind.DECLARED && valueType.getKind() != TypeKind.ARRAY) {
            return null;
        }
        String kept = containers.intoContainer(call, callPath, valueType);
        boolean intoNewContainer = containers.collectsIntoNewContainer(call, callPath);
        boolean returnsStay = resultStaysWithValue(call, callPath);
        for (ExpressionTree argument : call.getArguments()) {
            if (kept != null) {
                break;
            }
            kept = functionalKeeps(argument, new TreePath(callPath, argument), valueType, returnsStay, intoNewContainer);
        }
        return kept == null ? null : kept + " given its elements by '" + FlowScanner.calleeName(call)
                + "' (they may be views of it)";
    }

    /**
     * How the functional argument {@code argument} (at {@code path}) lets an element of a value of type
     * {@code valueType} escape, or null: a lambda's code is read ({@link #lambdaKeeps}), any other functional
     * value given elements that may be views is judged by what it is ({@link #opaqueKeeps}). When
     * {@code containerFirst}, its first parameter is the new container a three-argument {@code collect} or
     * {@code Collector.of} fills (an accumulator), which may keep the elements: the container is the result.
     */
    String functionalKeeps(ExpressionTree argument, TreePath path, TypeMirror valueType, boolean returnsStay,
            boolean containerFirst) {
        ExpressionTree stripped = FlowScanner.strip(argument);
        TreePath strippedPath = new TreePath(path.getParentPath(), stripped);
        if (stripped instanceof LambdaExpressionTree lambda) {
            return lambdaKeeps(lambda, strippedPath, valueType, returnsStay, containerFirst);
        }
        if (stripped instanceof TypeCastTree cast) { // ((Consumer<Entry<K, V>>) e -> keep.add(e)).andThen(…)
            return functionalKeeps(cast.getExpression(), new TreePath(strippedPath, cast.getExpression()), valueType,
                    returnsStay, containerFirst);
        }
        if (stripped instanceof IdentifierTree) {
            // a functional value held in a local variable that always holds one lambda or method reference
            // (Consumer<E> c = e -> total += e.v(); xs.forEach(c)) is read as that code, given here
            TreePath held = HeldFunctions.fixedValue(strippedPath, flow.trees);
            if (held != null) {
                return functionalKeeps((ExpressionTree) held.getLeaf(), held, valueType, returnsStay, containerFirst);
            }
        }
        TypeMirror type = flow.trees.getTypeMirror(path);
        if (stripped instanceof NewClassTree creation) {
            // given to a functional parameter, or the receiver or operand of a JDK builder's functional value
            // (new Consumer<>() {…}.andThen(…), a cast of it), which runs it on the elements as well
            Tree parent = path.getParentPath().getLeaf();
            boolean given = functionalParameter(path) || parent instanceof MemberSelectTree || parent instanceof TypeCastTree;
            if (!given || !objectGivenViews(type, valueType)) {
                return null;
            }
            TreePath body = readableClass(creation, strippedPath, type, valueType);
            return body != null ? classKeeps(body, valueType, returnsStay, containerFirst)
                    : opaqueKeeps(stripped, strippedPath, valueType, returnsStay, containerFirst);
        }
        // adv19 A8: an object of a class implementing the functional interface, given other than by 'new'
        // (an enum constant Keeper.INSTANCE, a field, a variable, this), may be of a subclass, or its class's
        // source is not read here: code the checker does not read
        boolean views = givenViews(type, valueType)
                || !(stripped instanceof MemberReferenceTree) && functionalParameter(path) && objectGivenViews(type, valueType);
        return views ? opaqueKeeps(stripped, strippedPath, valueType, returnsStay, containerFirst) : null;
    }

    /**
     * The class body of the object {@code creation} (at {@code path}, of type {@code type}) makes, when the
     * checker reads it as a lambda's body (adv19 A8): an anonymous class's, or a named class's whose source is
     * in this compilation unit ({@code class Keeper implements Consumer<…>} declared in the method or file);
     * and it declares itself the method of every functional interface among its supertypes that is given
     * values that may be views (else what runs is a superclass's method, not read). Null otherwise.
     */
    private TreePath readableClass(NewClassTree creation, TreePath path, TypeMirror type, TypeMirror valueType) {
        TreePath body;
        if (creation.getClassBody() != null) {
            body = new TreePath(path, creation.getClassBody());
        } else {
            Element made = type instanceof DeclaredType declared ? declared.asElement() : null;
            body = made == null ? null : flow.trees.getPath(made);
            if (body == null || body.getCompilationUnit() != path.getCompilationUnit()
                    || !(body.getLeaf() instanceof ClassTree)) {
                return null;
            }
        }
        if (!(flow.trees.getElement(body) instanceof TypeElement made)) {
            return null;
        }
        for (DeclaredType functional : functionalTypes(type, 0)) {
            ExecutableElement method = flow.contracts.functionalMethod(functional);
            if (givenViews(functional, valueType) && (method == null || !declares(made, method))) {
                return null;
            }
        }
        return body;
    }

    /** Whether the class {@code made} declares a method that implements {@code method}. */
    private boolean declares(TypeElement made, ExecutableElement method) {
        for (Element member : made.getEnclosedElements()) {
            if (member instanceof ExecutableElement own && member.getKind() == ElementKind.METHOD
                    && flow.elements.overrides(own, method, made)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where the methods of the class body at {@code body} (adv19 A8: {@code new Consumer<>() { public void
     * accept(E e) { … } }}) let a parameter that may receive a view of the value go, or null: each method's
     * body is read as a lambda's ({@link #escapeOf}). All its instance methods are read, not only the functional
     * one: the JDK may call a default method the class overrides.
     */
    private String classKeeps(TreePath body, TypeMirror valueType, boolean returnsStay, boolean containerFirst) {
        ClassTree type = (ClassTree) body.getLeaf();
        for (Tree member : type.getMembers()) {
            if (!(member instanceof MethodTree method) || method.getBody() == null) {
                continue;
            }
            TreePath methodPath = new TreePath(body, method);
            Element declared = flow.trees.getElement(methodPath);
            if (declared == null || declared.getKind() != ElementKind.METHOD || declared.getModifiers().contains(Modifier.STATIC)) {
                continue; // a constructor or a static method is not given the elements by the object's user
            }
            Element container = containerFirst && !method.getParameters().isEmpty()
                    ? flow.trees.getElement(new TreePath(methodPath, method.getParameters().get(0))) : null;
            for (VariableTree parameter : method.getParameters()) {
                Element element = flow.trees.getElement(new TreePath(methodPath, parameter));
                if (element == null || element == container
                        || !flow.viewResults.elementMayView(element.asType(), valueType)) {
                    continue;
                }
                String escape = escapeOf(element, container, methodPath, returnsStay);
                if (escape != null) {
                    return "into " + (type.getSimpleName().isEmpty() ? "an anonymous class" : "an object of '"
                            + type.getSimpleName() + "'") + " (its method '" + method.getName() + "' lets its parameter '"
                            + parameter.getName() + "' go " + escape + ")";
                }
            }
        }
        return null;
    }

    /**
     * Whether the argument at {@code path} is given to a parameter of a functional interface type (not
     * {@code Iterable}, a container): an object made there is code the call runs ({@code forEach(new Keeper())}).
     */
    private boolean functionalParameter(TreePath path) {
        if (!(path.getParentPath().getLeaf() instanceof MethodInvocationTree call)
                || !(flow.trees.getElement(path.getParentPath()) instanceof ExecutableElement method)) {
            return false;
        }
        int index = call.getArguments().indexOf(path.getLeaf());
        if (index < 0 || method.getParameters().isEmpty()) {
            return false;
        }
        TypeMirror parameter = method.getParameters().get(Math.min(index, method.getParameters().size() - 1)).asType();
        return flow.contracts.functionalMethod(parameter) != null && !flow.viewResults.isA(parameter, "java.lang.Iterable");
    }

    /**
     * Whether an object of {@code type}, a class given as a functional argument (adv19 A8: {@code new
     * Consumer<Entry<K, V>>() {…}}, {@code new Keeper()} of a class implementing one), is given values that may
     * be views: through a functional interface among its supertypes that is ({@link #givenViews}).
     */
    private boolean objectGivenViews(TypeMirror type, TypeMirror valueType) {
        for (DeclaredType functional : functionalTypes(type, 0)) {
            if (givenViews(functional, valueType)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether what the functional arguments of {@code call} return stays with the value: a JDK collection's
     * or map's own method stores it back into the value ({@code m.computeIfPresent(k, (k, v) -> v)},
     * {@code replaceAll}), and a call whose result may be the value or a view of it carries it on, still
     * tracked ({@code x.entrySet().stream().map(e -> e)}).
     */
    private boolean resultStaysWithValue(MethodInvocationTree call, TreePath callPath) {
        if (flow.trees.getElement(callPath) instanceof ExecutableElement method
                && method.getEnclosingElement() instanceof TypeElement owner
                && owner.getQualifiedName().toString().startsWith("java.util.")
                && (flow.viewResults.isA(owner.asType(), "java.util.Map")
                        || flow.viewResults.isA(owner.asType(), "java.util.Collection"))) {
            return true;
        }
        return call.getMethodSelect() instanceof MemberSelectTree select
                && flow.viewResults.returnsView(callPath, select.getExpression());
    }

    /**
     * Where the lambda lets a parameter that may receive a view of the value go ("into a lambda (its
     * parameter …)"), or null; a return of it is no escape when {@code returnsStay} ({@link #resultStaysWithValue}).
     */
    private String lambdaKeeps(LambdaExpressionTree lambda, TreePath lambdaPath, TypeMirror valueType, boolean returnsStay,
            boolean containerFirst) {
        Element container = containerFirst && !lambda.getParameters().isEmpty()
                ? flow.trees.getElement(new TreePath(lambdaPath, lambda.getParameters().get(0))) : null;
        for (VariableTree parameter : lambda.getParameters()) {
            Element element = flow.trees.getElement(new TreePath(lambdaPath, parameter));
            if (element == null || element == container || !flow.viewResults.elementMayView(element.asType(), valueType)) {
                continue;
            }
            String escape = escapeOf(element, container, lambdaPath, returnsStay);
            if (escape != null) {
                return "into a lambda (its parameter '" + parameter.getName() + "' goes " + escape + ")";
            }
        }
        return null;
    }

    /**
     * The first use of {@code parameter} in the lambda or method at {@code codePath} that lets it escape ("into a call
     * of 'add' on line 7"), or null; returning it is none when {@code returnsStay}, nor is giving it to a method
     * of {@code container} (an accumulator's new container, or null).
     */
    private String escapeOf(Element parameter, Element container, TreePath codePath, boolean returnsStay) {
        String[] found = new String[1];
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree identifier, Void unused) {
                if (found[0] == null && flow.trees.getElement(getCurrentPath()) == parameter) {
                    String move = flow.moveContexts.moveContext(getCurrentPath());
                    TreePath goesToPath = flow.moveContexts.reach(getCurrentPath()).parentPath();
                    Tree goesTo = goesToPath.getLeaf();
                    // a return of the code read, not of a lambda or class inside it: e -> () -> e hands e out
                    boolean returned = (goesTo instanceof ReturnTree || goesTo instanceof LambdaExpressionTree)
                            && returnOf(goesToPath) == codePath.getLeaf();
                    boolean copied = (goesTo instanceof MethodInvocationTree || goesTo instanceof NewClassTree)
                            && flow.viewResults.copiesEntry(goesToPath); // e -> Map.Entry.copyOf(e): a snapshot
                    boolean intoContainer = container != null && goesTo instanceof MethodInvocationTree call
                            && call.getMethodSelect() instanceof MemberSelectTree select
                            && flow.trees.getElement(new TreePath(goesToPath, select.getExpression())) == container;
                    if (move != null && !(returnsStay && returned) && !copied && !intoContainer
                            && !flow.moveContexts.borrowedBy(getCurrentPath())) {
                        found[0] = move + " on line " + flow.line(identifier);
                    } else if (capturedAndReturned(getCurrentPath(), codePath)) {
                        found[0] = "into code it returns (a lambda or class that captures it) on line " + flow.line(identifier);
                    }
                }
                return null;
            }
        }.scan(codePath, null);
        return found[0];
    }

    /**
     * Whether the use at {@code use} is inside a lambda or an anonymous class that the code at {@code codePath}
     * returns ({@code e -> (Supplier<Integer>) () -> e.getValue()}): that code keeps the element after the call,
     * and its type need not say so.
     */
    private boolean capturedAndReturned(TreePath use, TreePath codePath) {
        TreePath nested = null;
        for (TreePath at = use.getParentPath(); at != null && at.getLeaf() != codePath.getLeaf(); at = at.getParentPath()) {
            if (at.getLeaf() instanceof LambdaExpressionTree
                    || at.getLeaf() instanceof NewClassTree creation && creation.getClassBody() != null) {
                nested = at;
            }
        }
        if (nested == null) {
            return false;
        }
        TreePath goesTo = flow.moveContexts.reach(nested).parentPath();
        return (goesTo.getLeaf() instanceof ReturnTree || goesTo.getLeaf() instanceof LambdaExpressionTree)
                && returnOf(goesTo) == codePath.getLeaf();
    }

    /** The lambda or method whose result the return statement or lambda body at {@code path} gives. */
    private static Tree returnOf(TreePath path) {
        for (TreePath at = path; at != null; at = at.getParentPath()) {
            if (at.getLeaf() instanceof LambdaExpressionTree || at.getLeaf() instanceof MethodTree
                    || at.getLeaf() instanceof ClassTree) {
                return at.getLeaf();
            }
        }
        return null;
    }

    /**
     * How a functional argument whose code the rule does not read keeps the elements, or null when it
     * cannot: a method reference to the element's own method ({@code Map.Entry::getValue}) and a value
     * the JDK made ({@code Map.Entry.comparingByValue()}) keep nothing.
     */
    private String opaqueKeeps(ExpressionTree argument, TreePath path, TypeMirror valueType, boolean returnsStay,
            boolean containerFirst) {
        if (argument instanceof MemberReferenceTree reference) {
            if (reference.getMode() == MemberReferenceTree.ReferenceMode.NEW
                    && reference.getQualifierExpression() instanceof ArrayTypeTree) {
                return null; // Map.Entry[]::new makes an array of a length it is given
            }
            Element target = flow.trees.getElement(path);
            Element qualifier = flow.trees.getElement(new TreePath(path, reference.getQualifierExpression()));
            // An unbound reference calls its first argument's method, giving it the others: the element's own
            // method when only the receiver may be a view (Map.Entry::getKey), the new container's own method
            // for an accumulator (ArrayList::add); not Holder::keep given an element (adv18 A1).
            boolean elementsOwnMethod = reference.getMode() == MemberReferenceTree.ReferenceMode.INVOKE
                    && qualifier instanceof TypeElement && target instanceof ExecutableElement method
                    && !method.getModifiers().contains(Modifier.STATIC)
                    && (containerFirst || method.getEnclosingElement() instanceof TypeElement owner
                            && owner.getQualifiedName().toString().startsWith("java.lang.") // StringBuilder::append reads
                            || !givesViewsBeyondReceiver(flow.trees.getTypeMirror(path), valueType));
            // A JDK static method or constructor (Map.Entry::copyOf, String::valueOf, SimpleEntry::new) keeps
            // nothing it is given but in what it returns, which goes where the call puts it (a stream's elements,
            // typed and followed) or nowhere.
            boolean jdkFunction = qualifier instanceof TypeElement && target instanceof ExecutableElement function
                    && (function.getModifiers().contains(Modifier.STATIC) || reference.getMode()
                            == MemberReferenceTree.ReferenceMode.NEW)
                    && function.getEnclosingElement() instanceof TypeElement owner
                    && owner.getQualifiedName().toString().startsWith("java.");
            if (jdkFunction && !resultFollowed((ExecutableElement) target, path)) {
                return "into the method reference '" + reference + "' (what it returns, of a class of the JDK that is "
                        + "neither generic nor a copy, may keep what it is given)";
            }
            return elementsOwnMethod || jdkFunction ? null : "into the method reference '" + reference + "'";
        }
        if (argument instanceof MethodInvocationTree call && flow.trees.getElement(path) instanceof ExecutableElement made
                && made.getEnclosingElement() instanceof TypeElement owner
                && owner.getQualifiedName().toString().startsWith("java.")) {
            return builtFrom(call, path, valueType, returnsStay);
        }
        if (argument instanceof NewClassTree creation) {
            // adv19 A8: an object of a class (anonymous or named) whose method the JDK calls with each element
            return "into " + (creation.getClassBody() != null ? "an anonymous " + creation.getIdentifier()
                    : "the object '" + argument + "'") + " (code the checker does not read: give a lambda or a method"
                    + " reference)";
        }
        return "into '" + argument + "' (code the checker does not read: give a lambda or a method reference)";
    }

    /**
     * Whether what the JDK static method or constructor {@code function}, referenced at {@code path}, returns
     * cannot keep an element out of sight: nothing is kept (the functional method returns nothing), or its type
     * is a primitive, a closed value ({@code String::valueOf}, a box: a copy), {@code BigInteger}/{@code BigDecimal}
     * (copies), a stream (consumed where it is made: {@code flatMapToInt(Arrays::stream)}), or generic, a holder
     * followed by its type arguments ({@link ViewResults#elementMayView}: {@code CompletableFuture::completedFuture},
     * {@code SimpleEntry::new}). Not a class like {@code EventObject} ({@code map(EventObject::new)} kept each
     * entry as its source, and nothing typed it as a holder).
     */
    private boolean resultFollowed(ExecutableElement function, TreePath path) {
        ExecutableElement functional = flow.contracts.functionalMethod(flow.trees.getTypeMirror(path));
        if (functional != null && functional.getReturnType().getKind() == TypeKind.VOID) {
            return true;
        }
        TypeMirror result = function.getKind() == ElementKind.CONSTRUCTOR ? function.getEnclosingElement().asType()
                : function.getReturnType();
        if (!(result instanceof DeclaredType declared) || !declared.getTypeArguments().isEmpty()
                || ThrowSites.closed(result, flow) || flow.viewResults.isA(result, "java.util.stream.BaseStream")) {
            return true; // a primitive, an array or a type variable (followed by its type), generic, closed, a stream
        }
        String name = ((TypeElement) declared.asElement()).getQualifiedName().toString();
        return name.equals("java.math.BigInteger") || name.equals("java.math.BigDecimal");
    }

    /**
     * How the program's code a JDK call builds a functional value from keeps the elements, or null (adv18 A10):
     * {@code Comparator.comparing(e -> …)}, {@code Predicate.not(keep::add)}, {@code f.andThen(g)} run the lambdas
     * and method references they are given (and the functional value they are called on) on each element, so
     * those are read as if given directly; a value the JDK made from nothing of the program's
     * ({@code Map.Entry.comparingByValue()}) keeps nothing.
     */
    private String builtFrom(MethodInvocationTree call, TreePath path, TypeMirror valueType, boolean returnsStay) {
        for (ExpressionTree part : call.getArguments()) {
            String kept = functionalKeeps(part, new TreePath(path, part), valueType, returnsStay, false);
            if (kept != null) {
                return kept;
            }
        }
        if (call.getMethodSelect() instanceof MemberSelectTree select
                && !(flow.trees.getElement(new TreePath(new TreePath(path, select), select.getExpression())) instanceof TypeElement)
                && !functionalTypes(flow.trees.getTypeMirror(new TreePath(new TreePath(path, select),
                        select.getExpression())), 0).isEmpty()) { // a value (not a type's name: Comparator.comparing);
                                                                   // an anonymous class's type is one's subtype
            TreePath selectPath = new TreePath(path, select);
            return functionalKeeps(select.getExpression(), new TreePath(selectPath, select.getExpression()), valueType,
                    returnsStay, false);
        }
        return null;
    }

    /**
     * Whether the functional type {@code functional}'s method gives a value that may be a view of a value of
     * type {@code valueType} in a parameter after its first: an unbound method reference passes those on
     * as its method's arguments.
     */
    private boolean givesViewsBeyondReceiver(TypeMirror functional, TypeMirror valueType) {
        ExecutableElement method = flow.contracts.functionalMethod(functional);
        if (!(functional instanceof DeclaredType declared) || method == null) {
            return false;
        }
        java.util.List<? extends TypeMirror> parameters;
        try {
            parameters = ((ExecutableType) flow.types.asMemberOf(declared, method)).getParameterTypes();
        } catch (IllegalArgumentException unresolved) {
            return true; // cannot tell which parameter gets what: as for code the checker does not read
        }
        for (int i = 1; i < parameters.size(); i++) {
            TypeMirror parameter = bound(parameters.get(i));
            if (parameter != null && flow.viewResults.elementMayView(parameter, valueType)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a functional argument of type {@code functional} is given values that may be views of a value of
     * type {@code valueType}: one of its type arguments (or their bounds: {@code Consumer<? super Entry<K, V>>})
     * may be one ({@link ViewResults#elementMayView}), or it is raw.
     */
    private boolean givenViews(TypeMirror functional, TypeMirror valueType) {
        if (!(functional instanceof DeclaredType declared) || flow.contracts.functionalMethod(functional) == null) {
            return false;
        }
        if (declared.getTypeArguments().isEmpty() && declared.asElement() instanceof TypeElement generic
                && !generic.getTypeParameters().isEmpty()) {
            return true; // a raw Consumer is given anything (as a raw container holds anything: adv19 A3)
        }
        for (TypeMirror argument : declared.getTypeArguments()) {
            TypeMirror type = bound(argument);
            if (type != null && flow.viewResults.elementMayView(type, valueType)) {
                return true;
            }
        }
        return false;
    }

    /** The functional interfaces {@code type} is: itself when it is one, else those among its supertypes. */
    private java.util.List<DeclaredType> functionalTypes(TypeMirror type, int depth) {
        if (!(type instanceof DeclaredType declared) || depth > 8) {
            return java.util.List.of();
        }
        if (flow.contracts.functionalMethod(type) != null) {
            return java.util.List.of(declared);
        }
        java.util.List<DeclaredType> found = new java.util.ArrayList<>();
        for (TypeMirror supertype : flow.types.directSupertypes(type)) {
            found.addAll(functionalTypes(supertype, depth + 1));
        }
        return found;
    }

    /** A wildcard's bound ({@code ? super Entry<K, V>}: {@code Entry<K, V>}; none: null), any other type itself. */
    private static TypeMirror bound(TypeMirror type) {
        return type instanceof WildcardType wildcard
                ? wildcard.getSuperBound() != null ? wildcard.getSuperBound() : wildcard.getExtendsBound()
                : type;
    }
}
