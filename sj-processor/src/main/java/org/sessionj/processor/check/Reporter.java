package org.sessionj.processor.check;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
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
        if (silent > 0) {
            return;
        }
        trees.printMessage(Kind.ERROR, diagnostic.format(args), at, unit);
    }

    /** 1-based source line of {@code tree}, for messages that point back at an earlier statement. */
    long line(Tree tree) {
        long position = trees.getSourcePositions().getStartPosition(unit, tree);
        return position < 0 ? -1 : unit.getLineMap().getLineNumber(position);
    }
}
