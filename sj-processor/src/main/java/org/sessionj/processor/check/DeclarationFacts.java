package org.sessionj.processor.check;

import java.util.HashMap;
import java.util.Map;
import javax.lang.model.element.Element;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.types.SessionType;

/**
 * What the checks of one class read from the field declarations of another: the protocol of a
 * {@code final} service or server-socket field ({@code static final SJService SVC = SJService.create(P.class, …)})
 * and the members of a {@code final} typed selector field. Kept for the whole compilation.
 *
 * <p>Why a store: javac (its default compile policy, "by todo") attributes, analyses, lowers and
 * generates one top-level class after another, and lowering rewrites the class's tree (field
 * initializers move into constructors and {@code <clinit>}, varargs become arrays). A class checked
 * later would find nothing to read where an earlier class's field was, and the answer would depend on
 * the order of the files on javac's command line. So every class's facts are recorded when javac has
 * analysed it, before it is lowered ({@link SessionChecker}); a class not analysed yet is read from
 * its own, still intact, tree and recorded then. The lent-session answers of methods
 * ({@link LentSessions}) are settled at the same point for the same reason.
 */
final class DeclarationFacts {
    /** The endpoint state each final service or server-socket field's initializer gives it. */
    private final Map<Element, VarState> endpointFields = new HashMap<>();
    /** The members of each final typed selector field whose declaration is valid. */
    private final Map<Element, Map<String, SessionType>> selectorFields = new HashMap<>();

    /** Per class known from its class file, the field facts its compilation recorded, by member name. */
    private final Map<Element, Map<String, String>> recorded = new HashMap<>();

    /** Told of every field whose facts a class's checks read (SJ009). */
    private CheckedUsersIndex reads;

    void recordReadsIn(CheckedUsersIndex index) {
        this.reads = index;
    }

    /** The class being checked reads the facts of {@code field} (whether they are known yet or not). */
    void read(Element field) {
        if (reads != null) {
            reads.member(field);
        }
    }

    VarState endpointField(Element field) {
        return endpointFields.get(field);
    }

    void endpointField(Element field, VarState state) {
        endpointFields.put(field, state);
    }

    /** The recorded field facts of {@code type} ({@link FieldFacts#byName}), read once by {@code read}. */
    Map<String, String> recorded(Element type, java.util.function.Function<Element, String> read) {
        return recorded.computeIfAbsent(type, known -> FieldFacts.byName(read.apply(known)));
    }

    Map<String, SessionType> selectorField(Element field) {
        return selectorFields.get(field);
    }

    /** Records a valid typed selector field's members (an invalid one is reported at its declaration). */
    void selectorField(Element field, Map<String, SessionType> members) {
        selectorFields.put(field, members);
    }
}
