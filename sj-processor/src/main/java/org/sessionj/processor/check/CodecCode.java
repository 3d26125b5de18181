package org.sessionj.processor.check;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/**
 * adv20 A2 E2: whether the runtime's codec runs code of the program when it writes or reads a message of a type — a
 * getter, a setter, a constructor of a class of the program, an accessor or a constructor a record declares itself
 * (a compact constructor that validates) — anywhere in the type (its type arguments, array components, record
 * components). Such code may throw, and the runtime then fails the session whose action it was ("could not send a
 * Pt: at .x: the message's own code threw …") while the program's other sessions are left as they are
 * ({@link LiveSessionExits#codecAction}). Not: the JDK's own types, the session API's, a plain enum (written by its
 * name), a record whose constructor and accessors are all the ones javac writes, a record known only from a class
 * file (which members it wrote itself is not known there: docs/diagnostics.md, "What is not checked"). Answered once
 * per class.
 */
final class CodecCode {
    private final Elements elements;
    private final com.sun.source.util.Trees trees;
    /** For each class asked about: whether its codec runs code of the program. */
    private final Map<Element, Boolean> known = new HashMap<>();

    CodecCode(Elements elements, com.sun.source.util.Trees trees) {
        this.elements = elements;
        this.trees = trees;
    }

    /**
     * The class of the program whose code the codec of {@code type} runs (see the class comment), for a message; null
     * when it runs none.
     */
    TypeElement programCode(TypeMirror type, MethodChecker flow) {
        return programCode(type, flow, new HashSet<>());
    }

    private TypeElement programCode(TypeMirror type, MethodChecker flow, Set<Element> visiting) {
        if (type instanceof ArrayType array) {
            return programCode(array.getComponentType(), flow, visiting);
        }
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)
                || !visiting.add(element)) {
            return null;
        }
        for (TypeMirror argument : declared.getTypeArguments()) {
            TypeElement inArgument = programCode(argument, flow, visiting);
            if (inArgument != null) {
                return inArgument;
            }
        }
        if (ThrowSites.inJdk(element, flow) || sessionApi(element)) {
            return null;
        }
        Boolean own = known.get(element);
        if (own == null) {
            own = ownCode(element);
            known.put(element, own);
        }
        if (own) {
            return element;
        }
        if (element.getKind() == ElementKind.RECORD) {
            for (Element component : element.getRecordComponents()) {
                TypeElement inComponent = programCode(component.asType(), flow, visiting);
                if (inComponent != null) {
                    return inComponent;
                }
            }
        }
        return null;
    }

    /**
     * Whether the codec runs code that {@code element} itself declares: any class but a record or an enum (its
     * constructors, getters and setters); a record that declares a constructor itself, an accessor of one of its
     * components, or a getter-named method ({@code getX()}, {@code isX()}: Jackson writes those too). Not a record's
     * other methods ({@code area()}, {@code toString()}), which no codec calls (review of 7f34a1eb: counting them
     * made every send of such a record a throw point, an SJ024 false alarm).
     */
    private boolean ownCode(TypeElement element) {
        if (element.getKind() == ElementKind.ENUM) {
            return false; // written and read by its name
        }
        if (element.getKind() != ElementKind.RECORD) {
            return true;
        }
        if (trees.getTree(element) == null) {
            return false; // a record of a class file: which members it wrote itself is not known (not counted)
        }
        Set<String> components = new HashSet<>();
        for (Element component : element.getRecordComponents()) {
            components.add(component.getSimpleName().toString());
        }
        for (Element member : element.getEnclosedElements()) {
            // javac's own canonical constructor is MANDATED; its accessors have a tree with no body yet
            if ((member.getKind() == ElementKind.CONSTRUCTOR || member.getKind() == ElementKind.METHOD
                    && codecCalls((javax.lang.model.element.ExecutableElement) member, components))
                    && !member.getModifiers().contains(Modifier.STATIC)
                    && elements.getOrigin(member) == Elements.Origin.EXPLICIT
                    && trees.getTree(member) instanceof com.sun.source.tree.MethodTree method && method.getBody() != null) {
                return true;
            }
        }
        return false;
    }

    /** Whether a codec may call {@code method} of a record: a component's accessor or a getter-named method. */
    private static boolean codecCalls(javax.lang.model.element.ExecutableElement method, Set<String> components) {
        if (!method.getParameters().isEmpty()
                || method.getReturnType().getKind() == javax.lang.model.type.TypeKind.VOID) {
            return false;
        }
        String name = method.getSimpleName().toString();
        return components.contains(name) || getterNamed(name, "get") || getterNamed(name, "is");
    }

    private static boolean getterNamed(String name, String prefix) {
        return name.length() > prefix.length() && name.startsWith(prefix)
                && Character.isUpperCase(name.charAt(prefix.length()));
    }

    private boolean sessionApi(TypeElement element) {
        PackageElement pkg = elements.getPackageOf(element);
        return pkg != null && pkg.getQualifiedName().toString().startsWith("org.sessionj.");
    }
}
