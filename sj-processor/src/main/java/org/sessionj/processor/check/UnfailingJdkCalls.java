package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/**
 * The JDK methods that cannot fail with an unchecked exception for any argument, other than the JVM's own checks
 * (a null dereference, an array too large for memory), which SJ024 does not count (adv18 A12). Which JDK calls
 * can fail is not in their class files ({@code LocalDate.parse} declares nothing), so under a catch that takes
 * the JDK's undeclared failures — one that names one ({@code catch (DateTimeParseException e)}, adv16 A16) or
 * a broad one ({@code catch (Exception e)}, {@code RuntimeException}, {@code Throwable}) — every other JDK call
 * between two actions is taken to fail. This list is kept by hand, small, and each entry is there because its
 * documentation promises no exception besides those checks:
 * <ul>
 * <li>{@code PrintStream}/{@code PrintWriter} {@code print}, {@code println}, {@code flush}: they never throw an
 * I/O failure, they set {@code checkError()} instead;</li>
 * <li>{@code String}'s queries and copies that take no index, count or pattern ({@code length}, {@code equals},
 * {@code trim}, {@code contains}, {@code indexOf} of one or two arguments, {@code valueOf} of one…; not
 * {@code charAt}, {@code substring}, {@code split}, {@code repeat}, {@code format});</li>
 * <li>{@code StringBuilder}/{@code StringBuffer} {@code append} of one argument, {@code length}, {@code isEmpty},
 * {@code toString}, their constructors;</li>
 * <li>{@code Objects.equals}, {@code hash}, {@code hashCode}, {@code isNull}, {@code nonNull}, {@code toString}
 * (a receiver or argument that may be the program's runs program code, counted anyway:
 * {@link ThrowSites#runsProgramCode});</li>
 * <li>{@code Math}/{@code StrictMath} functions of no range ({@code max}, {@code min}, {@code abs}, {@code sqrt},
 * {@code round}…; not the {@code *Exact} ones, {@code floorDiv}, {@code clamp});</li>
 * <li>the boxes' conversions from a primitive ({@code Integer.valueOf(int)}, {@code Long.toString(long)}), their
 * {@code equals}, {@code hashCode}, {@code compare}, {@code sum}, {@code max}, {@code min}, {@code xxxValue},
 * and {@code Boolean.parseBoolean} (not {@code Integer.valueOf(String)}: it parses);</li>
 * <li>{@code System.currentTimeMillis}, {@code nanoTime}, {@code identityHashCode}, {@code lineSeparator};</li>
 * <li>with no argument only (adv20 A11: {@code new ArrayList<>()} or {@code Instant.now()} between two actions under a
 * caller's {@code catch (Exception e)} was SJ024): the JDK collections' constructors (not one of a capacity, which
 * refuses a negative one, nor a copy, which runs the source's code), the clocks' {@code now()}, {@code
 * Thread.currentThread}, {@code Thread.getName}/{@code threadId}, {@code UUID.randomUUID}, {@code Optional.empty},
 * {@code List.of()}/{@code Set.of()}/{@code Map.of()}, {@code Collections.emptyList}/{@code emptySet}/{@code emptyMap};</li>
 * <li>the everyday methods of a concrete JDK collection named as the receiver's static type (adv20 A11's rest:
 * {@code items.size()}, {@code m.get("k")}, {@code v.put("i", i)} on an {@code ArrayList}/{@code HashMap} under a
 * caller's {@code catch (Exception e)} were SJ024), by a principle ({@link #collectionCallCannotFail}): a method
 * that takes no index, count or range, never refuses an element (the collection is modifiable, has no capacity
 * bound and no comparator: not {@code TreeMap}/{@code TreeSet}, whose comparator may be the program's), and calls
 * no code but that of the argument it looks up — {@code hashCode}/{@code equals} of a key or element given to
 * {@code get}, {@code put}, {@code contains}, {@code remove}, which must be of a closed type or an enum (whose
 * {@code equals} and {@code hashCode} are {@code Enum}'s, final); what it only stores ({@code add}'s element,
 * {@code put}'s value) may be anything. Not {@code get(int)}, {@code set}, {@code remove(int)},
 * {@code add(int, e)} (an index), {@code pop}, {@code element}, {@code getFirst} (an empty collection), a
 * {@code List} or {@code Map} (an interface: an unmodifiable one refuses {@code add}, and a program's class may
 * implement it).</li>
 * <li>by a principle (adv21 B11: {@code o.orElse("d")}, {@code Objects.requireNonNullElse(text, "d")},
 * {@code Arrays.toString(arr)}, {@code Character.toUpperCase(c)}, {@code Duration.ofSeconds(5)}, {@code Map.of("k", 1)}
 * between two actions under a caller's {@code catch (Exception e)} were SJ024), the queries and factories of the JDK's
 * value classes that take no index, count, range, pattern or function, do not unwrap an empty
 * value and do not overflow — they can fail by a null check only ({@link #BY_ARITY}): {@code Optional}'s
 * (and {@code OptionalInt}/{@code Long}/{@code Double}'s) {@code empty}, {@code of}, {@code ofNullable},
 * {@code isPresent}, {@code isEmpty}, {@code orElse} (not {@code get}, {@code orElseThrow}: an empty one fails);
 * {@code Objects.requireNonNull(o)}/{@code (o, message)}, {@code requireNonNullElse}; {@code Arrays.toString},
 * {@code hashCode}, {@code deepToString}, {@code deepHashCode} of one array, {@code equals}/{@code deepEquals} of two
 * (not the forms of a range), {@code asList}; {@code Character}'s classifications and case mappings of a char or code
 * point ({@code isDigit}, {@code isLetter}, {@code toUpperCase}…, {@code digit}, {@code forDigit},
 * {@code getNumericValue}) and {@code valueOf}/{@code toString} of a {@code char} (not {@code toString(int)},
 * {@code toChars}, {@code getName}: they refuse an invalid code point); {@code Duration.ofSeconds(long)},
 * {@code ofMillis}, {@code ofNanos}, {@code isZero}, {@code isNegative}, {@code isPositive}, {@code getSeconds},
 * {@code getNano}, {@code toSeconds}, {@code compareTo} (not {@code ofMinutes}, {@code toMillis}, {@code plus}: they
 * overflow); {@code List.of} of any elements, {@code Set.of} of one, {@code Map.of} of one pair and
 * {@code Map.entry} (not more: a duplicate element or key fails). A receiver or argument that may be the program's
 * still runs program code, counted anyway ({@link ThrowSites#runsProgramCode}: {@code Optional.of(program)} is
 * counted; {@code Arrays.toString(Object[])} too).</li>
 * </ul>
 * Everything else of the JDK counts, {@code println} of a {@code PrintStream} subclass of the program's aside
 * (a concrete JDK class stands for its own code: {@link ThrowSites#mayBeProgramObject}).
 */
final class UnfailingJdkCalls {
    private UnfailingJdkCalls() {
    }

    /** Any overload of these methods, by class. */
    private static final Map<String, Set<String>> ANY_OVERLOAD = Map.ofEntries(
            Map.entry("java.io.PrintStream", Set.of("print", "println", "flush", "checkError")),
            Map.entry("java.io.PrintWriter", Set.of("print", "println", "flush", "checkError")),
            Map.entry("java.lang.String", Set.of("length", "isEmpty", "isBlank", "equals", "equalsIgnoreCase",
                    "hashCode", "toString", "trim", "strip", "stripLeading", "stripTrailing", "contains", "startsWith",
                    "endsWith", "concat", "compareTo", "compareToIgnoreCase", "toUpperCase", "toLowerCase", "replace",
                    "intern")),
            Map.entry("java.lang.StringBuilder", Set.of("<init>", "length", "isEmpty", "toString")),
            Map.entry("java.lang.StringBuffer", Set.of("<init>", "length", "isEmpty", "toString")),
            Map.entry("java.lang.AbstractStringBuilder", Set.of("length", "isEmpty")),
            Map.entry("java.util.Objects", Set.of("equals", "hash", "hashCode", "isNull", "nonNull", "toString")),
            Map.entry("java.lang.Math", Set.of("max", "min", "abs", "signum", "floor", "ceil", "rint", "round", "sqrt",
                    "cbrt", "pow", "exp", "log", "log10", "hypot", "random")),
            Map.entry("java.lang.StrictMath", Set.of("max", "min", "abs", "signum", "floor", "ceil", "rint", "round",
                    "sqrt", "cbrt", "pow", "exp", "log", "log10", "hypot", "random")),
            Map.entry("java.lang.System", Set.of("currentTimeMillis", "nanoTime", "identityHashCode", "lineSeparator")),
            Map.entry("java.lang.Boolean", Set.of("valueOf", "parseBoolean", "toString", "booleanValue", "equals",
                    "hashCode", "compare", "compareTo", "logicalAnd", "logicalOr", "logicalXor")));

    /** adv20 A11: methods and constructors that cannot fail when called with no argument (their other overloads may). */
    private static final Map<String, Set<String>> NO_ARGUMENT = Map.ofEntries(
            Map.entry("java.util.ArrayList", Set.of("<init>")),
            Map.entry("java.util.LinkedList", Set.of("<init>")),
            Map.entry("java.util.HashMap", Set.of("<init>")),
            Map.entry("java.util.LinkedHashMap", Set.of("<init>")),
            Map.entry("java.util.TreeMap", Set.of("<init>")),
            Map.entry("java.util.HashSet", Set.of("<init>")),
            Map.entry("java.util.LinkedHashSet", Set.of("<init>")),
            Map.entry("java.util.TreeSet", Set.of("<init>")),
            Map.entry("java.util.ArrayDeque", Set.of("<init>")),
            Map.entry("java.util.concurrent.ConcurrentHashMap", Set.of("<init>")),
            Map.entry("java.util.concurrent.CopyOnWriteArrayList", Set.of("<init>")),
            Map.entry("java.util.concurrent.ConcurrentLinkedQueue", Set.of("<init>")),
            Map.entry("java.time.Instant", Set.of("now")),
            Map.entry("java.time.LocalDate", Set.of("now")),
            Map.entry("java.time.LocalDateTime", Set.of("now")),
            Map.entry("java.time.LocalTime", Set.of("now")),
            Map.entry("java.time.ZonedDateTime", Set.of("now")),
            Map.entry("java.time.OffsetDateTime", Set.of("now")),
            Map.entry("java.lang.Thread", Set.of("currentThread", "getName", "threadId")),
            Map.entry("java.util.UUID", Set.of("randomUUID")),
            Map.entry("java.util.Optional", Set.of("empty")),
            Map.entry("java.util.List", Set.of("of")),
            Map.entry("java.util.Set", Set.of("of")),
            Map.entry("java.util.Map", Set.of("of")),
            Map.entry("java.util.Collections", Set.of("emptyList", "emptySet", "emptyMap")));

    /**
     * adv21 B11: the value classes' methods that can fail by a null check only (see the class comment's last item), by
     * class, as {@code name/arity} ({@code name/*}: any arity).
     */
    private static final Map<String, Set<String>> BY_ARITY = Map.ofEntries(
            Map.entry("java.util.Optional", Set.of("empty/0", "of/1", "ofNullable/1", "isPresent/0", "isEmpty/0",
                    "orElse/1")),
            Map.entry("java.util.OptionalInt", Set.of("empty/0", "of/1", "isPresent/0", "isEmpty/0", "orElse/1")),
            Map.entry("java.util.OptionalLong", Set.of("empty/0", "of/1", "isPresent/0", "isEmpty/0", "orElse/1")),
            Map.entry("java.util.OptionalDouble", Set.of("empty/0", "of/1", "isPresent/0", "isEmpty/0", "orElse/1")),
            Map.entry("java.util.Objects", Set.of("requireNonNull/1", "requireNonNull/2", "requireNonNullElse/2")),
            Map.entry("java.util.Arrays", Set.of("toString/1", "hashCode/1", "deepToString/1", "deepHashCode/1",
                    "equals/2", "deepEquals/2", "asList/1")),
            Map.entry("java.lang.Character", Set.of("isDigit/1", "isLetter/1", "isLetterOrDigit/1", "isAlphabetic/1",
                    "isWhitespace/1", "isSpaceChar/1", "isUpperCase/1", "isLowerCase/1", "isTitleCase/1",
                    "isISOControl/1", "isDefined/1", "isJavaIdentifierStart/1", "isJavaIdentifierPart/1",
                    "isSurrogate/1", "isHighSurrogate/1", "isLowSurrogate/1", "isValidCodePoint/1", "isBmpCodePoint/1",
                    "isSupplementaryCodePoint/1", "toUpperCase/1", "toLowerCase/1", "toTitleCase/1", "getNumericValue/1",
                    "getType/1", "digit/2", "forDigit/2", "compare/2", "compareTo/1", "equals/1", "hashCode/0",
                    "hashCode/1", "charValue/0", "toString/0", "reverseBytes/1")),
            Map.entry("java.time.Duration", Set.of("ofSeconds/1", "ofMillis/1", "ofNanos/1", "isZero/0", "isNegative/0",
                    "isPositive/0", "getSeconds/0", "getNano/0", "toSeconds/0", "compareTo/1", "equals/1", "hashCode/0",
                    "toString/0")),
            Map.entry("java.util.List", Set.of("of/*")),
            Map.entry("java.util.Set", Set.of("of/1")),
            Map.entry("java.util.Map", Set.of("of/2", "entry/2")));

    /** The boxes of numbers: these methods, and {@code valueOf} and {@code toString} of primitives only. */
    private static final List<String> NUMBER_BOXES = List.of("java.lang.Integer", "java.lang.Long", "java.lang.Short",
            "java.lang.Byte", "java.lang.Double", "java.lang.Float");

    private static final Set<String> NUMBER_BOX_METHODS = Set.of("equals", "hashCode", "compare", "compareTo", "sum",
            "max", "min", "intValue", "longValue", "shortValue", "byteValue", "doubleValue", "floatValue");

    /** Methods whose forms of one argument (two for {@code indexOf}, {@code lastIndexOf}) only are listed: the others take a range. */
    private static final Map<String, Set<String>> ONE_OR_TWO_ARGUMENTS = Map.of(
            "java.lang.String", Set.of("valueOf", "indexOf", "lastIndexOf"),
            "java.lang.StringBuilder", Set.of("append"),
            "java.lang.StringBuffer", Set.of("append"));

    /** The plain methods of a hashed map ({@code name/arity}): they take nothing or only store. */
    private static final Set<String> MAP_PLAIN = Set.of("size/0", "isEmpty/0", "clear/0", "keySet/0", "values/0",
            "entrySet/0");

    /** The methods of a hashed map that look their first argument (a key) up: its hashCode and equals run. */
    private static final Set<String> MAP_LOOK_UP = Set.of("get/1", "containsKey/1", "remove/1", "put/2",
            "putIfAbsent/2", "getOrDefault/2");

    /** The plain methods of a hashed set. */
    private static final Set<String> SET_PLAIN = Set.of("size/0", "isEmpty/0", "clear/0");

    /** The methods of a hashed set that look their argument up. */
    private static final Set<String> SET_LOOK_UP = Set.of("add/1", "contains/1", "remove/1");

    /** The plain methods of a list: they take nothing or store their argument at an end. */
    private static final Set<String> LIST_PLAIN = Set.of("size/0", "isEmpty/0", "clear/0", "add/1", "addFirst/1",
            "addLast/1");

    /** The methods of a list that compare their argument with the elements ({@code o.equals(e)}); not an index. */
    private static final Set<String> LIST_LOOK_UP = Set.of("contains/1", "indexOf/1", "lastIndexOf/1", "remove/1",
            "addIfAbsent/1");

    /** The plain methods of a queue or deque: an empty one answers null to {@code peek} and {@code poll}. */
    private static final Set<String> QUEUE_PLAIN = Set.of("size/0", "isEmpty/0", "clear/0", "add/1", "addFirst/1",
            "addLast/1", "offer/1", "offerFirst/1", "offerLast/1", "push/1", "peek/0", "peekFirst/0", "peekLast/0",
            "poll/0", "pollFirst/0", "pollLast/0");

    /** The methods of a queue or deque that compare their argument with the elements. */
    private static final Set<String> QUEUE_LOOK_UP = Set.of("contains/1", "remove/1", "removeFirstOccurrence/1",
            "removeLastOccurrence/1");

    private static final String MAP = "map";
    private static final String SET = "set";
    private static final String LIST = "list";
    private static final String QUEUE = "queue";

    /**
     * The concrete JDK collections by kind (a {@code LinkedList} is a list and a queue): modifiable, unbounded,
     * hashed or ordered by arrival, never by a comparator.
     */
    private static final Map<String, Set<String>> COLLECTIONS = Map.ofEntries(
            Map.entry("java.util.HashMap", Set.of(MAP)),
            Map.entry("java.util.LinkedHashMap", Set.of(MAP)),
            Map.entry("java.util.concurrent.ConcurrentHashMap", Set.of(MAP)),
            Map.entry("java.util.HashSet", Set.of(SET)),
            Map.entry("java.util.LinkedHashSet", Set.of(SET)),
            Map.entry("java.util.ArrayList", Set.of(LIST)),
            Map.entry("java.util.concurrent.CopyOnWriteArrayList", Set.of(LIST)),
            Map.entry("java.util.LinkedList", Set.of(LIST, QUEUE)),
            Map.entry("java.util.ArrayDeque", Set.of(QUEUE)),
            Map.entry("java.util.concurrent.ConcurrentLinkedQueue", Set.of(QUEUE)),
            Map.entry("java.util.concurrent.ConcurrentLinkedDeque", Set.of(QUEUE)));

    /**
     * Whether {@code call} of {@code method} is one of a concrete JDK collection's everyday methods that cannot fail
     * and runs no code of the program (the class comment's last item, adv20 A11's rest): its receiver's static type
     * is the collection's class itself ({@code ArrayList<String> items}, not {@code List<String>}), and the argument
     * it looks up, if any, is of a closed type ({@link ThrowSites#closed}) or an enum. Checked before
     * {@link ThrowSites#runsProgramCode}: the value {@code add} or {@code put} only stores may be the program's.
     */
    static boolean collectionCallCannotFail(Tree call, ExecutableElement method, MethodChecker flow) {
        if (!(call instanceof MethodInvocationTree invocation) || method.getModifiers().contains(Modifier.STATIC)
                || !(invocation.getMethodSelect() instanceof MemberSelectTree select)
                || !ThrowSites.inJdk(method, flow)) {
            return false;
        }
        TypeMirror receiver = flow.trees.getTypeMirror(flow.pathOf(select.getExpression()));
        if (!(receiver instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement type)) {
            return false;
        }
        Set<String> kinds = COLLECTIONS.get(type.getQualifiedName().toString());
        if (kinds == null) {
            return false;
        }
        String key = method.getSimpleName() + "/" + method.getParameters().size();
        if (kinds.contains(MAP) && MAP_PLAIN.contains(key) || kinds.contains(SET) && SET_PLAIN.contains(key)
                || kinds.contains(LIST) && LIST_PLAIN.contains(key) || kinds.contains(QUEUE) && QUEUE_PLAIN.contains(key)) {
            return true;
        }
        boolean looksUp = kinds.contains(MAP) && MAP_LOOK_UP.contains(key) || kinds.contains(SET) && SET_LOOK_UP.contains(key)
                || kinds.contains(LIST) && LIST_LOOK_UP.contains(key) || kinds.contains(QUEUE) && QUEUE_LOOK_UP.contains(key);
        if (!looksUp || method.getParameters().get(0).asType().getKind().isPrimitive()) {
            return false; // remove(int), of an index
        }
        ExpressionTree looked = invocation.getArguments().get(0);
        return hashedSafely(flow.trees.getTypeMirror(flow.pathOf(looked)), flow);
    }

    /** Whether a value of static type {@code type} has {@code hashCode} and {@code equals} of the JDK's own code. */
    private static boolean hashedSafely(TypeMirror type, MethodChecker flow) {
        if (ThrowSites.closed(type, flow)) {
            return true;
        }
        return type instanceof DeclaredType declared && declared.asElement().getKind() == ElementKind.ENUM;
    }

    /** Whether {@code method}, a JDK method or constructor, cannot fail with an unchecked exception (see the class comment). */
    static boolean cannotFail(ExecutableElement method) {
        if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
            return false;
        }
        String type = owner.getQualifiedName().toString();
        String name = method.getSimpleName().toString();
        Set<String> any = ANY_OVERLOAD.get(type);
        if (any != null && any.contains(name)) {
            return true;
        }
        Set<String> bare = NO_ARGUMENT.get(type);
        if (bare != null && bare.contains(name) && method.getParameters().isEmpty()) {
            return true;
        }
        Set<String> counted = ONE_OR_TWO_ARGUMENTS.get(type);
        if (counted != null && counted.contains(name)) {
            int count = method.getParameters().size();
            // valueOf(char[], int, int) and append(char[], int, int) take a range; indexOf(ch, from, to) too
            return count == 1 || count == 2 && !name.equals("append") && !name.equals("valueOf");
        }
        Set<String> byArity = BY_ARITY.get(type);
        if (byArity != null && (byArity.contains(name + "/" + method.getParameters().size())
                || byArity.contains(name + "/*"))) {
            return true;
        }
        if (type.equals("java.lang.Character") && (name.equals("valueOf") || name.equals("toString"))) {
            return method.getParameters().size() == 1
                    && method.getParameters().get(0).asType().getKind() == javax.lang.model.type.TypeKind.CHAR;
        }
        if (NUMBER_BOXES.contains(type)) {
            if (NUMBER_BOX_METHODS.contains(name)) {
                return true;
            }
            return (name.equals("valueOf") || name.equals("toString")) && primitiveParameters(method);
        }
        return false;
    }

    /** Whether every parameter of {@code method} is of a primitive type ({@code Integer.valueOf(int)}, not {@code (String)}). */
    private static boolean primitiveParameters(ExecutableElement method) {
        for (VariableElement parameter : method.getParameters()) {
            if (!parameter.asType().getKind().isPrimitive()) {
                return false;
            }
        }
        return true;
    }
}
