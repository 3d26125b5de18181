package org.sessionj.runtime.internal.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sessionj.api.SJException;

/**
 * Refuses a protocol whose users on the class path were checked against another version of it: classes
 * a build did not recompile after the protocol changed (another Maven module under
 * {@code useIncrementalCompilation=false}, which reports "Nothing to compile"; jars of two releases mixed
 * at deployment). sj-processor records, in each user's class output, the classes checked against a
 * protocol with the hash of the descriptor they were checked against ({@code META-INF/sessionj/users/<binary
 * name>.txt}, lines {@code <user> <fingerprint> descriptor=<hash>}). Invariant: <em>a protocol loads only
 * if every recorded user of it on the class path was checked against the descriptor that loads</em>;
 * otherwise the load fails naming the stale classes and where their record is, before any session runs
 * against a peer.
 *
 * <p>Likewise a library's {@code final} service field (adv14 A7): a user that read the protocol of
 * {@code Lib.SVC = SJService.create(P.class, …)} records the field's fact in its index of {@code Lib}
 * ({@code field.SVC=endpoint%20<type>}), and {@code Lib}'s compilation records the field's current fact
 * in {@code META-INF/sessionj/fields/<binary name>.txt}. Invariant: <em>a protocol loads only if every
 * recorded reader of a field fact of a class that may create it was checked against the fact the class
 * records now</em>. The classes that may create the protocol are the ones that read it (its own index,
 * written by the class's compilation) and the classes it is nested in (whose own declarations are not
 * indexed). Users compiled by an sj-processor that recorded no descriptor hash or field facts, and classes
 * compiled without the processor, record nothing and are not checked here. Runs only with
 * {@code -Dsessionj.checkUsers=true}: it looks the records up on the class path, and the first resource
 * look-up of a JVM opens every jar on it, which the descriptor class otherwise spares a cold start
 * (tens of milliseconds with a dozen jars).
 */
final class StaleUsers {
    static final String DIRECTORY = "META-INF/sessionj/users/";
    /** Where sj-processor records the facts of a class's final endpoint fields (FieldFacts.DIRECTORY). */
    static final String FIELDS = "META-INF/sessionj/fields/";
    /** The setting that turns the check on, without the {@code sessionj.} prefix. */
    static final String SETTING = "checkUsers";
    /** Written by sj-processor (CheckedUsersIndex.DESCRIPTOR_KEY). */
    private static final String KEY = "descriptor=";
    /** Written by sj-processor (CheckedUsersIndex.FIELD_KEY). */
    private static final String FIELD_KEY = "field.";
    /** A record is one line per user class; a bounded read keeps a corrupt file harmless. */
    private static final int MAX_RECORD = 1 << 20;

    private StaleUsers() {
    }

    /**
     * Fails if a user of {@code protocol} recorded on {@code loader}'s class path was checked against another
     * descriptor, or a reader of a field of a class that may create it against another fact of that field.
     */
    static void check(Class<?> protocol, ClassLoader loader, String descriptor) {
        String expected = KEY + hash(descriptor.strip());
        List<String> stale = new ArrayList<>();
        String where = null;
        // The classes whose field facts are compared: those that read the protocol, those it is nested in.
        Set<String> creators = new LinkedHashSet<>();
        for (int dollar = protocol.getName().lastIndexOf('$'); dollar > 0;
                dollar = protocol.getName().lastIndexOf('$', dollar - 1)) {
            creators.add(protocol.getName().substring(0, dollar));
        }
        try {
            for (Record record : records(loader, DIRECTORY + protocol.getName() + ".txt")) {
                for (String[] fields : record.lines()) {
                    creators.add(fields[0]);
                    String recorded = token(fields, KEY);
                    if (recorded != null && !(KEY + recorded).equals(expected)) {
                        stale.add(fields[0]);
                        where = where == null ? record.url().toString() : where;
                    }
                }
            }
        } catch (IOException e) {
            return; // an unreadable record checks nothing; the runtime monitor still guards every session
        }
        if (!stale.isEmpty()) {
            throw new SJException("protocol " + protocol.getName() + " is not the version that " + String.join(", ", stale)
                    + (stale.size() == 1 ? " was" : " were") + " checked against at compile time (recorded in " + where
                    + "): recompile the module that contains " + (stale.size() == 1 ? "it" : "them")
                    + " against this protocol" + BUILD_ADVICE);
        }
        creators.remove(protocol.getName());
        for (String creator : List.copyOf(creators)) {
            // and the classes declared in them: a record of a library that holds a service its factory method
            // made (`record Cfg(@Session(protocol = P.class) SJService svc)`, adv16 A10)
            try {
                for (Class<?> member : Class.forName(creator, false, loader).getDeclaredClasses()) {
                    creators.add(member.getName());
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // not loadable here: its own users are checked when it loads
            }
        }
        for (String creator : creators) {
            checkFields(protocol, creator, loader);
        }
    }

    private static final String BUILD_ADVICE = " (a build that compiles only changed files, such as maven-compiler-plugin"
            + " with useIncrementalCompilation=false, does not recompile a module whose dependency changed;"
            + " mvn clean install does)";

    /**
     * Fails if a class recorded as a reader of {@code owner}'s final endpoint fields was checked against
     * another fact of one of them than the one {@code owner}'s compilation records now.
     */
    private static void checkFields(Class<?> protocol, String owner, ClassLoader loader) {
        Map<String, String> now = null;
        try {
            for (Record record : records(loader, DIRECTORY + owner + ".txt")) {
                for (String[] fields : record.lines()) {
                    for (String token : fields) {
                        int equals = token.indexOf('=');
                        if (!token.startsWith(FIELD_KEY) || equals < 0) {
                            continue;
                        }
                        if (now == null) {
                            now = currentFieldFacts(loader, owner);
                        }
                        String field = token.substring(FIELD_KEY.length(), equals);
                        String then = decode(token.substring(equals + 1));
                        String current = now.get(field);
                        if (!then.equals(current)) {
                            throw new SJException("field " + owner + "." + field + " is not what " + fields[0]
                                    + " was checked against at compile time (recorded in " + record.url() + "): it was "
                                    + describe(then) + ", it is now " + (current == null ? "not a final field with"
                                    + " recorded facts (gone, no longer final, or its class compiled without"
                                    + " sj-processor)" : describe(current)) + " (loading protocol " + protocol.getName()
                                    + "); recompile the module that contains " + fields[0] + " against this version of "
                                    + owner + BUILD_ADVICE);
                        }
                    }
                }
            }
        } catch (IOException e) {
            // an unreadable record checks nothing; the runtime monitor still guards every session
        }
    }

    /** The field facts {@code owner}'s compilation recorded, by field name (empty when none). */
    private static Map<String, String> currentFieldFacts(ClassLoader loader, String owner) throws IOException {
        Map<String, String> facts = new HashMap<>();
        URL file = loader.getResource(FIELDS + owner + ".txt"); // the first, as the class itself is found first
        if (file == null) {
            return facts;
        }
        try (InputStream in = file.openStream()) {
            for (String line : new String(in.readNBytes(MAX_RECORD), StandardCharsets.UTF_8).split("\n")) {
                int tab = line.indexOf('\t');
                if (!line.startsWith("#") && tab > 0) {
                    facts.put(line.substring(0, tab), line.substring(tab + 1).strip());
                }
            }
        }
        return facts;
    }

    /** A recorded field fact for a message: {@code endpoint <type>} is a service or server socket of that type. */
    private static String describe(String fact) {
        return fact.startsWith("endpoint ") ? "an endpoint of protocol " + fact.substring("endpoint ".length())
                : fact.startsWith("selector") ? "a typed selector of" + fact.substring("selector".length()) : fact;
    }

    /** The value of the first {@code key} word of a record line, or null. */
    private static String token(String[] fields, String key) {
        for (int i = 1; i < fields.length; i++) {
            if (fields[i].startsWith(key)) {
                return fields[i].substring(key.length());
            }
        }
        return null;
    }

    /** Undoes sj-processor's percent-encoding of a field fact (CheckedUsersIndex.appendFieldFacts). */
    static String decode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int high = i + 2 < text.length() && c == '%' ? Character.digit(text.charAt(i + 1), 16) : -1;
            int low = high < 0 ? -1 : Character.digit(text.charAt(i + 2), 16);
            if (low >= 0) {
                out.append((char) (high << 4 | low));
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** One record file found on the class path and its lines, each split into words (user first). */
    private record Record(URL url, List<String[]> lines) {
    }

    private static List<Record> records(ClassLoader loader, String name) throws IOException {
        List<Record> found = new ArrayList<>();
        Enumeration<URL> records = loader.getResources(name);
        while (records.hasMoreElements()) {
            URL record = records.nextElement();
            String text;
            try (InputStream in = record.openStream()) {
                text = new String(in.readNBytes(MAX_RECORD), StandardCharsets.UTF_8);
            }
            List<String[]> lines = new ArrayList<>();
            for (String line : text.split("\n")) {
                String[] words = line.strip().split(" ");
                if (!line.startsWith("#") && words.length >= 2) {
                    lines.add(words);
                }
            }
            found.add(new Record(record, lines));
        }
        return found;
    }

    /** sj-processor's hash (CheckedUsersIndex.hash): the text's length and its 64-bit FNV-1a hash. */
    static String hash(String text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        return text.length() + "-" + Long.toHexString(hash);
    }
}
