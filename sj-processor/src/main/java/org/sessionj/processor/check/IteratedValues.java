package org.sessionj.processor.check;

import com.sun.source.tree.EnhancedForLoopTree;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ElementVisitor;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.Name;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.VarState;

/**
 * The value an enhanced {@code for} statement iterates over. javac evaluates {@code for (T v : x)}'s
 * expression once, keeps the array (or the Iterable's iterator) in a variable of its own, and reads it
 * for every next element. When {@code x} is an owned {@code @NoAlias} variable, that hidden reference is
 * tracked as a {@code @NoAlias} value of its own, keyed by a {@link Hidden} element in the flow state:
 * <ul>
 * <li>it is {@code x}'s value ({@link VarState#OWNED}) until {@code x} is assigned: a move of {@code x}
 * moves it too;</li>
 * <li>after {@code x} is assigned it keeps the old value, which nothing in the source reaches any more
 * ({@link VarState#UNASSIGNED}: a join with a path where it is still {@code x}'s value keeps that);</li>
 * <li>it is read at the start of every iteration after the first: moved by then, on any path that goes
 * round, is SJ041 ({@link #nextElement}).</li>
 * </ul>
 * So {@code for (int v : x) { g(x); x = new int[1]; }} is rejected (the next element is read from the
 * array {@code g} owns), while {@code g(x); x = new int[1]; return;} and {@code x = new int[1]; g(x);}
 * inside the loop are accepted (the moved value is not the one the loop reads).
 */
final class IteratedValues {
    private final MethodChecker flow;

    /** The hidden references of the enhanced for statements being checked, outermost first. */
    private final List<Hidden> active = new ArrayList<>();

    IteratedValues(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * The enhanced for statement {@code loop} evaluated its expression: tracks the hidden reference to
     * each owned {@code @NoAlias} variable the expression may yield (two for {@code c ? x : y}), in the
     * loop's scope (it goes when the loop ends).
     */
    void started(EnhancedForLoopTree loop) {
        NoAliasRules.Held held = flow.noAlias.hold(loop.getExpression(), "");
        for (NoAliasRules.Held each = held; each != null; each = each.also()) {
            Hidden key = new Hidden(each.var(), loop);
            flow.infos.put(key, new VarInfo(flow.name(each.var()), Kind.NOALIAS, flow.handlers.size(),
                    flow.onceOnly.size(), loop));
            flow.scopes.peek().vars.add(key);
            flow.state = flow.state.with(key, VarState.OWNED);
            active.add(key);
        }
    }

    /** The enhanced for statement {@code loop} is checked. */
    void ended(EnhancedForLoopTree loop) {
        for (java.util.Iterator<Hidden> keys = active.iterator(); keys.hasNext(); ) { // no lambda: see changed
            if (keys.next().loop == loop) {
                keys.remove();
            }
        }
    }

    /**
     * {@code var} was set to {@code value}: a hidden reference still holding its value is moved with it,
     * or, when {@code var} is given another value, keeps the old one on its own.
     */
    void changed(Element var, VarState value) {
        if (active.isEmpty() || flow.state == null) {
            return;
        }
        for (Hidden key : active) { // a loop: no lambda linked per compilation
            if (key.var.equals(var) && flow.state.get(key) instanceof VarState.Owned) {
                if (value instanceof VarState.Moved moved) {
                    flow.state = flow.state.with(key, moved);
                    flow.tryMoves.record(key);
                } else {
                    flow.state = flow.state.with(key, VarState.UNASSIGNED);
                }
            }
        }
    }

    /**
     * An iteration of {@code loop} starts: javac reads the next element from the value the loop started
     * with. Moved on a path that went round is SJ041 — reported here only when the variable was reassigned
     * since (otherwise its own next use is reported where it is, as for any moved variable).
     */
    void nextElement(EnhancedForLoopTree loop) {
        if (flow.state == null) {
            return;
        }
        for (Hidden key : active) {
            VarInfo info = flow.infos.get(key.var);
            if (key.loop == loop && flow.state.get(key) instanceof VarState.Moved moved && info != null
                    && info.kind() == Kind.VIEW) {
                // A loop over a view local (adv16 A17: `for (v : x.subList(0, 3))` held in `h`): the loop's own
                // iterator reads the view on every round, the only use of it there may be.
                flow.views.report(loop.getExpression(), key.var, moved.how() + " (the enhanced for loop on line "
                        + flow.line(loop) + " reads its next element through it)");
                continue;
            }
            if (key.loop == loop && flow.state.get(key) instanceof VarState.Moved moved
                    && !(flow.state.get(key.var) instanceof VarState.Moved)) {
                flow.noAlias.movedUse(loop.getExpression(), key,
                        moved.how() + " (the enhanced for loop on line " + flow.line(loop) + " reads its next "
                                + "element from the value it started with, whatever the variable holds now: leave the "
                                + "loop after the move, or assign the variable before moving it)");
            }
        }
    }

    /**
     * The key of one enhanced for statement's hidden reference to the value of {@code var}: an element of
     * its own, so that the flow state tracks it like a {@code @NoAlias} local (joins, loop widening, the
     * moves a catch block may follow). Never handed to javac; equal only to itself.
     */
    static final class Hidden implements VariableElement {
        private final Element var;
        private final EnhancedForLoopTree loop;

        Hidden(Element var, EnhancedForLoopTree loop) {
            this.var = var;
            this.loop = loop;
        }

        @Override
        public Object getConstantValue() {
            return null;
        }

        @Override
        public TypeMirror asType() {
            return var.asType();
        }

        @Override
        public ElementKind getKind() {
            return ElementKind.LOCAL_VARIABLE;
        }

        @Override
        public Set<Modifier> getModifiers() {
            return Set.of();
        }

        @Override
        public Name getSimpleName() {
            return var.getSimpleName();
        }

        @Override
        public Element getEnclosingElement() {
            return var.getEnclosingElement();
        }

        @Override
        public List<? extends Element> getEnclosedElements() {
            return List.of();
        }

        @Override
        public List<? extends AnnotationMirror> getAnnotationMirrors() {
            return List.of();
        }

        @Override
        public <A extends Annotation> A getAnnotation(Class<A> annotationType) {
            return null;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <A extends Annotation> A[] getAnnotationsByType(Class<A> annotationType) {
            return (A[]) java.lang.reflect.Array.newInstance(annotationType, 0);
        }

        @Override
        public <R, P> R accept(ElementVisitor<R, P> visitor, P parameter) {
            return visitor.visitVariable(this, parameter);
        }

        @Override
        public String toString() {
            return "the value the enhanced for loop iterates over (" + var.getSimpleName() + ")";
        }
    }
}
