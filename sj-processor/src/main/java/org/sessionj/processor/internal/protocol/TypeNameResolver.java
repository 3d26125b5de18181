package org.sessionj.processor.internal.protocol;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Resolves a type name written inside a protocol text the way javac resolves it in the declaring
 * source file: member types of the declaring type and its enclosing types, single-type imports,
 * the same package, on-demand imports, {@code java.lang}, then fully qualified names.
 *
 * <p>Cost: every name is looked up in the module of the declaring source file (an unbound
 * {@code Elements.getTypeElement} that misses, such as {@code p.String} before {@code java.lang.String},
 * makes javac search every module of the platform); a simple name is resolved once per declaring type
 * (the memo's key: the innermost type around the scope, so two files with the same simple names and
 * different imports never share an answer); a file's imports are read from its tree once. All these
 * caches hold javac's elements, which belong to one compilation: the resolver lives as long as its
 * processor instance (one compilation), and {@link #newRound} empties them at every processing round.
 */
public final class TypeNameResolver {
    private final Elements elements;
    private final Trees trees;
    private final Map<String, Optional<TypeElement>> probes = new HashMap<>();
    private final Set<String> phantoms = new HashSet<>();
    private final Set<CompilationUnitTree> notedUnits = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<TypeElement, Map<String, TypeElement>> memberTypes = new HashMap<>();
    private final Map<Element, Optional<CompilationUnitTree>> units = new HashMap<>();
    private final Map<CompilationUnitTree, Imports> imports = new IdentityHashMap<>();
    /**
     * Simple names resolved as seen from a type itself (which its own name denotes) and as seen from
     * its members, by type and name (nested maps, not a record key: a record's equals and hashCode
     * are bootstrapped afresh in every compilation, as the processor is loaded afresh).
     */
    private final Map<TypeElement, Map<String, Optional<TypeElement>>> fromType = new HashMap<>();
    private final Map<TypeElement, Map<String, Optional<TypeElement>>> fromMembers = new HashMap<>();

    /** A file's non-static imports: single-type ones by simple name (in order), on-demand containers. */
    private record Imports(Map<String, List<String>> single, List<String> onDemand) {
    }

    public TypeNameResolver(Elements elements, Trees trees) {
        this.elements = elements;
        this.trees = trees;
    }

    /**
     * A new processing round: forgets every element found so far (javac may enter new types in
     * it); the files known not to name a type ({@link #noteCompiled}) stay known.
     */
    public void newRound() {
        probes.clear();
        memberTypes.clear();
        units.clear();
        imports.clear();
        fromType.clear();
        fromMembers.clear();
    }

    /** The type named {@code name} as seen from {@code scope} (a type or a member of one). */
    public Optional<TypeElement> resolve(String name, Element scope) {
        String[] parts = name.indexOf('.') < 0 ? new String[] {name} : name.split("\\.");
        TypeElement first = resolveSimple(parts[0], scope);
        if (first != null) {
            TypeElement current = first;
            for (int i = 1; i < parts.length && current != null; i++) {
                current = memberType(current, parts[i]);
            }
            if (current != null) {
                return Optional.of(current);
            }
        }
        if (parts.length > 1) {
            return Optional.ofNullable(typeElement(name, scope));
        }
        return Optional.empty();
    }

    /** {@link #lookUpSimple}, memoised per innermost type around {@code scope} and simple name. */
    private TypeElement resolveSimple(String simple, Element scope) {
        Element type = scope;
        while (type != null && !(type instanceof TypeElement)) {
            type = type.getEnclosingElement();
        }
        if (type == null) {
            return lookUpSimple(simple, scope); // a package or module annotation: nothing to share
        }
        Map<TypeElement, Map<String, Optional<TypeElement>>> memo = type == scope ? fromType : fromMembers;
        // Loops and plain map calls, no lambdas: each lambda site is linked afresh per compilation.
        Map<String, Optional<TypeElement>> names = memo.get(type);
        if (names == null) {
            names = new HashMap<>();
            memo.put((TypeElement) type, names);
        }
        Optional<TypeElement> known = names.get(simple);
        if (known == null) {
            known = Optional.ofNullable(lookUpSimple(simple, scope));
            names.put(simple, known);
        }
        return known.orElse(null);
    }

    private TypeElement lookUpSimple(String simple, Element scope) {
        for (Element e = scope; e != null && e.getKind() != ElementKind.PACKAGE; e = e.getEnclosingElement()) {
            if (e instanceof TypeElement type) {
                if (type.getSimpleName().contentEquals(simple) && e == scope) {
                    return type;
                }
                TypeElement member = memberType(type, simple);
                if (member != null) {
                    return member;
                }
            }
        }
        CompilationUnitTree unit = compilationUnit(scope);
        Imports imported = unit == null ? new Imports(Map.of(), List.of()) : imports.get(unit);
        if (imported == null) {
            imported = imports(unit);
            imports.put(unit, imported);
        }
        for (String qualified : imported.single().getOrDefault(simple, List.of())) {
            TypeElement type = typeElement(qualified, scope);
            if (type != null) {
                return type;
            }
        }
        PackageElement pkg = elements.getPackageOf(scope);
        TypeElement samePackage = packageMember(pkg.getQualifiedName().toString(), simple, scope);
        if (samePackage != null) {
            return samePackage;
        }
        for (String container : imported.onDemand()) {
            TypeElement type = packageElement(container, scope) != null ? packageMember(container, simple, scope)
                    : onDemandMember(container, simple, scope);
            if (type != null) {
                return type;
            }
        }
        return packageMember("java.lang", simple, scope);
    }

    /** The non-static imports of {@code unit}, each printed once. */
    private Imports imports(CompilationUnitTree unit) {
        Map<String, List<String>> single = new HashMap<>();
        List<String> onDemand = new ArrayList<>();
        for (ImportTree imported : unit.getImports()) {
            if (imported.isStatic()) {
                continue;
            }
            String qualified = imported.getQualifiedIdentifier().toString();
            if (qualified.endsWith(".*")) {
                onDemand.add(qualified.substring(0, qualified.length() - 2));
            } else {
                String simple = qualified.substring(qualified.lastIndexOf('.') + 1);
                List<String> named = single.get(simple);
                if (named == null) {
                    named = new ArrayList<>();
                    single.put(simple, named);
                }
                named.add(qualified);
            }
        }
        return new Imports(single, onDemand);
    }

    /**
     * The type with canonical name {@code name} in the module of {@code scope} (javac resolves a
     * source file's names in its module; an unbound lookup that misses searches every module).
     */
    private TypeElement typeElement(String name, Element scope) {
        ModuleElement module = elements.getModuleOf(scope);
        return module == null ? elements.getTypeElement(name) : elements.getTypeElement(module, name);
    }

    private PackageElement packageElement(String name, Element scope) {
        ModuleElement module = elements.getModuleOf(scope);
        return module == null ? elements.getPackageElement(name) : elements.getPackageElement(module, name);
    }

    /**
     * The type {@code simple} of package {@code pkg}, probed by its qualified name in the module of
     * {@code scope} (each name once per module and round: a miss makes javac search the class path).
     * Packages are never listed: javac lists a package from the source path as one class per file, named after the file, and completing such a
     * class for a file that declares only otherwise named types makes javac parse it a second time
     * ("duplicate class" under Maven, which always passes -sourcepath). For the same reason a name in
     * {@link #phantoms} is never probed.
     */
    private TypeElement packageMember(String pkg, String simple, Element scope) {
        String qualified = pkg.isEmpty() ? simple : pkg + "." + simple;
        if (phantoms.contains(qualified)) {
            return null;
        }
        ModuleElement module = elements.getModuleOf(scope);
        String key = module == null ? qualified : module.getQualifiedName() + "/" + qualified;
        Optional<TypeElement> known = probes.get(key);
        if (known == null) {
            known = Optional.ofNullable(typeElement(qualified, scope));
            probes.put(key, known);
        }
        return known.orElse(null);
    }

    /** Whether {@link #noteCompiled} was told of {@code unit}. */
    public boolean noted(CompilationUnitTree unit) {
        return notedUnits.contains(unit);
    }

    /**
     * Records a file being compiled whose name is not the name of a type it declares (several
     * non-public types in one file, e.g. {@code Protocols.java} declaring {@code Echo} and
     * {@code EchoServer}): that name is no type and must not be looked up (see {@link #packageMember}).
     */
    public void noteCompiled(CompilationUnitTree unit) {
        if (!notedUnits.add(unit)) {
            return;
        }
        String file = unit.getSourceFile().getName();
        String stem = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
        if (!stem.endsWith(".java")) {
            return;
        }
        stem = stem.substring(0, stem.length() - ".java".length());
        for (Tree declaration : unit.getTypeDecls()) {
            if (declaration instanceof ClassTree type && type.getSimpleName().contentEquals(stem)) {
                return;
            }
        }
        String pkg = unit.getPackageName() == null ? "" : unit.getPackageName().toString();
        phantoms.add(pkg.isEmpty() ? stem : pkg + "." + stem);
    }

    private TypeElement onDemandMember(String container, String simple, Element scope) {
        TypeElement owner = typeElement(container, scope);
        return owner == null ? null : memberType(owner, simple);
    }

    private TypeElement memberType(TypeElement owner, String simple) {
        return memberTypes(owner).get(simple);
    }

    /**
     * The member types of {@code owner} by simple name, as javac finds them (JLS 8.5): those it declares
     * (private ones included), then those it inherits from its superclass and then its interfaces, at any
     * depth, that it does not hide by a declaration of the same name: not private, and if package-private
     * only within their package. Read off each type's declared members once per round, not from
     * {@code Elements.getAllMembers}, which builds a scope of every member of every supertype and checks each
     * inherited method for overriding, for every class a protocol text is written in (issue 12, compile time),
     * and whose order let an inherited member type win over one of the same name declared in the class.
     */
    private Map<String, TypeElement> memberTypes(TypeElement owner) {
        Map<String, TypeElement> members = memberTypes.get(owner);
        if (members != null) {
            return members;
        }
        members = new HashMap<>();
        memberTypes.put(owner, members); // a cyclic hierarchy (an error javac reports) ends here
        for (Element member : owner.getEnclosedElements()) {
            if (member instanceof TypeElement type) {
                members.put(type.getSimpleName().toString(), type);
            }
        }
        List<javax.lang.model.type.TypeMirror> supertypes = new ArrayList<>();
        supertypes.add(owner.getSuperclass());
        supertypes.addAll(owner.getInterfaces());
        for (javax.lang.model.type.TypeMirror supertype : supertypes) {
            if (supertype instanceof javax.lang.model.type.DeclaredType declared
                    && declared.asElement() instanceof TypeElement parent && parent != owner) {
                for (Map.Entry<String, TypeElement> inherited : memberTypes(parent).entrySet()) {
                    if (!members.containsKey(inherited.getKey()) && inheritedBy(inherited.getValue(), owner)) {
                        members.put(inherited.getKey(), inherited.getValue());
                    }
                }
            }
        }
        return members;
    }

    /** Whether member type {@code member} of a supertype of {@code owner} is inherited by it (not hidden aside). */
    private boolean inheritedBy(TypeElement member, TypeElement owner) {
        Set<javax.lang.model.element.Modifier> modifiers = member.getModifiers();
        if (modifiers.contains(javax.lang.model.element.Modifier.PRIVATE)) {
            return false;
        }
        return modifiers.contains(javax.lang.model.element.Modifier.PUBLIC)
                || modifiers.contains(javax.lang.model.element.Modifier.PROTECTED)
                || elements.getPackageOf(member).equals(elements.getPackageOf(owner));
    }

    private CompilationUnitTree compilationUnit(Element scope) {
        Element top = scope;
        while (top.getEnclosingElement() != null && top.getEnclosingElement().getKind() != ElementKind.PACKAGE
                && top.getEnclosingElement().getKind() != ElementKind.MODULE) {
            top = top.getEnclosingElement();
        }
        Optional<CompilationUnitTree> known = units.get(top);
        if (known == null) {
            TreePath path = trees.getPath(top);
            known = Optional.ofNullable(path == null ? null : path.getCompilationUnit());
            units.put(top, known);
        }
        return known.orElse(null);
    }
}
