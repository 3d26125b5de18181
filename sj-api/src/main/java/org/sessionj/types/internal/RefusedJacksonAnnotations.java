package org.sessionj.types.internal;

import java.util.Map;
import java.util.Set;

/**
 * The Jackson annotations a message class may carry ({@link #MODELLED}, an allow list: any other is refused, adv21
 * B4-B6) and those refused with a reason of their own ({@link #WHY}): one table read by the
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
     * The Jackson annotations whose effect both checks model (adv21 B4-B6: the others were let through, and
     * {@code @JsonInclude(NON_NULL)} on a class with a field's default, {@code @JsonIgnoreType}, a {@code @JsonFormat}
     * pattern or shape changed what arrived or failed every message): a property's name, access and creator
     * ({@code @JsonProperty}, {@code @JsonCreator}, {@code @JsonValue}, {@code @JsonIgnore},
     * {@code @JsonIgnoreProperties}, {@code @JsonAutoDetect}, {@code @JsonAnyGetter}/{@code @JsonAnySetter}), the
     * type ids of a hierarchy ({@code @JsonTypeInfo}, {@code @JsonSubTypes}, {@code @JsonTypeName}), and those that
     * change nothing that travels ({@code @JsonPropertyOrder}, the descriptions). Any other
     * annotation of {@link #PREFIX} on a message class, its fields, methods, constructors or their parameters is
     * refused ({@link #why}); an enum's {@code @JsonFormat(shape = OBJECT)} is read where enums are.
     */
    public static final Set<String> MODELLED = Set.of(PREFIX + "annotation.JsonProperty",
            PREFIX + "annotation.JsonCreator", PREFIX + "annotation.JsonValue", PREFIX + "annotation.JsonIgnore",
            PREFIX + "annotation.JsonIgnoreProperties", PREFIX + "annotation.JsonAutoDetect",
            PREFIX + "annotation.JsonAnyGetter", PREFIX + "annotation.JsonAnySetter", PREFIX + "annotation.JsonTypeInfo",
            PREFIX + "annotation.JsonSubTypes", PREFIX + "annotation.JsonTypeName",
            PREFIX + "annotation.JsonPropertyOrder",
            PREFIX + "annotation.JsonPropertyDescription", PREFIX + "annotation.JsonClassDescription");

    /** The meta-annotation that makes an annotation a bundle of the Jackson annotations it carries. */
    public static final String BUNDLE = PREFIX + "annotation.JacksonAnnotationsInside";

    /**
     * Why an annotation of qualified name {@code name}, found on a message class or its members, is refused, or
     * null: it is in {@link #WHY}, a bundle ({@code bundle}: its type is meta-annotated
     * {@code @JacksonAnnotationsInside}, which Jackson reads through and neither check does: adv21 B5), or a Jackson
     * annotation outside {@link #MODELLED}.
     */
    public static String why(String name, boolean bundle) {
        String why = WHY.get(name);
        if (why != null) {
            return why;
        }
        if (bundle) {
            return "a bundle of Jackson annotations (@JacksonAnnotationsInside), which neither check reads through: "
                    + "write the annotations it bundles directly";
        }
        if (name.startsWith(PREFIX) && !MODELLED.contains(name)) {
            return "neither check models what it does to the value, which may change what arrives or fail every "
                    + "message (a default kept for null, a format or shape of the codec's own replaced): remove it";
        }
        return null;
    }

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
