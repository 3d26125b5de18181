package org.sessionj.types.internal;

import java.util.Map;

/**
 * The Jackson annotations a message class may not carry anywhere, each with why: one table read by the
 * processor's SJ018 (from the source) and by the runtime's load check (by reflection), so the two sides cannot
 * disagree (adv20 A5), as {@link JdkMessageTypes} does for JDK classes; and {@code @JsonIgnoreProperties}, refused
 * where it names what travels, in the same words on both sides.
 */
public final class RefusedJacksonAnnotations {
    /** The package prefix of every Jackson annotation. */
    public static final String PREFIX = "com.fasterxml.jackson.";

    /** Refused annotations by qualified name, each with why (completing "… is @X: …"). */
    public static final Map<String, String> WHY = Map.of(
            PREFIX + "databind.annotation.JsonSerialize", "the program's own code writes it, which no check can follow to "
                    + "what a receiver reads back",
            PREFIX + "databind.annotation.JsonDeserialize", "the program's own code reads it, which no check can follow to "
                    + "what a sender writes",
            PREFIX + "annotation.JsonRawValue", "the codec (Smile) has no raw values: every send would fail",
            PREFIX + "annotation.JsonGetter", "write it as @JsonProperty, which SJ018 and the runtime both read",
            PREFIX + "annotation.JsonSetter", "write it as @JsonProperty, which SJ018 and the runtime both read",
            PREFIX + "annotation.JsonUnwrapped", "its properties would be written into this object's, which its reader "
                    + "does not know");

    /**
     * {@code @JsonIgnoreProperties}: harmless with {@code ignoreUnknown} only, but the property names it lists are
     * dropped by Jackson on both ends — on a class, a field of it that travels (or a record component) is never
     * written nor read, and arrives at its default, silently, as under an accessor's {@code @JsonIgnore}; on a
     * member, the names are properties of the member's value, dropped from it.
     */
    public static final String IGNORE_PROPERTIES = PREFIX + "annotation.JsonIgnoreProperties";

    /** Why a class's {@code @JsonIgnoreProperties} naming {@code property}, a field that travels, is refused. */
    public static String ignoredByName(String property) {
        return "its field '" + property + "' would not arrive: @JsonIgnoreProperties names it, which drops the whole "
                + "property on both ends; mark the field @JsonIgnore or transient if it is not part of the message, "
                + "or take its name out";
    }

    /** Why {@code what} (a member) carrying {@code @JsonIgnoreProperties} with names is refused. */
    public static String ignoresPropertiesOfItsValue(String what) {
        return what + " is @JsonIgnoreProperties with names: the properties it names would not arrive in its value; "
                + "declare what travels in the value's own class (@JsonIgnoreProperties(ignoreUnknown = true) alone is "
                + "allowed)";
    }

    private RefusedJacksonAnnotations() {
    }
}
