package org.sessionj.processor.internal.protocol;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
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
        String prefix = pkg.isUnnamed() ? "" : pkg.getQualifiedName() + ".";
        TypeElement samePackage = elements.getTypeElement(prefix + simple);
        if (samePackage != null) {
            return samePackage;
        }
        for (String container : onDemand) {
            TypeElement type = elements.getTypeElement(container + "." + simple);
            if (type != null) {
                return type;
            }
        }
        TypeElement lang = elements.getTypeElement("java.lang." + simple);
        if (lang != null) {
            return lang;
        }
        return null;
    }

    private TypeElement memberType(TypeElement owner, String simple) {
        for (TypeElement member : ElementFilter.typesIn(elements.getAllMembers(owner))) {
            if (member.getSimpleName().contentEquals(simple)) {
                return member;
            }
        }
        return null;
    }

    private CompilationUnitTree compilationUnit(Element scope) {
        Element top = scope;
        while (top.getEnclosingElement() != null && top.getEnclosingElement().getKind() != ElementKind.PACKAGE
                && top.getEnclosingElement().getKind() != ElementKind.MODULE) {
            top = top.getEnclosingElement();
        }
        TreePath path = trees.getPath(top);
        return path == null ? null : path.getCompilationUnit();
    }
}
