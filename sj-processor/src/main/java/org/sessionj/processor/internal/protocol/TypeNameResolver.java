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
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Resolves a type name written inside a protocol text the way javac resolves it in the declaring
 * source file: member types of the declaring type and its enclosing types, single-type imports,
 * the same package, on-demand imports, {@code java.lang}, then fully qualified names.
 */
public final class TypeNameResolver {
    private final Elements elements;
    private final Trees trees;
    private final Map<String, Optional<TypeElement>> probes = new HashMap<>();
    private final Set<String> phantoms = new HashSet<>();
    private final Set<CompilationUnitTree> notedUnits = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<TypeElement, Map<String, TypeElement>> memberTypes = new HashMap<>();
    private final Map<Element, Optional<CompilationUnitTree>> units = new HashMap<>();

    public TypeNameResolver(Elements elements, Trees trees) {
        this.elements = elements;
        this.trees = trees;
    }

    /** The type named {@code name} as seen from {@code scope} (a type or a member of one). */
    public Optional<TypeElement> resolve(String name, Element scope) {
        String[] parts = name.split("\\.");
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
            return Optional.ofNullable(elements.getTypeElement(name));
        }
        return Optional.empty();
    }

    private TypeElement resolveSimple(String simple, Element scope) {
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
        List<String> onDemand = new ArrayList<>();
        if (unit != null) {
            for (ImportTree imported : unit.getImports()) {
                if (imported.isStatic()) {
                    continue;
                }
                String qualified = imported.getQualifiedIdentifier().toString();
                if (qualified.endsWith(".*")) {
                    onDemand.add(qualified.substring(0, qualified.length() - 2));
                } else if (qualified.equals(simple) || qualified.endsWith("." + simple)) {
                    TypeElement type = elements.getTypeElement(qualified);
                    if (type != null) {
                        return type;
                    }
                }
            }
        }
        PackageElement pkg = elements.getPackageOf(scope);
        TypeElement samePackage = packageMember(pkg.getQualifiedName().toString(), simple);
        if (samePackage != null) {
            return samePackage;
        }
        for (String container : onDemand) {
            TypeElement type = elements.getPackageElement(container) != null ? packageMember(container, simple)
                    : onDemandMember(container, simple);
            if (type != null) {
                return type;
            }
        }
        return packageMember("java.lang", simple);
    }

    /**
     * The type {@code simple} of package {@code pkg}, probed by its qualified name (each name once per
     * compilation: a miss makes javac search the class path). Packages are never listed: javac lists a
     * package from the source path as one class per file, named after the file, and completing such a
     * class for a file that declares only otherwise named types makes javac parse it a second time
     * ("duplicate class" under Maven, which always passes -sourcepath). For the same reason a name in
     * {@link #phantoms} is never probed.
     */
    private TypeElement packageMember(String pkg, String simple) {
        String qualified = pkg.isEmpty() ? simple : pkg + "." + simple;
        if (phantoms.contains(qualified)) {
            return null;
        }
        return probes.computeIfAbsent(qualified, name -> Optional.ofNullable(elements.getTypeElement(name)))
                .orElse(null);
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

    private TypeElement onDemandMember(String container, String simple) {
        TypeElement owner = elements.getTypeElement(container);
        return owner == null ? null : memberType(owner, simple);
    }

    private TypeElement memberType(TypeElement owner, String simple) {
        return memberTypes.computeIfAbsent(owner, o -> {
            Map<String, TypeElement> members = new HashMap<>();
            for (TypeElement member : ElementFilter.typesIn(elements.getAllMembers(o))) {
                members.putIfAbsent(member.getSimpleName().toString(), member);
            }
            return members;
        }).get(simple);
    }

    private CompilationUnitTree compilationUnit(Element scope) {
        Element top = scope;
        while (top.getEnclosingElement() != null && top.getEnclosingElement().getKind() != ElementKind.PACKAGE
                && top.getEnclosingElement().getKind() != ElementKind.MODULE) {
            top = top.getEnclosingElement();
        }
        return units.computeIfAbsent(top, t -> {
            TreePath path = trees.getPath(t);
            return Optional.ofNullable(path == null ? null : path.getCompilationUnit());
        }).orElse(null);
    }
}
