package org.sessionj.processor.check;

import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePathScanner;
import javax.lang.model.element.Element;
import org.sessionj.processor.check.FlowScanner.VarInfo;

/**
 * What a lambda, local class or anonymous class captures from the body that declares it. Its own
 * body is checked on its own (as another unit); here, each tracked variable of the enclosing body it
 * names is handed to its kind's rule: a service is shared ({@link SessionOriginRules#captured}), a
 * {@code @NoAlias} local moves into it ({@link NoAliasRules#captured}), a socket may not be captured
 * ({@link LinearityRules#captured}).
 */
final class Captures {
    private final MethodChecker flow;

    Captures(MethodChecker flow) {
        this.flow = flow;
    }

    /** Checks what {@code body} ({@code what}: "a lambda", "a local class", ...) captures. */
    void check(Tree body, String what) {
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree identifier, Void unused) {
                Element var = flow.trees.getElement(getCurrentPath());
                VarInfo info = var == null ? null : flow.infos.get(var);
                if (info == null) {
                    return null;
                }
                switch (info.kind()) {
                    case ENDPOINT -> flow.origins.captured(var);
                    case NOALIAS -> flow.noAlias.captured(var, info, identifier, what);
                    case SOCKET -> flow.linearity.captured(var, info, identifier, what);
                    case VIEW -> flow.views.captured(var, identifier, what);
                    case NOALIAS_FIELD -> { } // read through this, like any field; refilled before the code runs
                }
                return null;
            }
        }.scan(flow.pathOf(body), null);
    }
}
