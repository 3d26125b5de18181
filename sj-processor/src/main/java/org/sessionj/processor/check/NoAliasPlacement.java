package org.sessionj.processor.check;

import com.sun.source.tree.AnnotatedTypeTree;
import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ArrayTypeTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.TypeParameterTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WildcardTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Where {@code @NoAlias} may stand. It is a type annotation too (so that {@code int @NoAlias [] x} reads
 * naturally), which lets Java accept it on any type: a type argument ({@code List<@NoAlias int[]>}), an
 * array's component type, a cast, a {@code new}, a supertype, a bound, a class declaration. The checker
 * tracks only variables, parameters, fields and method results whose own declared type (or declaration)
 * carries it: anywhere else it would promise what nothing checks, so it is rejected (SJ047).
 */
final class NoAliasPlacement {
    private static final String NO_ALIAS = "org.sessionj.api.NoAlias";

    private final Trees trees;

    NoAliasPlacement(Trees trees) {
        this.trees = trees;
    }

    /** Reports the annotation at {@code path} if it is a {@code @NoAlias} that nothing checks there. */
    void check(TreePath path, Reporter reporter) {
        AnnotationTree annotation = (AnnotationTree) path.getLeaf();
        Tree name = annotation.getAnnotationType();
        // The simple name first: resolving every annotation's type would cost each file a lookup per annotation.
        boolean named = name instanceof IdentifierTree identifier ? identifier.getName().contentEquals("NoAlias")
                : name instanceof MemberSelectTree select && select.getIdentifier().contentEquals("NoAlias");
        if (!named || !(trees.getTypeMirror(new TreePath(path, name)) instanceof DeclaredType type)
                || !((TypeElement) type.asElement()).getQualifiedName().contentEquals(NO_ALIAS)) {
            return;
        }
        String[] misplaced = unchecked(path);
        if (misplaced != null) {
            reporter.error(annotation, Diagnostic.NOALIAS_UNCHECKED, misplaced[0], misplaced[1]);
        }
    }

    /** Why a misplaced {@code @NoAlias} is not checked, and where it would be. */
    private static final String WHERE_CHECKED = "only a local variable, parameter, field or method result holds a "
            + "unique value, when its declaration or its own declared type carries @NoAlias "
            + "('@NoAlias int[] x', 'int @NoAlias [] x')";

    /**
     * What the annotation at {@code path} annotates and why nothing checks it there ({where, why}), or
     * null when it is checked.
     */
    private String[] unchecked(TreePath path) {
        TreePath parent = path.getParentPath();
        if (parent.getLeaf() instanceof ModifiersTree) {
            TreePath declaration = parent.getParentPath();
            return declaration.getLeaf() instanceof ClassTree ? new String[] {"a class declaration", WHERE_CHECKED}
                    : nothingToOwn(trees.getElement(declaration));
        }
        if (!(parent.getLeaf() instanceof AnnotatedTypeTree)) {
            return misplaced(describe(parent.getLeaf(), false)); // new int @NoAlias [3]: a dimension's annotation
        }
        // A type annotation: climb the type it is part of to the declaration, if any, whose type it is.
        Tree child = parent.getLeaf();
        boolean argument = false;
        for (TreePath at = parent.getParentPath(); at != null; at = at.getParentPath()) {
            Tree node = at.getLeaf();
            if (node instanceof VariableTree variable && variable.getType() == child
                    || node instanceof MethodTree method && method.getReturnType() == child) {
                // Only the declared type's own annotation reaches the variable or method (NoAliasRules.isNoAlias).
                return NoAliasRules.isNoAlias(trees.getElement(at)) ? null
                        : misplaced(describe(parent.getParentPath().getLeaf(), argument));
            }
            if (!(node instanceof AnnotatedTypeTree || node instanceof ArrayTypeTree
                    || node instanceof ParameterizedTypeTree || node instanceof MemberSelectTree
                    || node instanceof WildcardTree)) {
                break;
            }
            argument |= node instanceof WildcardTree
                    || node instanceof ParameterizedTypeTree generic && generic.getTypeArguments().contains(child);
            child = node;
        }
        return misplaced(describe(parent.getParentPath().getLeaf(), argument));
    }

    private static String[] misplaced(String where) {
        return new String[] {where, WHERE_CHECKED};
    }

    /**
     * A {@code @NoAlias} declaration whose value cannot be shared, or null: a primitive is copied wherever
     * it goes and a {@code void} method has no result, so nothing would be owned ({@link
     * NoAliasRules#isNoAlias} ignores them; this says so instead of a misleading SJ040 on
     * {@code @NoAlias int x = 5}).
     */
    private static String[] nothingToOwn(Element element) {
        if (element == null) {
            return null;
        }
        TypeMirror type = element instanceof ExecutableElement method ? method.getReturnType() : element.asType();
        if (type.getKind() == TypeKind.VOID) {
            return new String[] {"'" + element.getSimpleName() + "', which returns void,",
                    "there is no result to own; remove @NoAlias"};
        } else if (type.getKind().isPrimitive()) {
            return new String[] {"'" + element.getSimpleName() + "' of the primitive type "
                    + type.getKind().name().toLowerCase(java.util.Locale.ROOT),
                    "a primitive value is copied wherever it goes, never shared, so there is nothing to own; "
                            + "remove @NoAlias"};
        }
        return null;
    }

    /**
     * The position of a type annotation whose annotated type stands in {@code context} ({@code typeArgument}:
     * inside a type argument).
     */
    private static String describe(Tree context, boolean typeArgument) {
        if (typeArgument || context instanceof ParameterizedTypeTree || context instanceof WildcardTree) {
            return "a type argument (the elements of a collection or of a generic type are not tracked)";
        } else if (context instanceof ArrayTypeTree) {
            return "an array's component type (only the array itself, the variable's value, is tracked)";
        } else if (context instanceof TypeCastTree) {
            return "the type of a cast (a cast does not make a value unique)";
        } else if (context instanceof NewArrayTree || context instanceof NewClassTree) {
            return "the type of a 'new' (a new value is unique already; the variable it is assigned to decides)";
        } else if (context instanceof InstanceOfTree) {
            return "the type of an instanceof test";
        } else if (context instanceof TypeParameterTree) {
            return "a type parameter's bound";
        } else if (context instanceof ClassTree) {
            return "a supertype";
        } else if (context instanceof MethodTree) {
            return "a thrown type";
        }
        return "this type";
    }
}
