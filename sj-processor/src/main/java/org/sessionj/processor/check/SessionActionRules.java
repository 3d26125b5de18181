package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.tree.TypeCastTree;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * The actions on a session socket checked against its remaining type: send and receive (values,
 * delegated sessions, services), close, multicast sends, and calls of methods with {@code @Session}
 * parameters, which consume a prefix of the type.
 */
final class SessionActionRules {
    private final MethodChecker flow;
    private final SentValues sentValues;
    /** Each generic {@code receive()} checked, with the message type it receives (what a send of it sends). */
    private final Map<Tree, TypeMirror> receivedTypes = new IdentityHashMap<>();

    SessionActionRules(MethodChecker flow) {
        this.flow = flow;
        this.sentValues = new SentValues(flow);
    }

    private static final Map<String, TypeKind> PRIMITIVE_RECEIVES = Map.of(
            "receiveInt", TypeKind.INT, "receiveLong", TypeKind.LONG, "receiveDouble", TypeKind.DOUBLE,
            "receiveFloat", TypeKind.FLOAT, "receiveBoolean", TypeKind.BOOLEAN, "receiveByte", TypeKind.BYTE,
            "receiveShort", TypeKind.SHORT, "receiveChar", TypeKind.CHAR);


    /** The live state of {@code var} if an action on it may be checked; reports moved/handler misuse. */
    VarState.Live usable(Element var, Tree at) {
        if (flow.state == null) {
            return null;
        }
        VarState value = flow.state.get(var);
        if (value instanceof VarState.Nullable nullable) {
            // First, in a handler too: whatever else is wrong there, it may be null (a close in a finally
            // block is fine once tested).
            flow.reporter.error(at, Diagnostic.USE_AFTER_MOVE, flow.name(var), nullable.nullHow()
                    + " on a path that reaches here (on others it holds " + MethodChecker.describe(nullable.session())
                    + "): test it first, if (" + flow.name(var) + " != null) { ... } or if (" + flow.name(var)
                    + " == null) return;");
            flow.fail(var);
            return null;
        }
        boolean usable = value instanceof VarState.Live || value instanceof VarState.Moved
                || value instanceof VarState.Unknown;
        if (usable && flow.infos.get(var).handlerDepth() < flow.handlers.size()) {
            flow.reporter.error(at, Diagnostic.ACTION_IN_HANDLER, flow.name(var), flow.handlers.peek());
            flow.fail(var);
            return null;
        }
        if (usable && flow.infos.get(var).regionDepth() < flow.onceOnly.size()) {
            flow.reporter.error(at, Diagnostic.ACTION_NOT_ONCE, flow.name(var), flow.onceOnly.peek());
            flow.fail(var);
            return null;
        }
        if (value instanceof VarState.Moved moved) {
            flow.reporter.error(at, SpawnRules.spawned(moved) ? Diagnostic.USE_AFTER_SPAWN : Diagnostic.USE_AFTER_MOVE,
                    flow.name(var), moved.text());
            flow.fail(var);
            return null;
        }
        if (value instanceof VarState.Unknown unknown) {
            flow.reporter.error(at, Diagnostic.USE_AFTER_MOVE, flow.name(var), "left at " + unknown.how()
                    + (unknown.mayBeNull() ? " (or it holds null)" : ""));
            flow.fail(var);
            return null;
        }
        return value instanceof VarState.Live live ? live : null;
    }

    static String expected(SessionType unfolded, VarState.Live live) {
        if (unfolded.isEnd()) {
            return live.iterations() > 0 ? "the end of the iteration body" : "end (the session is complete)";
        }
        return TypeModel.printAction(unfolded.head());
    }

    /**
     * What the wrong action probably is: an extra one (the session or iteration body is complete), or
     * one that comes too early — the expected action is missing before it (it matches the next one).
     */
    static String hint(SessionType unfolded, VarState.Live live, Class<? extends Action> found) {
        if (unfolded.isEnd()) {
            return live.iterations() > 0 ? " (an extra action: this iteration's body is complete here)"
                    : " (an extra action: the session is complete here)";
        }
        SessionType next = TypeModel.unfold(unfolded.tail());
        if (!next.isEnd() && found.isInstance(next.head())) {
            return " (missing before it: " + TypeModel.printAction(unfolded.head()) + ")";
        }
        return "";
    }

    void advance(Element var, SessionType unfolded, VarState.Live live, Tree at) {
        flow.linearity.actionPoint(var, at);
        flow.set(var, new VarState.Live(unfolded.tail(), live.iterations()));
        flow.lastActions.put(var, at);
    }

    void socketOperation(MethodInvocationTree call, ExecutableElement method, MemberSelectTree select) {
        String operation = method.getSimpleName().toString();
        Element var = flow.trackedSocket(select.getExpression());
        if (var == null) {
            // Not a tracked socket: the receiver is reported where it is (SJ010, a capture or SJ017).
            flow.scan(select.getExpression(), null);
            flow.scanEach(call.getArguments());
            return;
        }
        String name = flow.name(var);
        if (operation.equals("receive") && call.getArguments().size() == 1) {
            flow.liveExits.timedAction(call, var); // adv20 A2: its timeout leaves the other live sessions as they are
        }
        switch (operation) {
            case "send", "pass" -> {
                ExpressionTree argument = call.getArguments().get(0);
                boolean delegation = flow.trackedSocket(argument) != null;
                if (operation.equals("pass") && !delegation && !flow.noAliasValues.unique(argument)
                        && !flow.noAliasValues.immutable(argument) && flow.state != null
                        && !(flow.state.get(var) instanceof VarState.Failed)) {
                    flow.reporter.error(argument, Diagnostic.PASS_NOT_UNIQUE, name, argument);
                    flow.fail(var);
                }
                if (!delegation) {
                    flow.scan(argument, null);
                    flow.noAliasFields.serialised(argument);
                    // adv20 A2 E2: the codec may run the program's code, which may fail this session alone
                    flow.liveExits.codecAction(call, var, flow.trees.getTypeMirror(flow.pathOf(argument)), operation);
                }
                send(var, argument, call);
            }
            case "receive" -> {
                flow.scanEach(call.getArguments());
                receiveValue(var, call);
            }
            case "outbranch" -> {
                ExpressionTree argument = call.getArguments().get(0);
                flow.scan(argument, null);
                flow.choices.outbranch(var, argument, call);
            }
            case "inbranch" -> misplaced(var, call, "inbranch() must be the selector of a switch: switch ("
                    + name + ".inbranch()) { case \"L\" -> ... }, or initialise a label variable that the next "
                    + "statement switches on: String label = " + name + ".inbranch(); switch (label) { ... }");
            case "outwhile", "inwhile" -> {
                flow.scanEach(call.getArguments());
                misplaced(var, call, operation + "() must be the condition of a while (or for) loop: while (" + name
                        + "." + operation + "(" + (operation.equals("outwhile") ? "condition" : "") + ")) { ... }");
            }
            case "close" -> {
                if (flow.state != null && closeOffTheNormalPath(var, call, name)) {
                    return;
                }
                VarState.Live live = usable(var, call);
                if (live != null) {
                    if (!live.complete()) {
                        flow.reporter.error(call, Diagnostic.INCOMPLETE_SESSION, name, "when it is closed",
                                TypeModel.describe(live.remaining()));
                        flow.fail(var);
                    } else {
                        flow.linearity.actionPoint(var, call);
                        flow.set(var, new VarState.Moved("closed on line " + flow.line(call)));
                    }
                }
            }
            default -> {
                if (PRIMITIVE_RECEIVES.containsKey(operation)) {
                    receivePrimitive(var, call, PRIMITIVE_RECEIVES.get(operation));
                } else {
                    flow.scanEach(call.getArguments());
                    usable(var, call); // protocol(), isInputReady(): no action, but not after a move
                }
            }
        }
    }

    /**
     * A {@code close()} where the session may have failed or been cut short: of a session its own action
     * failed, in a finally block, or in a catch block (only exception paths enter it: the close abandons what
     * the try block cut short, adv12 A3) it is allowed; in any other handler it is reported with where the
     * session may have gone (null, or handed away: adv13 A7). Returns whether it allowed or reported the
     * close; false leaves it to the rules of the normal path.
     */
    private boolean closeOffTheNormalPath(Element var, Tree call, String name) {
        VarState current = flow.state.get(var);
        if (LinearityRules.failed(current)) {
            // Complete or failed by its own action: closing it is what must happen (a no-op when failed).
            flow.set(var, new VarState.Moved("closed on line " + flow.line(call)));
            return true;
        }
        if (flow.linearity.closableInFinally(var)) {
            // As try-with-resources does; completeness on the normal paths is checked where they
            // enter the finally block (TryStatements.closedByFinally).
            flow.set(var, new VarState.Moved(LinearityRules.CLOSED_IN_FINALLY + flow.line(call)));
            return true;
        }
        if (flow.linearity.closableInCatch(var)) {
            flow.set(var, new VarState.Moved(LinearityRules.CLOSED_IN_CATCH + flow.line(call)));
            return true;
        }
        if (flow.infos.get(var).handlerDepth() >= flow.handlers.size()
                || !(current instanceof VarState.Moved || current instanceof VarState.Unknown)) {
            return false;
        }
        String where = current instanceof VarState.Unknown unknown && unknown.closable() && unknown.mayBeNull()
                ? "left at " + unknown.how() + " (or it holds null: test it first, if (" + name + " != null))"
                : (current instanceof VarState.Moved moved ? moved.how()
                        : "left at " + ((VarState.Unknown) current).how()) + "; it may no longer be this code's to close";
        flow.reporter.error(call, Diagnostic.USE_AFTER_MOVE, name, where);
        flow.fail(var);
        return true;
    }

    private void misplaced(Element var, Tree call, String message) {
        if (flow.state != null && !(flow.state.get(var) instanceof VarState.Failed)) {
            flow.reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, message);
            flow.fail(var);
        }
    }

    private void send(Element var, ExpressionTree argument, Tree call) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return;
        }
        String name = flow.name(var);
        SessionType unfolded = TypeModel.unfold(live.remaining());
        Element delegated = flow.trackedSocket(argument);
        TypeMirror argumentType = flow.trees.getTypeMirror(flow.pathOf(argument));
        if (erroneous(argumentType)) {
            flow.fail(var); // javac has reported the argument; checking on would only cascade
            return;
        }
        // The texts of a message are built only when one is reported: printing a javac type or a session
        // type at every send cost a few per cent of the processor's time.
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Send expectedSend)) {
            flow.reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live),
                    sent(delegated, argumentType) + hint(unfolded, live, Action.Send.class));
            flow.fail(var);
            return;
        }
        // instanceof, not a pattern switch: javac loads the processor afresh for every compilation, and
        // each switch's bootstrap would be linked cold every time (NoPatternSwitchTest)
        Payload payload = expectedSend.payload();
        if (payload instanceof Payload.SessionPayload session && session.isService()) {
            Element endpoint = flow.trackedEndpoint(argument);
            if (delegated != null || !serviceValue(argument)) {
                flow.reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedSend),
                        sent(delegated, argumentType));
                flow.fail(var);
                return;
            }
            // Invariant: a service is sent only where its protocol is known, on every path, to be the
            // one the type names (a join of two protocols, or an untyped service, is unknown).
            VarState given = endpoint != null ? flow.state.get(endpoint) : flow.origins.endpointOfScanned(argument);
            if (given instanceof VarState.Endpoint known && StateMerges.CONFLICTING.equals(known.protocolName())) {
                flow.reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedSend),
                        "sends a service " + StateMerges.CONFLICTING);
                flow.fail(var);
                return;
            }
            // A service whose protocol is not known here (a method's result, an unannotated
            // parameter) is not checked (docs/diagnostics.md, "What is not checked").
            if (given instanceof VarState.Endpoint known && known.protocol() != null
                    && !sameSession(known.protocol(), session.type())) {
                flow.reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedSend),
                        "sends a service of protocol " + TypeModel.describe(known.protocol()));
                flow.fail(var);
                return;
            }
            advance(var, unfolded, live, call);
        } else if (payload instanceof Payload.SessionPayload session) {
            if (delegated == null) {
                flow.reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedSend),
                        sent(delegated, argumentType));
                flow.fail(var);
                return;
            }
            if (delegated.equals(var)) { // the sender would have to keep the session it gives away
                flow.reporter.error(argument, Diagnostic.ALIAS, name,
                        "into a message of its own session (a session cannot be delegated over itself)");
                flow.fail(var);
                return;
            }
            advance(var, unfolded, live, call);
            VarState.Live moved = usable(delegated, argument);
            if (moved == null || flow.selectors.refuseHandOver(delegated, argument, "delegated")) {
                return;
            }
            SessionType wanted = TypeModel.stripBegin(session.type());
            if (moved.iterations() > 0 || !sameSession(moved.remaining(), wanted)) {
                flow.reporter.error(argument, Diagnostic.DELEGATION_MISMATCH, name, TypeModel.printAction(expectedSend),
                        flow.name(delegated),
                        MethodChecker.describe(moved));
                flow.fail(delegated);
                return;
            }
            flow.set(delegated, new VarState.Moved("delegated on line " + flow.line(call)));
        } else if (payload instanceof Payload.JavaType javaType) {
            List<SentValues.Value> values = delegated != null
                    ? List.of(new SentValues.Value(argument, argumentType, null)) : sentValues.of(argument, receivedTypes);
            for (SentValues.Value value : values) {
                if (!valueFits(name, expectedSend, javaType, value, delegated)) {
                    flow.fail(var);
                    return;
                }
            }
            advance(var, unfolded, live, call);
        }
    }

    /**
     * Whether one value a send may send ({@link SentValues}) fits the promised message type; reports
     * SJ013 when it does not.
     */
    private boolean valueFits(String name, Action.Send expectedSend, Payload.JavaType javaType, SentValues.Value value,
            Element delegated) {
        ExpressionTree argument = value.tree();
        TypeMirror argumentType = value.type();
        String apiObject = delegated == null ? flow.api.apiObject(argumentType) : null;
        if (apiObject != null) { // Jackson would write it as an empty bean: the peer gets {}
            flow.reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedSend),
                    sent(delegated, argumentType) + " (" + apiObject + " is not a message: a service travels only"
                    + " where the type says !<cbegin.…>, server sockets, selectors and scopes not at all)");
            return false;
        }
        TypeMirror wanted = flow.messages.mirror(javaType);
        boolean nullValue = FlowScanner.strip(argument) instanceof TypeCastTree cast
                && FlowScanner.strip(cast.getExpression()) instanceof LiteralTree literal
                        && literal.getValue() == null;
        if (delegated != null || (wanted != null && !(nullValue && !wanted.getKind().isPrimitive())
                && !flow.messages.sendCompatible(argumentType, wanted) && !sentValues.fits(value, wanted))) {
            boolean box = wanted != null && wanted.getKind().isPrimitive() && argumentType != null
                    && !argumentType.getKind().isPrimitive() && flow.messages.unboxesTo(argumentType, wanted);
            boolean raw = wanted != null && flow.messages.rawWhereParameterised(argumentType, wanted);
            String widened = delegated == null ? widenedHint(argument, argumentType, wanted) : null;
            flow.reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedSend),
                    sent(delegated, argumentType) + (box
                    ? " (a box, which may be null where the type promises a value: unbox it explicitly, e.g. x."
                            + wanted + "Value())"
                    : raw ? " (a raw type, whose contents nothing has checked against " + wanted
                            + ": give it type arguments)" : widened != null ? widened
                    : sentValues.classFits(value, wanted) ? " (Java infers its type arguments from its arguments alone in a"
                            + " send, and with " + wanted + "'s some argument does not fit: check them, or give"
                            + " it type arguments or a variable of the message type)" : ""));
            return false;
        }
        String another = wanted == null || nullValue ? null : flow.messages.arrivesAsAnotherClass(argumentType, wanted);
        if (another != null) {
            flow.reporter.error(argument, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedSend),
                    sent(delegated, argumentType) + " (" + another + ")");
            return false;
        }
        return true;
    }

    /**
     * The fix of SJ013 for a primitive that Java would widen to the promised one ({@code send(3)} on
     * {@code !<double>}, adv14 A6): a message travels as the box of its own type, so the peer would get an
     * {@code Integer} where it reads a {@code Double}; the value must have the promised type at the send.
     */
    private String widenedHint(ExpressionTree argument, TypeMirror argumentType, TypeMirror wanted) {
        if (argumentType == null || wanted == null || !argumentType.getKind().isPrimitive()
                || !wanted.getKind().isPrimitive() || argumentType.getKind() == wanted.getKind()
                || !flow.types.isAssignable(argumentType, wanted)) {
            return null;
        }
        ExpressionTree stripped = FlowScanner.strip(argument);
        String literal = stripped instanceof LiteralTree value && value.getValue() instanceof Number number
                ? literalOf(number, wanted.getKind()) : null;
        String fix = literal != null ? literal : "(" + wanted + ") "
                + (stripped instanceof com.sun.source.tree.IdentifierTree ? stripped.toString() : "x");
        return " (" + withArticle(argumentType) + " travels as its box, not as " + withArticle(wanted) + ": write "
                + fix + ")";
    }

    private static String withArticle(TypeMirror primitive) {
        String name = primitive.toString();
        return ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
    }

    /** {@code number} written as a literal of {@code kind} ({@code 3.0}, {@code 3L}, {@code 3.0f}), or null. */
    private static String literalOf(Number number, TypeKind kind) {
        long value = number.longValue();
        return kind == TypeKind.DOUBLE ? value + ".0" : kind == TypeKind.FLOAT ? value + ".0f"
                : kind == TypeKind.LONG ? value + "L" : null;
    }

    /** What a send call sends, for messages: a delegated session or a value of the argument's type. */
    private String sent(Element delegated, TypeMirror argumentType) {
        return delegated != null ? "sends session '" + flow.name(delegated) + "' (delegation)"
                : "sends !<" + argumentType + ">";
    }

    /**
     * Whether {@code argument} is a service: each value it may send ({@link SentValues}: both arms of a
     * conditional, which as an argument of {@code send(Object)} is typed {@code Object}, its target).
     */
    private boolean serviceValue(ExpressionTree argument) {
        for (SentValues.Value value : sentValues.of(argument, receivedTypes)) {
            if (!flow.api.isService(value.type())) {
                return false;
            }
        }
        return true;
    }

    private static boolean erroneous(TypeMirror type) {
        return type != null && type.getKind() == TypeKind.ERROR;
    }

    private static boolean sameSession(SessionType left, SessionType right) {
        return TypeModel.sameBehaviour(left, right);
    }

    private void receiveValue(Element var, MethodInvocationTree call) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return;
        }
        String name = flow.name(var);
        TypeMirror target = flow.messages.receiveTarget(flow.getCurrentPath());
        if (erroneous(target)) {
            flow.fail(var);
            return;
        }
        String found = "receives ?(" + target + ")";
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Receive expectedReceive)) {
            flow.reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live),
                    found + hint(unfolded, live, Action.Receive.class));
            flow.fail(var);
            return;
        }
        if (expectedReceive.payload() instanceof Payload.JavaType javaType) {
            TypeMirror payload = flow.messages.mirror(javaType);
            if (payload != null && target != null && !flow.messages.receiveCompatible(payload, target)) {
                flow.reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name,
                        TypeModel.printAction(expectedReceive), found + boxHint(payload, target)
                                + argumentHint(call, name, payload));
                flow.fail(var);
                return;
            }
            // A box unboxed where it stands ((Integer) s.receive() into an int, 1 + s.<Integer>receive()):
            // the peer may send null, as for a box received into its primitive directly.
            if (payload != null && flow.messages.isBox(payload)
                    && new UnboxingContexts(flow.trees, flow.contracts).unboxed(flow.getCurrentPath())) {
                flow.reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedReceive),
                        "receives ?(" + payload + ") where it is unboxed (a box, which the peer may send as null: "
                                + "receive it into a " + payload + " variable and unbox it explicitly)");
                flow.fail(var);
                return;
            }
            receivedTypes.put(call, payload);
            flow.liveExits.codecAction(call, var, payload, "receive"); // adv20 A2 E2
        } else {
            boolean service = ((Payload.SessionPayload) expectedReceive.payload()).isService();
            flow.reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedReceive),
                    found + "; a received " + (service ? "service must initialise an SJService variable"
                            : "session must initialise an SJSocket variable"));
            flow.fail(var);
            return;
        }
        advance(var, unfolded, live, call);
    }

    /**
     * The hint for a {@code receive()} given straight to a method or constructor as an argument, with no type
     * argument of its own: it takes its type from the parameter javac picked, which may be one of several
     * overloads ({@code System.out.println(s.receive())}: {@code println(char[])}, adv13 A6.1).
     */
    private String argumentHint(MethodInvocationTree call, String name, TypeMirror payload) {
        if (!call.getTypeArguments().isEmpty()) {
            return "";
        }
        TreePath parent = flow.getCurrentPath().getParentPath();
        while (parent != null && parent.getLeaf() instanceof com.sun.source.tree.ParenthesizedTree) {
            parent = parent.getParentPath();
        }
        Tree callee = parent == null ? null : parent.getLeaf();
        String method = callee instanceof MethodInvocationTree invocation ? "'" + invocation.getMethodSelect() + "'"
                : callee instanceof com.sun.source.tree.NewClassTree construction ? "new " + construction.getIdentifier()
                : null;
        return method == null ? "" : " (receive() takes its type from the parameter of " + method + " it is given to, "
                + "which javac chose among its overloads; say the message type: " + name + ".<" + payload
                + ">receive())";
    }

    /** The hint for a box received into its primitive: the peer may send null. */
    private String boxHint(TypeMirror payload, TypeMirror target) {
        return payload != null && target.getKind().isPrimitive() && flow.messages.unboxesTo(payload, target)
                ? " (a box, which the peer may send as null: receive it as " + payload + " and unbox it explicitly)"
                : "";
    }

    private void receivePrimitive(Element var, MethodInvocationTree call, TypeKind kind) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return;
        }
        String name = flow.name(var);
        String typeName = kind.name().toLowerCase(java.util.Locale.ROOT);
        String found = "receives ?(" + typeName + ")";
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Receive expectedReceive)) {
            flow.reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live),
                    found + hint(unfolded, live, Action.Receive.class));
            flow.fail(var);
            return;
        }
        TypeMirror primitive = flow.types.getPrimitiveType(kind);
        TypeMirror payload = expectedReceive.payload() instanceof Payload.JavaType javaType
                ? flow.messages.mirror(javaType) : null;
        boolean matches = payload != null && flow.types.isSameType(payload, primitive);
        if (!matches && !(payload == null && expectedReceive.payload() instanceof Payload.JavaType)) {
            flow.reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedReceive),
                    found + boxHint(payload, primitive));
            flow.fail(var);
            return;
        }
        advance(var, unfolded, live, call);
    }

    /** Receives a delegated session ({@code service == false}) or a service into a new variable. */
    VarState receiveSession(Element var, MethodInvocationTree call, String into, boolean service) {
        VarState.Live live = usable(var, call);
        if (live == null) {
            return service ? VarState.Endpoint.unknown() : VarState.FAILED;
        }
        String name = flow.name(var);
        String found = service ? "receives a service (SJService)"
                : "receives a session into '" + into + "' (SJSocket)";
        SessionType unfolded = TypeModel.unfold(live.remaining());
        if (unfolded.isEnd() || !(unfolded.head() instanceof Action.Receive expectedReceive)) {
            flow.reporter.error(call, Diagnostic.WRONG_ACTION, name, expected(unfolded, live),
                    found + hint(unfolded, live, Action.Receive.class));
            flow.fail(var);
            return service ? VarState.Endpoint.unknown() : VarState.FAILED;
        }
        if (!(expectedReceive.payload() instanceof Payload.SessionPayload session) || session.isService() != service) {
            flow.reporter.error(call, Diagnostic.WRONG_MESSAGE_TYPE, name, TypeModel.printAction(expectedReceive),
                    found);
            flow.fail(var);
            return service ? VarState.Endpoint.unknown() : VarState.FAILED;
        }
        advance(var, unfolded, live, call);
        return service ? new VarState.Endpoint(session.type(), "received on line " + flow.line(call))
                : new VarState.Live(TypeModel.stripBegin(session.type()), 0);
    }

    void multicast(MethodInvocationTree call, String operation) {
        List<? extends ExpressionTree> arguments = call.getArguments();
        switch (operation) {
            case "scope" -> {
                // Not a session action: SJ.scope() makes a group of sessions that fail together.
            }
            case "send" -> {
                flow.scan(arguments.get(0), null);
                flow.noAliasFields.serialised(arguments.get(0));
                for (Element socket : multicastSockets(call, arguments.subList(1, arguments.size()))) {
                    send(socket, arguments.get(0), call);
                }
            }
            default -> {
                arguments.forEach(argument -> {
                    if (flow.trackedSocket(argument) == null) {
                        flow.scan(argument, null);
                    }
                });
                if (flow.state != null) {
                    flow.reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, "SJ." + operation
                            + "(...) must be the condition of a while loop");
                    for (ExpressionTree argument : arguments) {
                        Element socket = flow.trackedSocket(argument);
                        if (socket != null) {
                            flow.fail(socket);
                        }
                    }
                }
            }
        }
    }

    /** The sockets named by a multicast's socket arguments; reports arguments that are not socket variables. */
    List<Element> multicastSockets(Tree call, List<? extends ExpressionTree> arguments) {
        List<Element> sockets = new ArrayList<>();
        for (ExpressionTree argument : arguments) {
            Element socket = flow.trackedSocket(argument);
            if (socket == null) {
                flow.scan(argument, null);
                if (flow.state != null) {
                    flow.reporter.error(argument, Diagnostic.MISPLACED_CONSTRUCT,
                            "a multicast names each session socket variable: SJ.send(x, s1, s2), found '"
                                    + argument + "'");
                }
            } else if (sockets.contains(socket)) {
                // Two names for one session in one multicast: the peer sees one action per socket.
                if (flow.state != null && !(flow.state.get(socket) instanceof VarState.Failed)) {
                    flow.reporter.error(argument, Diagnostic.ALIAS, flow.name(socket),
                            "into a second socket argument of this multicast (each session is named once)");
                    flow.fail(socket);
                }
            } else {
                sockets.add(socket);
            }
        }
        return sockets;
    }


    /** Whether {@code method} or a declaration enclosing it carries {@code @SuppressWarnings("sessionj")}. */
    static boolean suppressedDeclaration(Element method) {
        for (Element element = method; element != null; element = element.getEnclosingElement()) {
            if (SessionChecker.suppresses(element)) {
                return true;
            }
        }
        return false;
    }

    void sessionMethodCall(Element var, ExecutableElement method, VariableElement parameter,
            ExpressionTree argument) {
        VarState.Live live = usable(var, argument);
        if (live == null || flow.selectors.refuseHandOver(var, argument, "passed to " + (method.getKind()
                == javax.lang.model.element.ElementKind.CONSTRUCTOR ? "a constructor of '"
                + method.getEnclosingElement().getSimpleName() + "'" : "'" + method.getSimpleName() + "'"))) {
            return;
        }
        SessionType needed = flow.sessionParameters.of(parameter, null, flow.reporter).type();
        if (needed == null) {
            // Compiled elsewhere, or declared where checks are suppressed: no declaration reports it here
            // (SJ007), and the caller must not go on unchecked (adv11 A5: suppression is the callee's own
            // business, the @Session type is a contract with its callers).
            boolean elsewhere = flow.trees.getTree(method) == null;
            if (elsewhere || suppressedDeclaration(method)) {
                flow.reporter.error(argument, Diagnostic.UNTYPED_SESSION, "session '" + flow.name(var) + "'",
                        "it is lent to '" + method.getSimpleName() + "', whose @Session type of parameter "
                                + (method.getParameters().indexOf(parameter) + 1) + " is invalid (" + (elsewhere
                                        ? SessionParameters.elsewhereHint(method)
                                        : "its declaration's @SuppressWarnings(\"sessionj\") hides why") + ")");
            }
            flow.fail(var); // a declaration in this compilation reports the problem itself (SJ007)
            return;
        }
        SessionType from = live.remaining();
        SessionType remainder = stripPrefix(from, needed);
        if (remainder == null) {
            from = TypeModel.unfold(live.remaining());
            remainder = stripPrefix(from, TypeModel.unfold(needed));
        }
        if (remainder == null) {
            remainder = equivalentPrefix(live.remaining(), needed);
        }
        if (remainder == null) {
            remainder = equivalentPrefix(TypeModel.unfold(live.remaining()), needed);
        }
        if (remainder == null) {
            flow.reporter.error(argument, Diagnostic.SESSION_METHOD_MISMATCH, "session '" + flow.name(var) + "'",
                    "the call to '" + method.getSimpleName() + "'", "the session at " + TypeModel.describe(needed),
                    "at " + TypeModel.describe(live.remaining()));
            flow.fail(var);
            return;
        }
        String ending = flow.lent.ending(method, parameter);
        // A constructor is named after its class ("lent to 'Conn'"), not javac's '<init>'.
        Object callee = method.getKind() == javax.lang.model.element.ElementKind.CONSTRUCTOR
                ? method.getEnclosingElement().getSimpleName() : method.getSimpleName();
        if (ending != null && !new VarState.Live(remainder, live.iterations()).complete()) {
            // The callee ends the session after only the part it was lent: the caller's rest would be
            // abandoned (the runtime fails the close, delegation or spawn with a protocol violation).
            flow.reporter.error(argument, Diagnostic.INCOMPLETE_SESSION, flow.name(var), "when it is lent to '"
                    + callee + "', which " + ending + " after " + TypeModel.describe(needed), remainder.isEnd()
                    ? "the open iteration" : TypeModel.describe(remainder));
            flow.fail(var);
            return;
        }
        String closer = ending != null && flow.lent.handsOver(method, parameter) ? flow.spawns.closer(var) : null;
        if (closer != null) {
            flow.reporter.error(argument, Diagnostic.HANDED_OVER_AND_CLOSED, flow.name(var), "lent to '"
                    + callee + "', which " + ending, closer);
            flow.fail(var);
            return;
        }
        lentThrowPoints(var, method, from, from.actions().size() - remainder.actions().size(), live.iterations());
        if (ending == null) {
            flow.liveExits.lent(var, live); // the callee may throw anywhere in the part it is lent (adv15 A18)
        }
        flow.lastActions.put(var, argument);
        flow.set(var, ending == null ? new VarState.Live(remainder, live.iterations())
                : new VarState.Moved("lent to '" + callee + "' on line " + flow.line(argument)
                        + ", which " + ending));
    }

    /**
     * Inside a try block, the states at which a call that performs the first {@code lent} actions of
     * {@code from} may throw: after each of them (the method may throw between its actions, or after
     * the last), and anywhere inside a choice, recursion or iteration among them, which no one state
     * describes. A catch then sees the session in every such state, as if the actions were written
     * inline (before the call is the throw point the call itself records).
     */
    private void lentThrowPoints(Element var, ExecutableElement method, SessionType from, int lent, int iterations) {
        if (!flow.linearity.collectingThrowPoints()) {
            return;
        }
        // The suffixes by tail(), which shares the type's actions in constant time: a copy of each
        // suffix would cost time quadratic in a long lent type (adv11 A13).
        SessionType rest = from;
        for (int k = 0; k < lent; k++) {
            Action action = rest.head();
            rest = rest.tail();
            if (action instanceof Action.Select || action instanceof Action.Branch || action instanceof Action.Rec
                    || action instanceof Action.OutWhile || action instanceof Action.InWhile) {
                flow.linearity.throwPoint(var, new VarState.Unknown("partway through " + TypeModel.printAction(action)
                        + " in the call to '" + method.getSimpleName() + "'", true));
            }
            flow.linearity.throwPoint(var, new VarState.Live(rest, iterations));
        }
    }

    /**
     * What remains of {@code type} after a prefix of it with the same behaviour as {@code prefix} (equal
     * up to unfolding of recursion and renaming of recursion variables), or null when no prefix has it.
     * A prefix with a free recursion variable is not well formed on its own and matches nothing.
     */
    private static SessionType equivalentPrefix(SessionType type, SessionType prefix) {
        List<Action> actions = type.actions();
        for (int k = 1; k <= actions.size(); k++) {
            try {
                if (SessionTypes.equivalent(new SessionType(actions.subList(0, k)), prefix)) {
                    return new SessionType(actions.subList(k, actions.size()));
                }
            } catch (ProtocolException illFormed) {
                // not a type of its own (its recursion variable is bound further out): try a longer prefix
            }
        }
        return null;
    }

    private static SessionType stripPrefix(SessionType type, SessionType prefix) {
        int n = prefix.actions().size();
        if (n > type.actions().size() || !type.actions().subList(0, n).equals(prefix.actions())) {
            return null;
        }
        return new SessionType(type.actions().subList(n, type.actions().size()));
    }
}
