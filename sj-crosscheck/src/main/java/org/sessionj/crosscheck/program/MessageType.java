package org.sessionj.crosscheck.program;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionTypes;

/**
 * A Java message type the generator uses: how it is written in a protocol, how a value of it is
 * written in Java, and how it is received. The records ({@code Pt}, {@code Tagged}) are declared by
 * {@link JavaWriter} in every generated protocol file.
 *
 * @param protocol the type as a protocol writes it (simple names, resolved in the protocol file)
 * @param java the type as Java code writes it
 * @param literal an expression of exactly this type
 * @param receiveMethod the dedicated receive method ({@code receiveInt}), or null: generic {@code receive()}
 * @param array whether values are arrays (may be moved with {@code pass} from a {@code @NoAlias} local)
 */
public record MessageType(String protocol, String java, String literal, String receiveMethod, boolean array) {

    public static final MessageType INT = new MessageType("int", "int", "3", "receiveInt", false);
    public static final MessageType LONG = new MessageType("long", "long", "4L", "receiveLong", false);
    public static final MessageType DOUBLE = new MessageType("double", "double", "0.5", "receiveDouble", false);
    public static final MessageType BOOLEAN = new MessageType("boolean", "boolean", "true", "receiveBoolean", false);
    public static final MessageType CHAR = new MessageType("char", "char", "'q'", "receiveChar", false);
    public static final MessageType STRING = new MessageType("String", "String", "\"t\"", null, false);
    public static final MessageType BOXED_INT = new MessageType("Integer", "Integer", "Integer.valueOf(5)", null, false);
    public static final MessageType INT_ARRAY = new MessageType("int[]", "int[]", "new int[] {1, 2}", null, true);
    public static final MessageType DOUBLE_ARRAY = new MessageType("double[]", "double[]", "new double[] {1.5}", null, true);
    public static final MessageType STRING_ARRAY = new MessageType("String[]", "String[]", "new String[] {\"a\"}", null, true);
    public static final MessageType DOUBLE_MATRIX =
            new MessageType("double[][]", "double[][]", "new double[][] {{1.0}, {2.0}}", null, true);
    public static final MessageType POINT = new MessageType("Pt", "Pt", "new Pt(1, 2)", null, false);
    public static final MessageType TAGGED = new MessageType("Tagged", "Tagged", "new Tagged(\"k\", new int[] {7})", null, false);
    public static final MessageType STRING_LIST = new MessageType("java.util.List<String>", "java.util.List<String>",
            "java.util.List.of(\"a\", \"b\")", null, false);

    private static final Map<MessageType, Payload.JavaType> PAYLOADS = new ConcurrentHashMap<>();

    /** Every type the generator draws message types from. */
    public static final List<MessageType> ALL = List.of(INT, LONG, DOUBLE, BOOLEAN, CHAR, STRING, BOXED_INT, INT_ARRAY,
            DOUBLE_ARRAY, STRING_ARRAY, DOUBLE_MATRIX, POINT, TAGGED, STRING_LIST);

    /** This type as a protocol's message payload. */
    public Payload.JavaType payload() {
        return PAYLOADS.computeIfAbsent(this, type -> {
            Action.Send send = (Action.Send) SessionTypes.parse("!<" + type.protocol + ">").head();
            return (Payload.JavaType) send.payload();
        });
    }

    /** The type a protocol payload stands for; fails for a payload no generator writes. */
    public static MessageType of(Payload payload) {
        for (MessageType type : ALL) {
            if (type.payload().equals(payload)) {
                return type;
            }
        }
        throw new IllegalArgumentException("not a generated message type: " + payload);
    }

    /** Whether values are primitives (sent with a primitive overload, received with {@code receiveX()} or unboxing). */
    public boolean primitive() {
        return receiveMethod != null;
    }
}
