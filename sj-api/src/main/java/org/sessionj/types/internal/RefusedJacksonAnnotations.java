package org.sessionj.types.internal;

import java.util.Map;

/**
 * The Jackson annotations a message class may not carry anywhere, each with why: one table read by the
 * processor's SJ018 (from the source) and by the runtime's load check (by reflection), so the two sides cannot
 * disagree (adv20 A5), as {@link JdkMessageTypes} does for JDK classes.
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

    private RefusedJacksonAnnotations() {
    }
}
