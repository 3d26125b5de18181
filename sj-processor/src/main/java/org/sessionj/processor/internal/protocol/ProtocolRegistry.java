package org.sessionj.processor.internal.protocol;

import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.Filer;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import org.sessionj.processor.check.Diagnostic;
import org.sessionj.processor.internal.facts.CompiledFacts;
import org.sessionj.processor.internal.model.ProtocolReferenceException;
import org.sessionj.processor.internal.model.ProtocolTextException;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.types.Action;
import org.sessionj.types.ParsedProtocol;
import org.sessionj.types.ParsedSet;
import org.sessionj.types.Payload;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.SessionSet;
import org.sessionj.types.SessionSets;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * Validates {@code @Protocol} interfaces and caches the result: parse, name resolution in the
 * interface's own scope, reference expansion, well-formedness. Protocols from the class path are
 * read from their generated descriptor when present.
 */
public final class ProtocolRegistry {
    /** Path prefix of the generated descriptors (shared contract with the runtime). */
    public static final String DESCRIPTOR_DIRECTORY = "META-INF/sessionj/protocols/";
    private static final String PROTOCOL_ANNOTATION = "org.sessionj.api.Protocol";
    private static final Set<String> PRIMITIVES =
            Set.of("boolean", "byte", "short", "char", "int", "long", "float", "double");

    private final Elements elements;
    private final javax.lang.model.util.Types types;
    private final Trees trees;
    /** Descriptors written by other compilations, from the class path or the module path. */
    private final CompiledFacts compiledFacts;
    /** The record of the {@code @Protocol} texts each descriptor was made from (adv17 A15). */
    private final DescriptorSources sources;
    private final TypeNameResolver names;
    private final Map<String, ResolvedText> resolvedByBinaryName = new HashMap<>();
    private final Map<String, ProtocolDefinition> definitions = new HashMap<>();
    private final Map<String, TypeElement> typesByBinaryName = new HashMap<>();
    /**
     * Texts parsed and checked for well-formedness, by text: neither depends on where the text is
     * written, and the same {@code @Session} text recurs in many files (the benchmark program: 164
     * texts, 77 distinct). Kept for the whole compilation.
     */
    private final Map<String, ParsedText> parsedTexts = new HashMap<>();
    /**
     * Texts resolved in a scope, by scope and text: name resolution depends on nothing else (the
     * scope's members, enclosing classes, imports and package). Cleared with the name resolver's
     * memory at each new round, since a later round may add types a name resolves to.
     */
    private final Map<Element, Map<String, ResolvedText>> resolvedInScope = new HashMap<>();

    /** Told of every protocol looked up and every unit compiled, so that the classes checked against a protocol can be recorded. */
    public interface Uses {
        /** {@code protocol}'s definition was looked up. */
        void protocol(TypeElement protocol);

        /** {@code unit} is compiled in this compilation. */
        void compiled(com.sun.source.tree.CompilationUnitTree unit);
    }

    private Uses uses;

    public ProtocolRegistry(Elements elements, javax.lang.model.util.Types types, Trees trees, Filer filer) {
        this(elements, types, trees, filer, null);
    }

    /**
     * A registry that reports with {@code messager} a descriptor from the class path made from other
     * {@code @Protocol} texts than the classes hold now (SJ009, {@link DescriptorSources}); null: not reported.
     */
    public ProtocolRegistry(Elements elements, javax.lang.model.util.Types types, Trees trees, Filer filer,
            javax.annotation.processing.Messager messager) {
        this.elements = elements;
        this.types = types;
        this.trees = trees;
        this.compiledFacts = new CompiledFacts(filer, elements);
        this.sources = new DescriptorSources(compiledFacts, messager);
        this.names = new TypeNameResolver(elements, trees);
    }

    /** Tells {@code uses} of every protocol looked up from now on. */
    public void recordUses(Uses uses) {
        this.uses = uses;
    }

    /**
     * Whether {@code unit} was a root of a processing round ({@link #noteCompiled}); false for a file javac
     * compiles only because it is found on the source path (implicit compilation), which annotation
     * processing never sees.
     */
    public boolean processed(com.sun.source.tree.CompilationUnitTree unit) {
        return names.noted(unit);
    }

    /**
     * Takes note of a compilation unit being compiled, before any protocol is resolved: a file named
     * after no type it declares must not be looked up by its name (see {@link TypeNameResolver}).
     */
    public void noteCompiled(com.sun.source.tree.CompilationUnitTree unit) {
        names.noteCompiled(unit);
        if (uses != null) {
            uses.compiled(unit);
        }
    }

    /**
     * A new processing round: the name resolver forgets the elements it found (see
     * {@link TypeNameResolver#newRound}).
     */
    public void newRound() {
        names.newRound();
        resolvedInScope.clear();
    }

    /** The {@code @Protocol} annotation on {@code type}, if any. */
    public static Optional<AnnotationMirror> protocolAnnotation(Element type) {
        for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName()
                    .contentEquals(PROTOCOL_ANNOTATION)) {
                return Optional.of(mirror);
            }
        }
        return Optional.empty();
    }

    /** The {@code value} of an annotation, if set. */
    public static Optional<AnnotationValue> annotationValue(AnnotationMirror mirror, String name) {
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry
                : mirror.getElementValues().entrySet()) {
            if (entry.getKey().getSimpleName().contentEquals(name)) {
                return Optional.of(entry.getValue());
            }
        }
        return Optional.empty();
    }

    /**
     * The text of {@code type}'s {@code @Protocol} annotation, or null if it has none (no lambdas or
     * {@code Optional} chains: the processor is loaded afresh per compilation, so each lambda site would
     * be linked afresh every time).
     */
    static String protocolText(Element type) {
        AnnotationMirror mirror = protocolAnnotation(type).orElse(null);
        AnnotationValue value = mirror == null ? null : annotationValue(mirror, "value").orElse(null);
        return value == null ? null : String.valueOf(value.getValue());
    }

    /** Whether {@code type} is annotated with {@code @Protocol}. */
    public static boolean isProtocol(Element type) {
        return protocolAnnotation(type).isPresent();
    }

    /** The definition of the protocol declared by {@code type}, validating it on first use. */
    public ProtocolDefinition definition(TypeElement type) {
        if (uses != null) {
            uses.protocol(type);
        }
        return peekDefinition(type);
    }

    /** {@link #definition}, not recorded as a use (for the {@link Uses}' own look at what a protocol includes). */
    public ProtocolDefinition peekDefinition(TypeElement type) {
        String binaryName = binaryName(type);
        ProtocolDefinition known = definitions.get(binaryName);
        if (known != null) {
            return known;
        }
        ProtocolDefinition definition = compute(type, binaryName);
        definitions.put(binaryName, definition);
        return definition;
    }

    /** The type element with the given binary name (as written in resolved protocols). */
    public Optional<TypeElement> typeForBinaryName(String binaryName) {
        TypeElement known = typesByBinaryName.get(binaryName);
        if (known != null) {
            return Optional.of(known);
        }
        TypeElement type = elements.getTypeElement(binaryName.replace('$', '.'));
        if (type != null) {
            typesByBinaryName.put(binaryName, type);
        }
        return Optional.ofNullable(type);
    }

    /** The binary name of {@code type}, remembered for {@link #typeForBinaryName}. */
    public String binaryName(TypeElement type) {
        String binary = elements.getBinaryName(type).toString();
        typesByBinaryName.putIfAbsent(binary, type);
        return binary;
    }

    /**
     * Parses {@code text} and resolves its names in the scope of {@code scope} (used for protocols and
     * for {@code @Session} types). Problems are added to {@code problems}; empty when there were any.
     */
    public Optional<SessionType> resolveText(String text, Element scope, List<String> problems) {
        Map<String, ResolvedText> inScope = resolvedInScope.get(scope);
        if (inScope == null) {
            inScope = new HashMap<>();
            resolvedInScope.put(scope, inScope);
        }
        ResolvedText known = inScope.get(text);
        if (known == null) {
            List<String> found = new ArrayList<>();
            known = new ResolvedText(resolveUncached(text, scope, found), List.copyOf(found));
            inScope.put(text, known);
        }
        problems.addAll(known.problems());
        return Optional.ofNullable(known.type());
    }

    private SessionType resolveUncached(String text, Element scope, List<String> problems) {
        ParsedText parsed = parsedTexts.get(text);
        if (parsed == null) {
            parsed = parse(text);
            parsedTexts.put(text, parsed);
        }
        problems.addAll(parsed.problems());
        if (parsed.parsed() == null) {
            return null;
        }
        int before = problems.size();
        SessionType resolved = new NameRewriter(parsed.parsed(), scope, problems).rewrite(parsed.parsed().type());
        return problems.size() == before && parsed.problems().isEmpty() ? resolved : null;
    }

    /** A text parsed (null if it does not parse) and the problems of its syntax or well-formedness. */
    private record ParsedText(ParsedProtocol parsed, List<String> problems) {
    }

    private static ParsedText parse(String text) {
        ParsedProtocol parsed;
        try {
            parsed = TypeModel.parseWithPositions(text);
        } catch (ProtocolTextException e) {
            return new ParsedText(null, List.of(Diagnostic.PROTOCOL_SYNTAX.format(e.line(), e.column(), e.getMessage(),
                    e.excerpt())));
        }
        List<String> problems = new ArrayList<>();
        for (String problem : TypeModel.wellFormednessProblems(parsed)) {
            problems.add(Diagnostic.ILL_FORMED_PROTOCOL.format(problem));
        }
        return new ParsedText(parsed, List.copyOf(problems));
    }

    /**
     * {@link #expand}, for a type that {@link #resolveText} made (so its well-formedness was checked on
     * the parsed text): a type without protocol references is its own expansion, and neither inlining
     * nor a second well-formedness check could find anything new (they run once per text, not twice).
     */
    public Optional<SessionType> expandResolved(SessionType resolved, List<String> problems) {
        if (!hasReferences(resolved) && resolved.depth() <= SessionTypes.maxNesting()
                && resolved.size() <= SessionTypes.MAX_EXPANDED_SIZE) {
            return Optional.of(resolved);
        }
        return expand(resolved, problems);
    }

    /** Whether {@code type} contains a {@code @(P)} or {@code ^(P)} anywhere (an explicit stack: types nest deep). */
    static boolean hasReferences(SessionType type) {
        return references(type, null);
    }

    /**
     * Adds to {@code names} the binary name of every protocol that {@code type} names ({@code @(P)},
     * {@code ^(P)}, in payloads too), not those they name in turn.
     */
    public static void referencedProtocols(SessionType type, Set<String> names) {
        references(type, names);
    }

    /** Whether {@code type} names a protocol; with {@code names} not null, adds all it names and walks on. */
    private static boolean references(SessionType type, Set<String> names) {
        boolean found = false;
        java.util.ArrayDeque<SessionType> pending = new java.util.ArrayDeque<>();
        pending.push(type);
        while (!pending.isEmpty()) {
            for (Action action : pending.pop().actions()) {
                // instanceof, not a pattern switch: its bootstrap would be linked afresh in every compilation
                if (action instanceof Action.ProtocolRef || action instanceof Action.DualRef) {
                    if (names == null) {
                        return true;
                    }
                    found = true;
                    names.add(action instanceof Action.ProtocolRef ref ? ref.name() : ((Action.DualRef) action).name());
                } else if (action instanceof Action.Send s) {
                    pushPayload(s.payload(), pending);
                } else if (action instanceof Action.Receive r) {
                    pushPayload(r.payload(), pending);
                } else if (action instanceof Action.Select s) {
                    pending.addAll(s.branches().values());
                } else if (action instanceof Action.Branch b) {
                    pending.addAll(b.branches().values());
                } else if (action instanceof Action.OutWhile w) {
                    pending.push(w.body());
                } else if (action instanceof Action.InWhile w) {
                    pending.push(w.body());
                } else if (action instanceof Action.Rec r) {
                    pending.push(r.body());
                }
            }
        }
        return found;
    }

    private static void pushPayload(Payload payload, java.util.ArrayDeque<SessionType> pending) {
        if (payload instanceof Payload.SessionPayload session) {
            pending.push(session.type());
        }
    }

    /**
     * Inlines every reference of an already resolved type and checks well-formedness. Problems are
     * added to {@code problems}; empty when there were any.
     */
    public Optional<SessionType> expand(SessionType resolved, List<String> problems) {
        SessionType expanded;
        try {
            expanded = TypeModel.expand(resolved, new org.sessionj.types.ProtocolResolver() {
                @Override
                public Optional<SessionType> resolve(String name) { // a class, not a lambda (see protocolText)
                    return referencedType(name, problems);
                }
            });
        } catch (ProtocolReferenceException e) {
            problems.add(Diagnostic.CYCLIC_PROTOCOL.format(e.getMessage()));
            return Optional.empty();
        } catch (InvalidReferenceException e) {
            problems.add(Diagnostic.CYCLIC_PROTOCOL.format("the protocol refers to " + e.getMessage()
                    + (e.getMessage().contains(", a set protocol") ? "" : ", which is invalid")));
            return Optional.empty();
        }
        List<String> wellFormedness = TypeModel.wellFormednessProblems(expanded);
        for (String problem : wellFormedness) {
            problems.add(Diagnostic.ILL_FORMED_PROTOCOL.format(problem));
        }
        return wellFormedness.isEmpty() ? Optional.of(expanded) : Optional.empty();
    }

    private Optional<SessionType> referencedType(String binaryName, List<String> problems) {
        TypeElement type = typeForBinaryName(binaryName).orElse(null);
        if (type == null) {
            return Optional.empty();
        }
        if (isSetProtocol(type)) {
            throw new InvalidReferenceException(binaryName + ", a set protocol ({…} names no sequence, so @(P)"
                    + " and ^(P) cannot name it)");
        }
        ResolvedText resolved = resolvedText(type);
        if (resolved.type() == null) {
            throw new InvalidReferenceException(binaryName);
        }
        return Optional.of(resolved.type());
    }

    /** Whether {@code type}'s {@code @Protocol} text is a set, {@code {S1, …}}. */
    public static boolean isSetProtocol(TypeElement type) {
        String text = protocolText(type);
        return text != null && SessionSets.isSet(text);
    }

    private ProtocolDefinition compute(TypeElement type, String binaryName) {
        if (isSetProtocol(type)) {
            return computeSet(type, binaryName);
        }
        if (trees.getTree(type) == null) {
            String file = readDescriptorFile(type, binaryName);
            Optional<SessionType> descriptor = parseDescriptor(file);
            if (descriptor.isPresent() && sources.current(type, binaryName, file, this)) {
                return new ProtocolDefinition.Valid(binaryName, descriptor.get(), descriptor.get());
            }
            // No descriptor, or one made from other @Protocol texts than the classes hold now: the annotation.
        }
        ResolvedText resolved = resolvedText(type);
        if (resolved.type() == null) {
            return new ProtocolDefinition.Invalid(binaryName, resolved.problems());
        }
        List<String> problems = new ArrayList<>();
        SessionType expanded = expandResolved(resolved.type(), problems).orElse(null);
        return expanded != null ? new ProtocolDefinition.Valid(binaryName, resolved.type(), expanded)
                : new ProtocolDefinition.Invalid(binaryName, problems);
    }

    /**
     * A set protocol: each member parsed (positioned in the whole text), its names resolved, expanded
     * and checked like a sequence protocol. From the class path, the descriptor (names already binary).
     */
    private ProtocolDefinition computeSet(TypeElement type, String binaryName) {
        List<String> problems = new ArrayList<>();
        List<SessionType> resolved = new ArrayList<>();
        String file = trees.getTree(type) == null ? readDescriptorFile(type, binaryName) : null;
        Optional<String> descriptor = file == null ? Optional.empty() : Optional.of(DescriptorSources.descriptor(file));
        if (descriptor.isPresent() && !sources.current(type, binaryName, file, this)) {
            descriptor = Optional.empty(); // made from another text than the class holds: the annotation (adv17 A15)
        }
        String text = descriptor.isPresent() ? descriptor.get() : protocolText(type);
        if (text == null) {
            throw new java.util.NoSuchElementException("no @Protocol text on " + type); // isSetProtocol read one
        }
        ParsedSet parsed;
        try {
            parsed = SessionSets.parseWithPositions(text);
        } catch (ProtocolException e) {
            return new ProtocolDefinition.Invalid(binaryName, List.of(Diagnostic.PROTOCOL_SYNTAX.format(
                    Math.max(e.line(), 1), Math.max(e.column(), 1), e.detail(), e.excerpt())));
        }
        for (ParsedProtocol member : parsed.members()) {
            if (descriptor.isPresent()) {
                resolved.add(member.type());
                continue;
            }
            int before = problems.size();
            for (String problem : TypeModel.wellFormednessProblems(member)) {
                problems.add(Diagnostic.ILL_FORMED_PROTOCOL.format(problem));
            }
            SessionType rewritten = new NameRewriter(member, type, problems).rewrite(member.type());
            if (problems.size() == before) {
                resolved.add(rewritten);
            }
        }
        List<SessionType> expanded = new ArrayList<>();
        List<String> protocols = new ArrayList<>();
        if (problems.isEmpty()) {
            for (SessionType member : resolved) {
                SessionType one = expand(member, problems).orElse(null);
                if (one != null) {
                    expanded.add(one);
                }
                protocols.add(member.actions().size() == 1 && member.head() instanceof Action.ProtocolRef ref
                        ? ref.name() : null);
            }
        }
        return problems.isEmpty() ? new ProtocolDefinition.SetProtocol(binaryName, resolved, expanded, protocols)
                : new ProtocolDefinition.Invalid(binaryName, problems);
    }

    /**
     * The text of the descriptor resource of {@code type}, a protocol compiled now: {@code descriptor}, then
     * the record of the hash of its {@code @Protocol} text and of the text of every protocol its expansion
     * includes, at any depth ({@link DescriptorSources}, SJ009). A set protocol's descriptor keeps its
     * references, so only its own text.
     */
    public String descriptorResource(String descriptor, TypeElement type) {
        Map<String, String> texts = new java.util.LinkedHashMap<>();
        java.util.ArrayDeque<TypeElement> pending = new java.util.ArrayDeque<>();
        pending.add(type);
        boolean set = isSetProtocol(type);
        while (!pending.isEmpty()) {
            TypeElement next = pending.pop();
            String name = binaryName(next);
            if (texts.containsKey(name)) {
                continue;
            }
            texts.put(name, protocolText(next));
            SessionType resolved = set ? null : resolvedText(next).type();
            if (resolved != null) {
                Set<String> included = new java.util.TreeSet<>();
                referencedProtocols(resolved, included);
                for (String reference : included) {
                    TypeElement protocol = typeForBinaryName(reference).orElse(null);
                    if (protocol != null) {
                        pending.add(protocol);
                    }
                }
            }
        }
        return DescriptorSources.withRecord(descriptor, texts);
    }

    /** The descriptor text of a set protocol: its members resolved, references kept (the runtime needs them). */
    public static String descriptorText(ProtocolDefinition.SetProtocol set) {
        return SessionSets.print(new SessionSet(set.resolved()));
    }

    private record ResolvedText(SessionType type, List<String> problems) {
    }

    private ResolvedText resolvedText(TypeElement type) {
        String binaryName = binaryName(type);
        ResolvedText known = resolvedByBinaryName.get(binaryName);
        if (known != null) {
            return known;
        }
        List<String> problems = new ArrayList<>();
        String text = protocolText(type);
        SessionType resolved = null;
        if (text == null) {
            problems.add(Diagnostic.UNKNOWN_PROTOCOL.format("'" + type.getQualifiedName() + "'", 1, 1,
                    "it has no @Protocol annotation", ""));
        } else {
            resolved = resolveText(text, type, problems).orElse(null);
        }
        ResolvedText result = new ResolvedText(resolved, problems);
        resolvedByBinaryName.put(binaryName, result);
        return result;
    }

    /**
     * The descriptor resource {@code type}'s own compilation wrote (the descriptor and its record), from the
     * class path or its module ({@link CompiledFacts}); null when there is none.
     */
    private String readDescriptorFile(TypeElement type, String binaryName) {
        return compiledFacts.read(type, DESCRIPTOR_DIRECTORY + binaryName + ".sj");
    }

    /** The descriptor in a descriptor resource's text {@code file} (null: none), parsed; empty if it does not parse. */
    private static Optional<SessionType> parseDescriptor(String file) {
        try {
            return file == null ? Optional.empty() : Optional.of(TypeModel.parse(DescriptorSources.descriptor(file)));
        } catch (ProtocolTextException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Thrown through expansion when a referenced protocol is itself invalid. */
    private static final class InvalidReferenceException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidReferenceException(String protocol) {
            super(protocol, null, false, false);
        }
    }

    /** Replaces the names in a parsed type by binary names, reporting what does not resolve. */
    private final class NameRewriter {
        private final ParsedProtocol parsed;
        private final String text;
        private final Element scope;
        private final List<String> problems;
        private final Set<String> reported = new HashSet<>();

        NameRewriter(ParsedProtocol parsed, Element scope, List<String> problems) {
            this.parsed = parsed;
            this.text = parsed.text();
            this.scope = scope;
            this.problems = problems;
        }

        SessionType rewrite(SessionType type) {
            List<Action> out = new ArrayList<>();
            for (Action action : type.actions()) {
                out.add(rewrite(action));
            }
            return new SessionType(out);
        }

        private Action rewrite(Action action) {
            // instanceof, not a pattern switch (linked afresh in every compilation: the processor starts cold)
            if (action instanceof Action.Send s) {
                return new Action.Send(rewrite(s.payload()));
            } else if (action instanceof Action.Receive r) {
                return new Action.Receive(rewrite(r.payload()));
            } else if (action instanceof Action.Select s) {
                return new Action.Select(rewriteBranches(s.branches()));
            } else if (action instanceof Action.Branch b) {
                return new Action.Branch(rewriteBranches(b.branches()));
            } else if (action instanceof Action.OutWhile w) {
                return new Action.OutWhile(rewrite(w.body()));
            } else if (action instanceof Action.InWhile w) {
                return new Action.InWhile(rewrite(w.body()));
            } else if (action instanceof Action.Rec r) {
                return new Action.Rec(r.variable(), rewrite(r.body()));
            } else if (action instanceof Action.ProtocolRef p) {
                return new Action.ProtocolRef(protocolName(p.name(), "@(" + p.name() + ")", p));
            } else if (action instanceof Action.DualRef d) {
                return new Action.DualRef(protocolName(d.name(), "^(" + d.name() + ")", d));
            }
            return action; // Begin, RecVar: no names
        }

        private Map<String, SessionType> rewriteBranches(Map<String, SessionType> branches) {
            Map<String, SessionType> out = new java.util.LinkedHashMap<>();
            for (Map.Entry<String, SessionType> branch : branches.entrySet()) {
                out.put(branch.getKey(), rewrite(branch.getValue()));
            }
            return out;
        }

        private Payload rewrite(Payload payload) {
            return payload instanceof Payload.SessionPayload s ? new Payload.SessionPayload(rewrite(s.type()))
                    : rewrite((Payload.JavaType) payload);
        }

        private Payload.JavaType rewrite(Payload.JavaType type) {
            List<Payload.JavaType> arguments = new ArrayList<>(type.typeArguments().size());
            int problemsBefore = problems.size();
            for (Payload.JavaType argument : type.typeArguments()) {
                arguments.add(rewrite(argument));
            }
            boolean argumentReported = problems.size() > problemsBefore;
            if (PRIMITIVES.contains(type.name())) {
                return new Payload.JavaType(type.name(), arguments, type.arrayDimensions());
            }
            Optional<TypeElement> resolved = names.resolve(type.name(), scope);
            if (resolved.isEmpty()) {
                if (reported.add(type.name())) {
                    int offset = offset(type.name(), type);
                    int[] at = TypeModel.lineColumn(text, offset);
                    problems.add(Diagnostic.UNKNOWN_MESSAGE_TYPE.format(type.name(), at[0], at[1],
                            TypeModel.excerpt(text, offset)));
                }
                return type;
            }
            // The whole payload, type arguments put in (adv16 A9): an argument's own problem is reported at the
            // argument, so the type that holds it is not reported again.
            TypeMirror mirror = reported.contains(type.name()) || argumentReported ? null : mirror(type);
            String undecodable = mirror == null ? null : MessageDecodability.problem(mirror, types);
            if (undecodable != null && reported.add(type.name())) {
                int offset = offset(type.name(), type);
                int[] at = TypeModel.lineColumn(text, offset);
                problems.add(Diagnostic.UNDECODABLE_MESSAGE_TYPE.format(resolved.get().getQualifiedName(), at[0],
                        at[1], undecodable, TypeModel.excerpt(text, offset)));
            }
            return new Payload.JavaType(binaryName(resolved.get()), arguments, type.arrayDimensions());
        }

        /**
         * The Java type {@code type} (a payload as the protocol writes it) denotes, or null if a name in it does
         * not resolve or javac refuses its type arguments (reported elsewhere, or by javac).
         */
        private TypeMirror mirror(Payload.JavaType type) {
            TypeMirror base;
            if (PRIMITIVES.contains(type.name())) {
                base = types.getPrimitiveType(javax.lang.model.type.TypeKind.valueOf(
                        type.name().toUpperCase(java.util.Locale.ROOT)));
            } else {
                Optional<TypeElement> element = names.resolve(type.name(), scope);
                if (element.isEmpty()) {
                    return null;
                }
                TypeMirror[] arguments = new TypeMirror[type.typeArguments().size()];
                for (int i = 0; i < arguments.length; i++) {
                    arguments[i] = mirror(type.typeArguments().get(i));
                    if (arguments[i] == null || arguments[i].getKind().isPrimitive()) {
                        return null;
                    }
                }
                try {
                    base = types.getDeclaredType(element.get(), arguments);
                } catch (IllegalArgumentException mistyped) {
                    return null;
                }
            }
            for (int i = 0; i < type.arrayDimensions(); i++) {
                base = types.getArrayType(base);
            }
            return base;
        }

        private String protocolName(String name, String written, Action node) {
            Optional<TypeElement> resolved = names.resolve(name, scope);
            if (resolved.isPresent() && isProtocol(resolved.get())) {
                return binaryName(resolved.get()); // the position and excerpt are for problems only
            }
            int offset = offset(written, node);
            int[] at = TypeModel.lineColumn(text, offset);
            String excerpt = TypeModel.excerpt(text, offset);
            if (resolved.isEmpty()) {
                problems.add(Diagnostic.UNKNOWN_PROTOCOL.format(written, at[0], at[1], "no type named '" + name
                        + "' is visible here", excerpt));
                return name;
            }
            if (!isProtocol(resolved.get())) {
                problems.add(Diagnostic.UNKNOWN_PROTOCOL.format(written, at[0], at[1], "'"
                        + resolved.get().getQualifiedName() + "' has no @Protocol annotation", excerpt));
                return name;
            }
            return binaryName(resolved.get());
        }

        /**
         * Offset of {@code node} in the text when the parser recorded it, else of the first whole-token
         * occurrence of {@code token} (0 if none).
         */
        private int offset(String token, Object node) {
            int offset = parsed.offsetOf(node);
            if (offset >= 0) {
                return offset;
            }
            int index = -1;
            int from = 0;
            while ((index = text.indexOf(token, from)) >= 0) {
                // by code point: an identifier may hold letters outside the BMP (two chars each)
                boolean startOk = index == 0 || !Character.isJavaIdentifierPart(text.codePointBefore(index))
                        || !Character.isJavaIdentifierStart(token.codePointAt(0));
                int end = index + token.length();
                boolean endOk = end >= text.length() || !Character.isJavaIdentifierPart(text.codePointAt(end));
                if (startOk && endOk) {
                    break;
                }
                from = index + 1;
            }
            return Math.max(index, 0);
        }
    }
}
