package org.sessionj.processor.check;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic.Kind;

/** Reports diagnostics of one compilation unit at exact tree positions. */
final class Reporter {
    private final Trees trees;
    private final CompilationUnitTree unit;

    Reporter(Trees trees, CompilationUnitTree unit) {
        this.trees = trees;
        this.unit = unit;
    }

    private int silent;

    /** Suppresses reports until {@link #speak()}: used for the first, state-finding pass over a loop. */
    void silence() {
        silent++;
    }

    void speak() {
        silent--;
    }

    /** Whether reports are suppressed now (a silent pass: nothing it sees may count as reported). */
    boolean silent() {
        return silent > 0;
    }

    void error(Tree at, Diagnostic diagnostic, Object... args) {
        if (silent > 0 || body != null && broken()) {
            return;
        }
        trees.printMessage(Kind.ERROR, diagnostic.format(args), at, unit);
    }

    /** The body being checked, or null; {@link #bodyBroken} is whether it has an erroneous tree (null: not known yet). */
    private TreePath body;
    private Boolean bodyBroken;

    /**
     * Starts the reports of the body at {@code path}: none are made if javac could not attribute it (a
     * name it cannot find, adv10 F18) — javac then skips its own flow analysis of the class too, and
     * what the checker would add ({@code try (Nope s = svc.request())}: SJ017) only repeats the
     * "cannot find symbol" in other words. Returns the body it replaces (for {@link #exitBody}).
     */
    TreePath enterBody(TreePath path) {
        TreePath saved = body;
        body = path;
        bodyBroken = null;
        return saved;
    }

    /** Ends the reports of the current body; {@code saved} is what {@link #enterBody} returned. */
    void exitBody(TreePath saved) {
        body = saved;
        bodyBroken = null;
    }

    /** Whether the current body has a tree javac could not attribute; found once, at its first report. */
    private boolean broken() {
        if (bodyBroken == null) {
            boolean[] found = {false};
            new TreePathScanner<Void, Void>() {
                @Override
                public Void scan(Tree tree, Void unused) {
                    if (found[0] || tree == null) {
                        return null;
                    }
                    return super.scan(tree, unused);
                }

                @Override
                public Void visitIdentifier(IdentifierTree tree, Void unused) {
                    found[0] |= erroneous();
                    return null;
                }

                @Override
                public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
                    found[0] |= erroneous();
                    return super.visitMemberSelect(tree, unused);
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
                    found[0] |= erroneous();
                    return super.visitMethodInvocation(tree, unused);
                }

                private boolean erroneous() {
                    TypeMirror type = trees.getTypeMirror(getCurrentPath());
                    return type != null && type.getKind() == TypeKind.ERROR;
                }
            }.scan(body, null);
            bodyBroken = found[0];
        }
        return bodyBroken;
    }

    /** 1-based source line of {@code tree}, for messages that point back at an earlier statement. */
    long line(Tree tree) {
        long position = trees.getSourcePositions().getStartPosition(unit, tree);
        return position < 0 ? -1 : unit.getLineMap().getLineNumber(position);
    }
}
