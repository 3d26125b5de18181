package org.sessionj.processor.check;

import java.util.Locale;

/**
 * The catalogue of everything sj-processor reports: one rule, one stable code. Codes never change
 * meaning; {@code docs/diagnostics.md} lists each with a wrong and a corrected example.
 */
public enum Diagnostic {
    // Protocol declarations.
    PROTOCOL_SYNTAX("SJ001", "protocol syntax error",
            "protocol syntax error at line %s, column %s: %s%n%s"),
    UNKNOWN_MESSAGE_TYPE("SJ002", "unknown Java type in a protocol",
            "unknown Java type '%s' in the protocol (line %s, column %s): it must be a primitive or a type visible "
                    + "from the interface's source file (imports, same package, nested types, java.lang)%n%s"),
    UNKNOWN_PROTOCOL("SJ003", "unknown protocol reference",
            "%s in the protocol (line %s, column %s) does not name a @Protocol interface: %s%n%s"),
    CYCLIC_PROTOCOL("SJ004", "cyclic or invalid protocol reference", "%s"),
    ILL_FORMED_PROTOCOL("SJ005", "ill-formed protocol", "ill-formed protocol: %s"),
    PROTOCOL_NOT_INTERFACE("SJ006", "@Protocol on a non-interface",
            "@Protocol must annotate a top-level or member interface, but '%s' is a %s"),
    BAD_SESSION_ANNOTATION("SJ007", "invalid @Session annotation", "invalid @Session on parameter '%s': %s"),
    TOO_DEEP("SJ008", "code nested too deeply to check",
            "%s %s, more than the session checker follows; split it into smaller methods"),
    STALE_CHECK("SJ009", "a class was checked against an earlier version of a session declaration",
            "%s was checked against an earlier version of the session declarations of %s and is not part of this "
                    + "compilation (the build compiled only the changed files): its class files were removed; build "
                    + "again to check it, or recompile the whole module (e.g. mvn clean compile)"),

    // Session sockets.
    UNTYPED_SESSION("SJ010", "session of unknown type",
            "%s: its protocol is not known at compile time; %s"),
    WRONG_BEGIN("SJ011", "request/accept on the wrong side of a protocol",
            "%s: protocol %s begins with %s, so its sessions are started with %s, not %s"),
    WRONG_ACTION("SJ012", "action does not match the session type",
            "session '%s': expected %s but the program %s"),
    WRONG_MESSAGE_TYPE("SJ013", "message type does not match",
            "session '%s': expected %s but the program %s"),
    UNKNOWN_LABEL("SJ014", "label not in the choice",
            "session '%s': label '%s' is not one of the labels %s of the choice %s"),
    NON_CONSTANT_LABEL("SJ015", "label is not a constant",
            "session '%s': the label of outbranch must be a string constant or an enum constant, found '%s'"),
    MISSING_LABEL("SJ016", "inbranch does not cover every label",
            "session '%s': the inbranch switch has no case for label%s %s of %s"),
    MISPLACED_CONSTRUCT("SJ017", "session construct outside its allowed form", "%s"),
    UNDECODABLE_MESSAGE_TYPE("SJ018", "message type no peer can decode",
            "message type '%s' in the protocol (line %s, column %s) cannot be decoded by a peer: %s%n%s"),
    UNBEGUN_ENDPOINT("SJ019", "service or server socket of a protocol without a begin",
            "%s: protocol %s has no begin (cbegin or sbegin), so it types part of a session (a @Session socket "
                    + "parameter, a @(%s) reference, a delegated payload) and makes no %s; give it a protocol that "
                    + "begins with %s (the runtime refuses this one)"),
    BRANCHES_DISAGREE("SJ020", "paths leave the session in different states",
            "session '%s': %s leave the session in different states: %s"),
    LOOP_CHANGES_SESSION("SJ021", "loop body changes a session it does not iterate",
            "session '%s': %s"),
    ITERATION_INCOMPLETE("SJ022", "session iteration body incomplete",
            "session '%s': the iteration body must complete %s before the next iteration, but %s remains"),
    JUMP_OUT_OF_ITERATION("SJ023", "jump out of a session iteration",
            "session '%s': %s leaves the session iteration %s before its condition decides; the peer would wait"),
    INCOMPLETE_SESSION("SJ024", "session not complete",
            "session '%s' is not complete %s: %s remains"),
    USE_AFTER_MOVE("SJ025", "use of a session after it was moved",
            "session '%s' is used after it was %s"),
    ACTION_IN_HANDLER("SJ026", "session action in catch or finally",
            "session '%s': only close() is allowed in a %s block (an exception may have cut the session short anywhere in the try block; close() abandons it and tells the peer)"),
    ACTION_NOT_ONCE("SJ027", "session action in code that does not run exactly once",
            "session '%s': no session action is allowed in %s"),
    ALIAS("SJ030", "session socket aliased",
            "session '%s' is copied %s; session sockets are linear (implicitly @NoAlias)"),
    ESCAPE("SJ031", "session socket escapes",
            "session '%s' escapes %s; session sockets are linear and may only be used in session operations"),
    CAPTURE("SJ032", "session socket captured",
            "session '%s' is captured by %s; session sockets are linear and cannot be shared with other code "
                    + "(to serve a session on another thread, hand it over: SJ.spawn(s, body), see SJ051)"),
    OVERWRITE("SJ033", "unfinished session overwritten",
            "session '%s' is reassigned while its session is not complete: %s remains"),
    DELEGATION_MISMATCH("SJ034", "delegated session has the wrong type",
            "session '%s': expected %s but the delegated session '%s' is at %s"),
    SESSION_METHOD_MISMATCH("SJ035", "session method type does not match",
            "%s: %s needs %s but it is %s"),
    OVERRIDE_MISMATCH("SJ036", "override changes a @Session type",
            "parameter '%s' of '%s' is %s, but the method it overrides in %s declares it %s; callers typed against "
                    + "either would be wrong, so an override must keep the same @Session type"),
    KEEPS_ENDED_SESSION("SJ037", "implementation leaves open a session its method ends",
            "%s does not end its @Session parameter '%s', but %s, which it implements, does (%s): a caller "
                    + "through that method counts the session as ended and may not close it, so nobody would; end "
                    + "it here too (close it, or call the overridden method)"),
    ENDS_ON_SOME_PATHS("SJ038", "session method ends its session on some paths only",
            "session '%s': %s ends it on some paths but not on others (%s); its callers count it as ended after "
                    + "the call and may not close it, so where it stays open nobody would: end it on every path "
                    + "that returns, or on none (a throw's path included)"),

    // @NoAlias ownership.
    NOT_UNIQUE("SJ040", "@NoAlias variable given a shared value",
            "@NoAlias '%s' may only hold a unique value (a new object or array, a received message, a @NoAlias "
                    + "method result or another @NoAlias variable, which is moved), found '%s'"),
    MOVED_VALUE_USED("SJ041", "@NoAlias value used after it was moved",
            "@NoAlias '%s' is used after its value was moved %s; %s"),
    PASS_NOT_UNIQUE("SJ042", "pass of a value that is not @NoAlias",
            "session '%s': pass() hands over ownership, so its argument must be a @NoAlias variable or a new "
                    + "object, found '%s'; use send() to send a copy"),
    NOALIAS_FIELD_READ("SJ043", "@NoAlias field read as a whole",
            "@NoAlias field '%s' can only be read through (%s[i], %s.f, %s.m()) or assigned; %s"),
    FIELD_NOT_REFILLED("SJ044", "@NoAlias field not refilled after a move",
            "@NoAlias field '%s' was moved out %s and must be assigned a new value %s"),
    NOALIAS_OVERRIDE("SJ045", "override breaks a @NoAlias contract",
            "'%s' overrides the method of %s but %s; callers are checked against the overridden method"),
    RESOURCE_MOVED("SJ046", "@NoAlias try-with-resources resource moved",
            "@NoAlias '%s' is a resource of the try-with-resources statement on line %s, which closes it at the "
                    + "end of the block, so it cannot be moved %s: the close would act on a value that belongs to "
                    + "someone else; declare it without try-with-resources (its new owner closes it)"),
    NOALIAS_UNCHECKED("SJ047", "@NoAlias where nothing checks it",
            "@NoAlias on %s is not checked: %s"),
    VIEW_USED("SJ048", "view of a @NoAlias value used after the value was moved",
            "'%s' holds %s, which may be @NoAlias '%s' itself or a view of it, and is used after that value was "
                    + "moved %s; use it before the move, or keep a copy instead (new ArrayList<>(...), List.copyOf(...), "
                    + "toString(); for elements that are views themselves, copies of them: map(Map.Entry::copyOf), "
                    + "row.clone())"),

    // Session threads (SpawnRules).
    USE_AFTER_SPAWN("SJ050", "use of a session after it was handed to a session thread",
            "session '%s' is used after it was %s; the session thread owns it now"),
    SPAWN_MISMATCH("SJ051", "session thread body does not match the sessions it is given",
            "session '%s' cannot be handed to this session thread: %s"),

    // Typed selectors and typecase (SelectorRules).
    SELECTOR_DECLARATION("SJ052", "invalid typed selector",
            "typed selector '%s': %s"),
    NOT_A_MEMBER("SJ053", "session registered at a type outside the selector's set",
            "session '%s' is at %s, which is not the start of a member of the selector's set %s"),
    TYPECASE("SJ054", "typecase misused",
            "session '%s': %s"),

    // Hand-overs that outlive this code (SessionActionRules, SelectorRules).
    HANDED_OVER_AND_CLOSED("SJ055", "session handed over but closed here",
            "session '%s' is %s, who runs it on after this code, but %s (its new owner closes it)"),
    ENDS_LENT_SESSION("SJ056", "implementation ends a session its method is only lent",
            "%s ends its @Session parameter '%s' (%s), but %s, which it implements, does not: a caller through "
                    + "that method goes on with the session after the call; end it in the caller instead"),
    THROWS_UNDECLARED("SJ057", "implementation throws with a lent session what its method does not declare",
            "%s may throw %s with its @Session parameter '%s' lent to it (%s), but %s, which it implements, neither "
                    + "declares nor throws it: a caller through that method does not count the throw, and its session "
                    + "may be left open half done; declare it there (throws %s), or catch it here");

    private final String code;
    private final String title;
    private final String template;

    Diagnostic(String code, String title, String template) {
        this.code = code;
        this.title = title;
        this.template = template;
    }

    /** The stable code, e.g. {@code SJ012}. */
    public String code() {
        return code;
    }

    /** A short title for documentation. */
    public String title() {
        return title;
    }

    /** The full message: {@code [SJ012] } followed by the template filled with {@code args}. */
    public String format(Object... args) {
        return "[" + code + "] " + String.format(Locale.ROOT, template, args);
    }
}
