package org.sessionj.runtime.internal.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
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
 * against a peer. Users compiled by an sj-processor that recorded no descriptor hash, and classes compiled
 * without the processor, record nothing and are not checked here. Runs only with
 * {@code -Dsessionj.checkUsers=true}: it looks the records up on the class path, and the first resource
 * look-up of a JVM opens every jar on it, which the descriptor class otherwise spares a cold start
 * (tens of milliseconds with a dozen jars).
 */
final class StaleUsers {
    static final String DIRECTORY = "META-INF/sessionj/users/";
    /** The setting that turns the check on, without the {@code sessionj.} prefix. */
    static final String SETTING = "checkUsers";
    /** Written by sj-processor (CheckedUsersIndex.DESCRIPTOR_KEY). */
    private static final String KEY = "descriptor=";

    private StaleUsers() {
    }

    /** Fails if a user of {@code protocol} recorded on {@code loader}'s class path was checked against another descriptor. */
    static void check(Class<?> protocol, ClassLoader loader, String descriptor) {
        String expected = KEY + hash(descriptor.strip());
        List<String> stale = new ArrayList<>();
        String where = null;
        try {
            Enumeration<URL> records = loader.getResources(DIRECTORY + protocol.getName() + ".txt");
            while (records.hasMoreElements()) {
                URL record = records.nextElement();
                String text;
                try (InputStream in = record.openStream()) {
                    // A record is one line per user class; a bounded read keeps a corrupt file harmless.
                    text = new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8);
                }
                for (String line : text.split("\n")) {
                    String[] fields = line.strip().split(" ");
                    if (!line.startsWith("#") && fields.length == 3 && fields[2].startsWith(KEY)
                            && !fields[2].equals(expected)) {
                        stale.add(fields[0]);
                        where = where == null ? record.toString() : where;
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
                    + " against this protocol (a build that compiles only changed files, such as maven-compiler-plugin"
                    + " with useIncrementalCompilation=false, does not recompile a module whose dependency changed;"
                    + " mvn clean install does)");
        }
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
