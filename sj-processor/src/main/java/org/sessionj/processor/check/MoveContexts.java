package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssertTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BindingPatternTree;
import com.sun.source.tree.CaseLabelTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.PatternCaseLabelTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreePath;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * What a use of a {@code @NoAlias} value does, read from where it stands in the tree: a whole-value
 * use moves the value (into a variable, a call, a return, an array, a lambda, ...), a use through it
 * ({@code x[i]}, {@code x.f}, {@code x.m()}, comparisons) only reads it, and an array given to a JDK
 * method that only reads or writes its elements ({@link #borrowedBy}) only borrows it.
 */
final class MoveContexts {
    private final MethodChecker flow;

    MoveContexts(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * How a whole-value use at {@code path} moves the value (e.g. "into a call of 'f'"), or null when it
     * only reads through it ({@code x[i]}, {@code x.f}, {@code x.m()}, comparisons, ...).
     */
    String moveContext(TreePath path) {
        Reach reach = reach(path);
        Tree parent = reach.parentPath().getLeaf();
        String move = (parent instanceof NewClassTree || parent instanceof MethodInvocationTree)
                && flow.jdkCopies.copiedSource((ExpressionTree) parent) == reach.value() ? copyMoves(reach.parentPath()) : null;
        if (move == null) {
            move = destination(reach.value(), reach.parentPath());
        }
        if (move == null) {
            move = flow.elementConsumers.keptAlong(path, reach.value());
        }
        if (move == null && reach.parentPath().getLeaf() instanceof MemberSelectTree select
                && select.getExpression() == reach.value() && reach.parentPath().getParentPath() != null
                && reach.parentPath().getParentPath().getLeaf() instanceof MethodInvocationTree call
                && call.getMethodSelect() == select && flow.jdkCopies.copiedSource(call) == reach.value()) {
            move = copyMoves(reach.parentPath().getParentPath()); // keep.addAll(x.entrySet().stream().toList())
        }
        if (move == null || reach.view() == null) {
            return move;
        }
        return move + (reach.view() instanceof MethodInvocationTree call ? " (as the result of '"
                + FlowScanner.calleeName(call) + "'" : " (as its element '" + reach.view() + "'")
                + ", which may be the value itself or a view of it)";
    }

    /**
     * Where a use's value goes: the outermost expression whose value may be the used value itself
     * ({@code value}, under {@code parentPath}) — through parentheses, casts, either arm of a conditional,
     * a switch expression's arms, {@link #passesThrough} calls and calls that may return it or a view of
     * it ({@link ViewResults#returnsView}) and array accesses that read an element that may be a view of
     * the array ({@link ViewResults#elementMayView(TreePath)}: a row of rows); the first such call or
     * access is {@code view}, else null.
     */
    record Reach(Tree value, TreePath parentPath, ExpressionTree view) {
    }

    /** Where the value used at {@code path} goes (see {@link Reach}). */
    Reach reach(TreePath path) {
        TreePath parentPath = path.getParentPath();
        Tree innermost = path.getLeaf();
        ExpressionTree view = null;
        while (true) {
            Tree parent = parentPath.getLeaf();
            if (parent instanceof ParenthesizedTree || parent instanceof TypeCastTree
                    || parent instanceof ConditionalExpressionTree conditional && conditional.getCondition() != innermost) {
                innermost = parent;
                parentPath = parentPath.getParentPath();
            } else if (parent instanceof MethodInvocationTree call && passesThrough(parentPath, innermost)) {
                innermost = parent; // Objects.requireNonNull(x) is x: where its result goes, x goes
                parentPath = parentPath.getParentPath();
            } else if (parent instanceof MemberSelectTree select && select.getExpression() == innermost
                    && parentPath.getParentPath() != null
                    && parentPath.getParentPath().getLeaf() instanceof MethodInvocationTree call
                    && call.getMethodSelect() == select && flow.viewResults.returnsView(parentPath.getParentPath(), innermost)) {
                innermost = call; // x.subList(0, 1), b.append(1): the result may be x or a view of it (adv14 A1)
                view = view == null ? call : view;
                parentPath = parentPath.getParentPath().getParentPath();
            } else if (parent instanceof MethodInvocationTree call && flow.viewResults.returnsView(parentPath, innermost)) {
                innermost = call; // Arrays.stream(x), Collections.unmodifiableList(x): a view of x
                view = view == null ? call : view;
                parentPath = parentPath.getParentPath();
            } else if (parent instanceof ArrayAccessTree access && access.getExpression() == innermost
                    && flow.viewResults.elementMayView(parentPath)) {
                innermost = access; // int[] row = x[0]: a row of x's, which the peer owns once x is passed
                view = view == null ? access : view;
                parentPath = parentPath.getParentPath();
            } else if (parent instanceof SwitchExpressionTree switchExpression
                    && switchExpression.getExpression() != innermost) {
                innermost = parent; // an arm's value, scanned with the switch expression as parent
                parentPath = parentPath.getParentPath();
            } else if (parent instanceof YieldTree
                    || parent instanceof CaseTree caseTree && caseTree.getBody() == innermost
                            && parentPath.getParentPath().getLeaf() instanceof SwitchExpressionTree) {
                // The value of a switch expression's arm is the switch expression's value.
                TreePath up = parentPath;
                while (up != null && !(up.getLeaf() instanceof SwitchExpressionTree)) {
                    up = up.getParentPath();
                }
                if (up == null) {
                    return new Reach(innermost, parentPath, null);
                }
                innermost = up.getLeaf();
                parentPath = up.getParentPath();
            } else {
                break;
            }
        }
        return new Reach(innermost, parentPath, view);
    }

    /** How a value that is {@code child}'s, under {@code parentPath}, moves there (see {@link #moveContext}). */
    private String destination(Tree child, TreePath parentPath) {
        if (parentPath.getLeaf() instanceof YieldTree) {
            return null; // a yield outside a switch expression (javac rejects it)
        }
        TreePath grandparent = parentPath.getParentPath();
        Tree outer = grandparent == null ? null : grandparent.getLeaf();
        // instanceof, not a pattern switch: javac loads the processor afresh for every compilation, and
        // each switch's bootstrap would be linked cold every time (NoPatternSwitchTest)
        Tree parent = parentPath.getLeaf();
        if (parent instanceof InstanceOfTree test) {
            // A type pattern binds the tested value itself (an alias); a record pattern only reads its
            // components through the accessors, as x.a() would.
            return bindsValue(test.getPattern()) ? "into a pattern variable" : null;
        } else if (parent instanceof SwitchTree statement) {
            return statement.getExpression() == child && bindsSelector(statement.getCases())
                    ? "into a pattern variable" : null;
        } else if (parent instanceof SwitchExpressionTree expression) {
            return bindsSelector(expression.getCases()) ? "into a pattern variable" : null;
        } else if (parent instanceof ThrowTree) {
            return "by a throw"; // the catch up the stack receives the value itself
        } else if (parent instanceof MemberReferenceTree reference) {
            return reference.getQualifierExpression() == child ? "into a bound method reference" : null;
        } else if (parent instanceof VariableTree variable) {
            return "into '" + variable.getName() + "'";
        } else if (parent instanceof AssignmentTree assignment) {
            return assignment.getExpression() == child ? "into '" + assignment.getVariable() + "'" : null;
        } else if (parent instanceof MethodInvocationTree call) {
            if (!call.getArguments().contains(child)) {
                return null;
            }
            return "into a call of '" + FlowScanner.calleeName(call) + "'" + (printsIt(call)
                    ? " (a PrintStream's class may be the program's and keep it; print String.valueOf(it), which only reads it)"
                    : "");
        } else if (parent instanceof NewClassTree creation) {
            if (creation.getArguments().contains(child)) {
                return "into a constructor call";
            }
            return creation.getEnclosingExpression() == child ? "into the new object (as its enclosing instance)" : null;
        } else if (parent instanceof MemberSelectTree select) {
            // o.super(…) in a constructor of a subclass of an inner class: o becomes this object's
            // enclosing instance, as in o.new Inner()
            return select.getExpression() == child && select.getIdentifier().contentEquals("super")
                    && outer instanceof MethodInvocationTree call && call.getMethodSelect() == select
                    ? "into the new object (as its enclosing instance)" : null;
        } else if (parent instanceof ReturnTree) {
            return "by a return";
        } else if (parent instanceof NewArrayTree) {
            return "into an array";
        } else if (parent instanceof LambdaExpressionTree) {
            return "out of a lambda";
        }
        return null;
    }

    /**
     * Whether a switch with these cases binds its selector's value itself to a pattern variable: a case
     * label that is a type pattern ({@code case int[] f}), not only constants or record patterns.
     */
    private static boolean bindsSelector(List<? extends CaseTree> cases) {
        for (CaseTree caseTree : cases) {
            for (CaseLabelTree label : caseTree.getLabels()) {
                if (label instanceof PatternCaseLabelTree pattern && bindsValue(pattern.getPattern())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code pattern} binds the tested value itself to a named variable (not {@code _}). */
    private static boolean bindsValue(Tree pattern) {
        return pattern instanceof BindingPatternTree binding && !binding.getVariable().getName().isEmpty()
                && !binding.getVariable().getName().contentEquals("_");
    }

    /**
     * JDK methods that only read or write the elements of some of the arrays they are given and keep no
     * reference to those arrays (nor return one): passing a {@code @NoAlias} array as one of them is a
     * read through it, like {@code x[i]}. Only the parameters that receive such an array borrow: in
     * {@code java.util.Arrays}, the parameters of an array type; in {@code System.arraycopy}, {@code src}
     * and {@code dest} (declared {@code Object}: positions 0 and 2). Any other parameter may keep or hand
     * on its argument and moves it: {@code fill}'s value is stored in every element, {@code binarySearch}'s
     * key goes to the elements' {@code compareTo} or the comparator, a comparator, generator or operator
     * is user code. ({@code Arrays.asList}, {@code Arrays.stream}, {@code Collections.addAll},
     * {@code List.of} and {@code Objects.requireNonNull} keep or return their arguments and are not here.)
     */
    private static final Set<String> ARRAYS_BORROWING = Set.of("fill", "sort", "parallelSort", "toString",
            "deepToString", "equals", "deepEquals", "hashCode", "deepHashCode", "copyOf", "copyOfRange",
            "binarySearch", "mismatch", "compare", "setAll", "parallelSetAll", "parallelPrefix");

    /** How {@link #copyMoves} names a move through a copy of the value's elements. */
    static final String THROUGH_A_COPY = " (through a copy of its elements, which may be views of it)";

    /**
     * How the JDK copy at {@code copyPath} ({@link JdkCopies#copiedSource}) moves the value it copies, or null (adv18 A5).
     * Invariant (docs/noalias.md, "Results that may be the value"): <em>a copy whose elements may be views of the
     * value carries that fact wherever it goes</em>: kept in a local, it is followed as a copy of views
     * (SJ048); given to code that keeps it or stores its elements ({@code keep.addAll(new ArrayList<>(
     * x.entrySet()))}, {@code System.arraycopy(x.entrySet().toArray(), …)}, {@code take(List.copyOf(…))}),
     * returned or stored in a field, it moves the value as the value's own view would.
     */
    String copyMoves(TreePath copyPath) {
        TypeMirror copy = flow.jdkCopies.copyType(copyPath);
        if (copy == null || !flow.viewResults.elementsMayView(copy) || flow.views.storedAsView(copyPath, false)
                || copyOfFreshElements(copyPath)) {
            return null;
        }
        String move = moveContext(copyPath);
        return move == null || borrowedBy(copyPath) ? null
                : move.contains(THROUGH_A_COPY) ? move : move + THROUGH_A_COPY; // a copy of a copy: said once
    }

    /**
     * Whether the JDK copy at {@code copyPath} copies a stream of new entries ({@link ViewResults#freshElements}:
     * {@code m.entrySet().stream().map(Map.Entry::copyOf).toList()}, the snapshot SJ041's own hint suggests), which
     * holds nothing of the value wherever it goes: kept in a local it was accepted already, given to
     * {@code keep.addAll(…)} it was taken as a copy of views (a false alarm found in the nineteenth session).
     */
    private boolean copyOfFreshElements(TreePath copyPath) {
        ExpressionTree source = copyPath.getLeaf() instanceof ExpressionTree copy ? flow.jdkCopies.copiedSource(copy) : null;
        return source != null && flow.viewResults.freshElements(FlowScanner.strip(source));
    }

    /** Whether {@code call} is a {@code PrintStream}'s print, println, printf or format (the usual debugging print). */
    private boolean printsIt(MethodInvocationTree call) {
        return flow.trees.getElement(flow.pathOf(call)) instanceof ExecutableElement method
                && method.getEnclosingElement() instanceof TypeElement owner
                && owner.getQualifiedName().contentEquals("java.io.PrintStream")
                && PRINTS.contains(method.getSimpleName().toString());
    }

    private static final Set<String> PRINTS = Set.of("print", "println", "printf", "format");

    /**
     * Methods of final JDK classes that turn their arguments into text and keep none of them: they call
     * {@code toString()} (or {@code Formattable.formatTo}) on the value — a method called on the object,
     * trusted not to keep {@code this} like {@code x.m()} — or copy a {@code char[]}'s characters.
     * {@code String.valueOf}, {@code copyValueOf}, {@code format}, {@code formatted}, {@code join}.
     */
    private static final Set<String> STRING_READING = Set.of("valueOf", "copyValueOf", "format", "formatted",
            "join");

    /** {@code java.util.Objects}' methods that only call {@code hashCode}/{@code toString} on every argument or test it. */
    private static final Set<String> OBJECTS_READING = Set.of("hashCode", "hash", "isNull", "nonNull");

    /**
     * {@code java.util.Objects}' methods that call a method on their first argument only: {@code equals(a, b)}
     * runs {@code a.equals(b)}, which may keep {@code b}; {@code toString(o, nullDefault)} may return its second.
     */
    private static final Set<String> OBJECTS_READING_FIRST = Set.of("equals", "deepEquals", "toString");

    /**
     * Whether the use at {@code path} is an argument of a JDK method that only borrows it: one of the
     * arrays whose elements {@code java.util.Arrays}' methods ({@link #ARRAYS_BORROWING}) or
     * {@code System.arraycopy} read or write, or a value that {@code String}, {@code StringBuilder},
     * {@code StringBuffer} or {@code Objects} only turn into text, hash or compare as the receiver
     * ({@link #STRING_READING}, {@link #OBJECTS_READING}, {@link #OBJECTS_READING_FIRST}), or the source
     * a JDK copy constructor or {@code copyOf} factory copies ({@link JdkCopies#COPYING_CONSTRUCTORS}). Not
     * {@code PrintStream.println(x)}: the stream's class may be the program's (System.setOut), and may keep it.
     */
    boolean borrowedBy(TreePath path) {
        Tree child = path.getLeaf();
        for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
            Tree leaf = p.getLeaf();
            if (leaf instanceof ParenthesizedTree || leaf instanceof TypeCastTree) {
                child = leaf;
                continue;
            }
            if (leaf instanceof MemberSelectTree select && select.getExpression() == child && p.getParentPath() != null
                    && p.getParentPath().getLeaf() instanceof MethodInvocationTree call && call.getMethodSelect() == select
                    && flow.viewResults.returnsView(p.getParentPath(), child)) {
                child = call; // String.valueOf(x.subList(0, 1)) reads x as String.valueOf(x) does
                p = p.getParentPath();
                continue;
            }
            if (leaf instanceof ArrayAccessTree access && access.getExpression() == child && flow.viewResults.elementMayView(p)
                    || leaf instanceof MethodInvocationTree call && call.getArguments().indexOf(child) == 0
                            && flow.viewResults.returnsView(p, child)) {
                child = leaf; // Arrays.fill(x[0], 1) fills a row of x; f(Collections.max(x.entrySet(), c)) gets an entry of x
                continue;
            }
            if (leaf instanceof NewClassTree creation) {
                int argument = creation.getArguments().indexOf(child);
                return argument >= 0 && creation.getClassBody() == null
                        && flow.trees.getElement(p) instanceof ExecutableElement constructor
                        && flow.jdkCopies.copyingConstructor(constructor, argument) && copyMoves(p) == null;
            }
            int position = leaf instanceof MethodInvocationTree call ? call.getArguments().indexOf(child) : -1;
            if (position >= 0 && flow.trees.getElement(p) instanceof ExecutableElement method
                    && method.getEnclosingElement() instanceof TypeElement owner) {
                String name = method.getSimpleName().toString();
                if (copiesElementsOut(owner, name, position)
                        && flow.viewResults.elementsMayView(flow.trees.getTypeMirror(new TreePath(p, child)))) {
                    return false; // other.addAll(rows): the other collection keeps rows of the value
                }
                if (fillsOrReadsDuringTheCall(owner, name, position, method)) {
                    // ... unless a comparator or operator it is given keeps the elements (they may be views)
                    return flow.elementConsumers.keptBy((MethodInvocationTree) leaf, p,
                            flow.trees.getTypeMirror(new TreePath(p, child))) == null;
                }
                return switch (owner.getQualifiedName().toString()) {
                    case "java.lang.System" -> name.equals("arraycopy") && (position == 0 || position == 2);
                    // Arrays.copyOf(copy, n) is a copy of a copy: it borrows only if where it goes does not move (adv19 A4)
                    case "java.util.Arrays" -> ARRAYS_BORROWING.contains(name) && !method.isVarArgs()
                            && position < method.getParameters().size()
                            && method.getParameters().get(position).asType().getKind() == TypeKind.ARRAY
                            && !(name.startsWith("copyOf") && copyMoves(p) != null);
                    case "java.lang.String" -> STRING_READING.contains(name)
                            || (name.equals("getChars") || name.equals("getBytes")) && position == 2;
                    case "java.lang.StringBuilder", "java.lang.StringBuffer" -> name.equals("append")
                            || name.equals("insert") && position > 0;
                    case "java.util.Objects" -> OBJECTS_READING.contains(name)
                            || position == 0 && OBJECTS_READING_FIRST.contains(name);
                    case "java.util.List", "java.util.Set", "java.util.Map", "java.util.EnumSet" -> name.equals("copyOf")
                            && copyMoves(p) == null;
                    default -> false;
                };
            }
            return false;
        }
        return false;
    }

    /**
     * Whether argument {@code position} of {@code owner.name} is a source whose elements the call stores into
     * another container ({@code System.arraycopy}'s {@code src}, a collection's {@code addAll},
     * {@code Collections.copy}'s {@code src}): it borrows the source only when its elements cannot be views.
     */
    private boolean copiesElementsOut(TypeElement owner, String name, int position) {
        String ownerName = owner.getQualifiedName().toString();
        return ownerName.equals("java.lang.System") && name.equals("arraycopy") && position == 0
                || ownerName.equals("java.util.Collections") && name.equals("copy") && position == 1
                || name.equals("addAll") && !ownerName.equals("java.util.Collections")
                        && flow.viewResults.isA(owner.asType(), "java.util.Collection");
    }

    /**
     * The JDK methods whose contract is to write into, reorder or read their argument during the call and
     * keep nothing of it (adv16 A11: filling a {@code @NoAlias} buffer was a move, and the hint to give the call
     * a clone lost the data): an input stream's, a {@code DataInput}'s or a reader's {@code read},
     * {@code readNBytes} and {@code readFully} of an array; {@code nextBytes} of the JDK's random generators;
     * a {@code java.nio} buffer's bulk {@code get} and {@code put} of an array; {@code Collections}' in-place
     * algorithms and queries; and a JDK collection's {@code addAll}, {@code containsAll}, {@code removeAll},
     * {@code retainAll} of another collection (which copy or read its elements). As for a value's own
     * methods, a program class that overrides one of these to keep the argument breaks the JDK's contract,
     * and is trusted not to.
     */
    private boolean fillsOrReadsDuringTheCall(TypeElement owner, String name, int position, ExecutableElement method) {
        String ownerName = owner.getQualifiedName().toString();
        if (!ownerName.startsWith("java.") || position >= method.getParameters().size()) {
            return false;
        }
        TypeMirror parameter = flow.types.erasure(method.getParameters().get(position).asType());
        boolean array = parameter.getKind() == TypeKind.ARRAY;
        TypeMirror ownType = owner.asType();
        return switch (name) {
            case "read", "readNBytes", "readFully" -> array && (flow.viewResults.isA(ownType, "java.io.InputStream")
                    || flow.viewResults.isA(ownType, "java.io.DataInput") || flow.viewResults.isA(ownType, "java.io.Reader"));
            case "nextBytes" -> array && (flow.viewResults.isA(ownType, "java.util.Random")
                    || flow.viewResults.isA(ownType, "java.util.random.RandomGenerator"));
            case "get", "put" -> array && flow.viewResults.isA(ownType, "java.nio.Buffer");
            case "addAll", "containsAll", "removeAll", "retainAll" -> !ownerName.equals("java.util.Collections")
                    && flow.viewResults.isA(ownType, "java.util.Collection") && flow.viewResults.isA(parameter, "java.util.Collection");
            default -> ownerName.equals("java.util.Collections") && COLLECTIONS_IN_PLACE.contains(name);
        } || ownerName.equals("java.util.Collections") && name.equals("addAll") && position == 0;
    }

    /** {@code Collections}' methods that reorder, fill or read the collections they are given, keeping none. */
    private static final Set<String> COLLECTIONS_IN_PLACE = Set.of("sort", "reverse", "shuffle", "swap", "fill",
            "rotate", "copy", "binarySearch", "max", "min", "frequency", "disjoint", "indexOfSubList",
            "lastIndexOfSubList", "replaceAll");

    /**
     * Whether the use at {@code path} is (through parentheses, casts, conditionals and calls that return
     * their argument, {@link #passesThrough}) an argument of {@code call}.
     */
    boolean isArgumentOf(TreePath path, Tree call) {
        Tree child = path.getLeaf();
        for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
            Tree leaf = p.getLeaf();
            if (leaf == call) {
                return true;
            }
            if (leaf instanceof MemberSelectTree select && select.getExpression() == child && p.getParentPath() != null
                    && p.getParentPath().getLeaf() instanceof MethodInvocationTree view
                    && view.getMethodSelect() == select && flow.viewResults.returnsView(p.getParentPath(), child)) {
                p = p.getParentPath(); // f(x.subList(0, 1), x.size()): f takes a view of x with its other arguments
                leaf = view;
            } else if (!(leaf instanceof ParenthesizedTree || leaf instanceof TypeCastTree
                    || leaf instanceof ConditionalExpressionTree || passesThrough(p, child) || flow.viewResults.returnsView(p, child)
                    || leaf instanceof ArrayAccessTree access && access.getExpression() == child
                            && flow.viewResults.elementMayView(p))) {
                return false;
            }
            child = leaf;
        }
        return false;
    }

    /**
     * {@code java.util.Objects} methods whose result is one of their arguments (and that keep nothing):
     * {@code requireNonNull(x…)} returns {@code x}, {@code requireNonNullElse(x, d)} returns {@code x} or
     * {@code d}, {@code requireNonNullElseGet(x, s)} returns {@code x} or what {@code s} gives.
     */
    private static final Set<String> RETURNS_ARGUMENT = Set.of("requireNonNull", "requireNonNullElse",
            "requireNonNullElseGet");

    /**
     * Whether the call at {@code call} is one of {@link #RETURNS_ARGUMENT} and returns {@code argument}:
     * then using its result is using the argument (a statement {@code Objects.requireNonNull(x);} only
     * reads {@code x}, {@code f = Objects.requireNonNull(x)} moves it into {@code f}).
     */
    boolean passesThrough(TreePath call, Tree argument) {
        if (!(call.getLeaf() instanceof MethodInvocationTree invocation)) {
            return false;
        }
        int position = invocation.getArguments().indexOf(argument);
        if (position < 0 || !(flow.trees.getElement(call) instanceof ExecutableElement method)
                || !(method.getEnclosingElement() instanceof TypeElement owner)
                || !owner.getQualifiedName().contentEquals("java.util.Objects")
                || !RETURNS_ARGUMENT.contains(method.getSimpleName().toString())) {
            return false;
        }
        return position == 0 || position == 1 && method.getSimpleName().contentEquals("requireNonNullElse");
    }

    /**
     * Whether {@code call} takes nothing itself and its result is, or is a view of, its first argument
     * ({@link #RETURNS_ARGUMENT}, {@link #VIEW_FACTORIES}): its arguments move only where its result goes.
     */
    boolean passesOn(Tree call) {
        if (returnsArgument(call)) {
            return true;
        }
        if (!(call instanceof MethodInvocationTree invocation) || invocation.getArguments().isEmpty()) {
            return false;
        }
        TreePath path = flow.pathOf(call);
        return path != null && flow.viewResults.returnsView(path, invocation.getArguments().get(0));
    }

    /** Whether {@code call} is one of {@link #RETURNS_ARGUMENT}: its arguments move only where its result goes. */
    boolean returnsArgument(Tree call) {
        if (!(call instanceof MethodInvocationTree invocation) || invocation.getArguments().isEmpty()) {
            return false;
        }
        TreePath path = flow.pathOf(call);
        return path != null && passesThrough(path, invocation.getArguments().get(0));
    }

    /**
     * The detail of an {@code assert} ({@code assert c : d}) goes to {@code new AssertionError(d)}, which
     * keeps it as the error's cause when it is a Throwable: a {@code @NoAlias} detail is moved there.
     */
    boolean throwableDetail(TreePath path) {
        TreePath parent = path.getParentPath();
        while (parent != null && (parent.getLeaf() instanceof ParenthesizedTree || parent.getLeaf() instanceof TypeCastTree)) {
            parent = parent.getParentPath();
        }
        if (parent == null || !(parent.getLeaf() instanceof AssertTree check)
                || check.getDetail() == null || FlowScanner.strip(check.getDetail()) != path.getLeaf()) {
            return false;
        }
        TypeMirror type = flow.trees.getTypeMirror(path);
        return type != null && flow.types.isAssignable(type,
                flow.elements.getTypeElement("java.lang.Throwable").asType());
    }


    /**
     * The local declaration ({@code VariableTree}) or assignment the value used at {@code path} is stored
     * by, through a call that may return it or a view of it when {@code throughView} (else through
     * parentheses, casts, conditionals and the like only); null when it goes anywhere else.
     */
    Tree storedBy(TreePath path, boolean throughView) {
        Reach reach = reach(path);
        if (throughView && reach.view() == null) {
            return null;
        }
        Tree parent = reach.parentPath().getLeaf();
        if (parent instanceof VariableTree) {
            return parent;
        }
        return parent instanceof AssignmentTree assignment && assignment.getExpression() == reach.value() ? parent : null;
    }
}
