package org.sessionj.processor.check;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic.Kind;
import javax.tools.FileObject;
import javax.tools.StandardLocation;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.ProtocolDefinition;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;
import org.sessionj.types.SessionType;

/**
 * Keeps a build that recompiles only changed files from leaving code checked against an earlier
 * version of a protocol or a {@code @Session} method (diagnostic SJ009). A class is checked against
 * the session declarations of other classes — a protocol's type, a callee's {@code @Session}
 * parameters, whether it ends the socket it is lent, {@code @NoAlias} contracts, the endpoint of a
 * {@code final} field (see {@link #fingerprint}) — so when one of those changes, every class that read
 * it must be checked again. Build
 * tools that compile only stale files (maven-compiler-plugin with {@code useIncrementalCompilation}
 * set to {@code false}, or {@code javac} run on the changed file alone) do not know that.
 *
 * <p>The invariant: every class in the output directory was checked against the current version of
 * every session declaration it read, or the compilation fails. For that, the processor keeps, per
 * declaring class ("provider"), an index under {@code META-INF/sessionj/users/} in the class output
 * directory: the classes checked against it and a fingerprint of its session declarations at the time.
 * When a provider is compiled and a class in its index is not part of the compilation but was checked
 * against another fingerprint, the compilation fails naming both, and that class's files are removed
 * from the output directory so that the next build compiles and checks it (a build that only reports
 * would pass on its second run with the stale class still there). A protocol that includes another
 * ({@code @(Q)}, {@code ^(Q)}, also in a payload) reads it — its descriptor holds the expansion — and so do
 * the classes checked against the includer: both are in Q's index (adv12 A7). Output that is not a directory
 * (in-memory file managers) keeps no index. Only the output directory of this compilation is seen:
 * users in another module or output directory (tests) rely on the build recompiling them.
 */
final class CheckedUsersIndex implements ProtocolRegistry.Uses {
    static final String DIRECTORY = "META-INF/sessionj/users/";
    /**
     * Before the hash of the protocol descriptor a user was checked against, in a protocol's index line
     * ({@code <user> <fingerprint> descriptor=<hash>}); sj-runtime reads it (StaleUsers) with the same hash.
     */
    static final String DESCRIPTOR_KEY = "descriptor=";
    /**
     * Before a field's fact in an index line ({@code field.SVC=endpoint%20cbegin.!<int>}); sj-runtime reads it
     * (StaleUsers) and compares it with the fact the field's class recorded ({@link FieldFacts}).
     */
    static final String FIELD_KEY = "field.";
    /** The start of the fingerprint of a class without facts: the hash of the empty text. */
    private static final String NO_FACTS = "0-";
    private static final String SUFFIX = ".txt";
    private static final String HEADER = "# sj-processor: classes checked against this class's session declarations,"
            + " with their fingerprint then";

    private final ProcessingEnvironment environment;
    private final Trees trees;
    private SessionApi api;
    private LentSessions lent;
    private FieldFacts fields;
    private final ProtocolRegistry registry;
    private final SessionParameters parameters;
    private final Elements elements;
    /** The class output directory, or null when it is not a directory (no index is kept). */
    private final Path output;
    /** Per provider binary name, the top-level classes of this compilation that read it. */
    private final Map<String, Set<String>> usersByProvider = new TreeMap<>();
    private final Map<String, TypeElement> providers = new HashMap<>();
    /** Binary names of the top-level classes of this compilation (every round's compilation units). */
    private final Set<String> compiledTopLevel = new HashSet<>();
    /** The types of this compilation checked as providers, with their fingerprints. */
    private final Map<String, String> compiledFingerprints = new HashMap<>();
    private String user;
    /** Per protocol binary name, the protocols it includes ({@code @(Q)}, {@code ^(Q)}), transitively. */
    private final Map<String, Set<TypeElement>> included = new HashMap<>();

    CheckedUsersIndex(ProcessingEnvironment environment, Trees trees, ProtocolRegistry registry,
            SessionParameters parameters) {
        this.environment = environment;
        this.trees = trees;
        this.registry = registry;
        this.parameters = parameters;
        this.elements = environment.getElementUtils();
        this.output = outputDirectory(environment);
    }

    /** The facts the fingerprint reads besides protocols and {@code @Session} types (set once, before the checks). */
    void readFactsFrom(SessionApi api, LentSessions lent, DeclarationFacts facts) {
        this.api = api;
        this.lent = lent;
        this.fields = new FieldFacts(environment, trees, api, facts, output == null ? null : output.getParent());
    }

    private static Path outputDirectory(ProcessingEnvironment environment) {
        try {
            FileObject probe = environment.getFiler().getResource(StandardLocation.CLASS_OUTPUT, "", DIRECTORY + "probe");
            URI uri = probe.toUri();
            return "file".equals(uri.getScheme()) ? Path.of(uri).getParent() : null;
        } catch (IOException | IllegalArgumentException | UnsupportedOperationException | IllegalStateException e) {
            return null; // no class output directory: nothing is left behind to go stale
        }
    }

    @Override
    public void compiled(CompilationUnitTree unit) {
        String prefix = unit.getPackageName() == null ? "" : unit.getPackageName() + ".";
        for (Tree declaration : unit.getTypeDecls()) {
            if (declaration instanceof ClassTree type) {
                compiledTopLevel.add(prefix + type.getSimpleName());
            }
        }
    }

    /** The checks of the top-level class {@code type} begin: what they read is recorded as read by it. */
    void checking(TypeElement type) {
        if (output == null) {
            return;
        }
        user = binaryName(type);
        readIncludedBy(type);
        // Also a unit javac compiled without calling the processor's process() (a round with none of the
        // API's annotations): then no provider is compiled now either, so no check above needed it.
        compiledTopLevel.add(user);
    }

    /**
     * As a provider compiled now, {@code type} and its member types must not have users in the output
     * directory that this compilation leaves checked against their earlier versions (SJ009, reported at
     * the class's declaration, where its tree still is). Called once the facts other classes read from
     * {@code type}'s declarations are recorded ({@link DeclarationFacts}, {@link LentSessions}), before
     * javac lowers it: the fingerprint is then the one a later compilation computes from the class file.
     */
    void checkUsers(TypeElement type, Reporter reporter) {
        if (output != null) {
            checkUsersOf(type, reporter);
        }
    }

    /** Records the field facts of {@code type} and its member types for the class path ({@link FieldFacts#record}). */
    void recordFieldFacts(TypeElement type, Set<Element> withFields) {
        if (output != null && fields != null) {
            fields.record(type, withFields);
        }
    }

    /** The checks of the current top-level class are over. */
    void checked() {
        user = null;
    }

    private void checkUsersOf(TypeElement type, Reporter reporter) {
        String provider = binaryName(type);
        if (Files.exists(indexFile(provider))) {
            String fingerprint = fingerprint(type);
            compiledFingerprints.put(provider, fingerprint);
            for (Map.Entry<String, String> entry : readIndex(provider).entrySet()) {
                String user = entry.getKey();
                if (!compiledTopLevel.contains(user) && !sameFacts(entry.getValue(), fingerprint)
                        && Files.exists(classFile(user)) && removeClassFiles(user)) {
                    Tree at = trees.getTree(type);
                    reporter.error(at, Diagnostic.STALE_CHECK, user, type.getQualifiedName());
                }
            }
        }
        for (Element member : type.getEnclosedElements()) {
            if (member instanceof TypeElement nested) {
                checkUsersOf(nested, reporter);
            }
        }
    }

    @Override
    public void protocol(TypeElement protocol) {
        read(protocol);
        if (user != null) {
            for (TypeElement inner : included(protocol)) {
                read(inner);
            }
        }
    }

    /**
     * The protocols that {@code type} and its member types declare read the protocols they include: a
     * protocol's descriptor holds its expansion, so it is stale once an included protocol changes (adv12 A7).
     */
    private void readIncludedBy(TypeElement type) {
        if (ProtocolRegistry.isProtocol(type)) {
            for (TypeElement inner : included(type)) {
                read(inner);
            }
        }
        for (Element member : type.getEnclosedElements()) {
            if (member instanceof TypeElement nested) {
                readIncludedBy(nested);
            }
        }
    }

    /**
     * The protocols {@code protocol} includes, directly or through others: a class checked against its
     * expansion read them all, so a change to any of them must re-check it (adv12 A7).
     */
    private Set<TypeElement> included(TypeElement protocol) {
        String name = binaryName(protocol);
        Set<TypeElement> known = included.get(name);
        if (known != null) {
            return known;
        }
        Set<TypeElement> found = new java.util.LinkedHashSet<>();
        included.put(name, found); // before the walk: a protocol that includes itself ends it
        java.util.ArrayDeque<TypeElement> pending = new java.util.ArrayDeque<>();
        pending.push(protocol);
        Set<String> seen = new HashSet<>();
        seen.add(name);
        while (!pending.isEmpty()) {
            Set<String> names = new TreeSet<>();
            ProtocolDefinition definition = registry.peekDefinition(pending.pop());
            if (definition instanceof ProtocolDefinition.Valid valid) {
                ProtocolRegistry.referencedProtocols(valid.resolved(), names);
            } else if (definition instanceof ProtocolDefinition.SetProtocol set) {
                for (SessionType member : set.resolved()) {
                    ProtocolRegistry.referencedProtocols(member, names);
                }
            }
            for (String inner : names) {
                TypeElement element = seen.add(inner) ? registry.typeForBinaryName(inner).orElse(null) : null;
                if (element != null) {
                    found.add(element);
                    pending.push(element);
                }
            }
        }
        return found;
    }

    /** The class being checked reads the {@code @Session} type of {@code parameter}. */
    void parameter(VariableElement parameter) {
        if (user != null && parameter.getEnclosingElement().getEnclosingElement() instanceof TypeElement owner) {
            read(owner);
        }
    }

    /**
     * The class being checked reads a fact of {@code member} (a method, constructor, parameter or field)
     * that its class's fingerprint holds: whether a method ends a socket parameter, {@code @NoAlias} on a
     * parameter or result, the endpoint a {@code final} field holds.
     */
    void member(Element member) {
        if (user == null) {
            return;
        }
        Element owner = member;
        while (owner != null && !(owner instanceof TypeElement)) {
            owner = owner.getEnclosingElement();
        }
        if (owner != null) {
            read((TypeElement) owner);
        }
    }

    /**
     * Whether {@code method}, compiled now from source, ends a socket parameter depends on {@code callee}
     * (it lends the socket on): the class of {@code method} reads {@code callee}'s class, whichever class
     * asked about {@code method} first. Otherwise a change to the callee alone would leave the recorded
     * endings of {@code method}'s class ({@link EndingsResource}) stale, and its callers with them.
     */
    void lends(ExecutableElement method, ExecutableElement callee) {
        if (output == null || !(callee.getEnclosingElement() instanceof TypeElement provider)) {
            return;
        }
        Element top = method;
        while (top.getEnclosingElement() != null && top.getEnclosingElement().getKind() != ElementKind.PACKAGE) {
            top = top.getEnclosingElement();
        }
        if (top instanceof TypeElement reader) {
            read(provider, binaryName(reader));
        }
    }

    private void read(TypeElement provider) {
        if (user != null) {
            read(provider, user);
        }
    }

    private void read(TypeElement provider, String reader) {
        String name = binaryName(provider);
        if (name.startsWith(reader) && (name.length() == reader.length() || name.charAt(reader.length()) == '$')) {
            return; // a class's own declarations are compiled with it
        }
        providers.putIfAbsent(name, provider);
        Set<String> users = usersByProvider.get(name);
        if (users == null) { // not computeIfAbsent: no lambda linked per compilation (NoPatternSwitchTest)
            users = new HashSet<>();
            usersByProvider.put(name, users);
        }
        users.add(reader);
    }

    /** The class output's {@code META-INF/sessionj} directory; null when the output is not a directory. */
    Path sessionjDirectory() {
        return output == null ? null : output.getParent();
    }

    /**
     * The compilation is over: reports classes checked against an earlier version of a provider
     * compiled now (SJ009), and writes the index of every provider read or compiled.
     */
    void compilationFinished() {
        if (output == null) {
            return;
        }
        Set<String> indexed = new TreeSet<>(providers.keySet());
        indexed.addAll(indexFiles());
        for (String provider : indexed) {
            update(provider, providers.get(provider));
        }
    }

    /** The providers that have an index in the output directory. */
    private Set<String> indexFiles() {
        Set<String> names = new TreeSet<>();
        if (!Files.isDirectory(output)) {
            return names;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(output, "*" + SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                names.add(name.substring(0, name.length() - SUFFIX.length()));
            }
        } catch (IOException e) {
            warn("cannot list " + output + ": " + e.getMessage());
        }
        return names;
    }

    /**
     * Brings the index of {@code provider} up to date: classes compiled now leave it (and re-enter it with
     * the provider's current fingerprint if they read it, {@code type} then not null), and so do classes
     * whose files are gone (removed as stale, or deleted). The rest keep their fingerprints.
     */
    private void update(String provider, TypeElement type) {
        Map<String, String> before = readIndex(provider);
        Map<String, String> after = new TreeMap<>();
        for (Map.Entry<String, String> entry : before.entrySet()) {
            String user = entry.getKey();
            if (!compiledTopLevel.contains(user) && Files.exists(classFile(user))) {
                after.put(user, entry.getValue());
            }
        }
        Set<String> users = usersByProvider.get(provider);
        if (users != null) {
            String fingerprint = compiledFingerprints.get(provider);
            if (fingerprint == null) {
                fingerprint = fingerprint(type);
            }
            if (indexed(provider, fingerprint)) {
                for (String user : users) {
                    after.put(user, fingerprint);
                }
            }
        }
        if (!after.equals(before)) {
            writeIndex(provider, after);
        }
    }

    /**
     * Whether the users of {@code provider} are worth an index (adv14 A6): a class whose fingerprint holds
     * facts, or one of this output directory, whose facts a later build of the directory may add (its
     * users must then be checked again, SJ009). Not a class of another module or jar without facts: the
     * JDK's ({@code java.lang.System}), sj-api's, a library's plain class. Nobody rebuilds those against
     * the user, and their index would only travel in every jar and clash when two are shaded together.
     */
    private boolean indexed(String provider, String fingerprint) {
        if (provider.startsWith("org.sessionj.api.")) {
            return false; // the API's contracts are the checker's own, not facts it reads
        }
        return !fingerprint.startsWith(NO_FACTS) || Files.exists(classFile(provider));
    }

    /**
     * Whether two index values hold the same facts: their hashes. The field facts after them
     * ({@link #FIELD_KEY}, for the runtime's check) are in the hash, and an index written by a processor
     * that did not record them still matches.
     */
    private static boolean sameFacts(String recorded, String fingerprint) {
        return withoutFields(recorded).equals(withoutFields(fingerprint));
    }

    private static String withoutFields(String value) {
        int fields = value.indexOf(" " + FIELD_KEY);
        return fields < 0 ? value : value.substring(0, fields);
    }

    /**
     * A field's fact in an index value: {@code field.<name>=<fact>}, the fact with {@code %}, space, tab
     * and line ends percent-encoded so that the value stays one line of space-separated words.
     */
    private static void appendFieldFacts(String facts, StringBuilder value) {
        for (String line : facts.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                value.append(' ').append(FIELD_KEY).append(line, 0, tab).append('=');
                for (int i = tab + 1; i < line.length(); i++) {
                    char c = line.charAt(i);
                    if (c == '%' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                        value.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                    } else {
                        value.append(c);
                    }
                }
            }
        }
    }

    /**
     * A fingerprint of every fact other classes' checks read from {@code type}: its protocol; per method
     * and constructor, the {@code @Session} types of its parameters, fully expanded (so that a change to a
     * protocol they name changes it too), which socket parameters it ends and whether it hands them over
     * ({@link LentSessions}: SJ024, SJ025, SJ055, and SJ037/SJ056 for overrides), and {@code @NoAlias} on its
     * parameters and result; the endpoint or selector members of each {@code final} service,
     * server-socket or typed-selector field ({@link FieldFacts}). The same from source and from a class
     * file: endings and field facts of a class known from its class file are the ones its compilation
     * recorded ({@link EndingsResource}, {@link FieldFacts}).
     */
    private String fingerprint(TypeElement type) {
        StringBuilder text = new StringBuilder();
        String descriptor = null;
        if (ProtocolRegistry.isProtocol(type)) {
            ProtocolDefinition definition = registry.definition(type);
            if (definition instanceof ProtocolDefinition.Valid valid) {
                descriptor = TypeModel.print(valid.expanded());
            } else if (definition instanceof ProtocolDefinition.SetProtocol set) {
                descriptor = ProtocolRegistry.descriptorText(set);
            }
            text.append(descriptor == null ? "invalid" : descriptor);
        }
        String previous = user;
        user = binaryName(type); // what the fingerprint reads is the type's own
        try {
            for (Element member : type.getEnclosedElements()) {
                if (member instanceof ExecutableElement method) {
                    methodFacts(method, text);
                }
            }
        } finally {
            user = previous;
        }
        String fieldFacts = fields == null ? "" : fields.of(type);
        text.append(fieldFacts);
        // A protocol's users also record the hash of the descriptor they were checked against, which the
        // runtime compares with the descriptor it loads: a user module the build did not recompile after
        // the protocol's module changed fails at the protocol's load, naming the user (adv12 A10). Likewise
        // the facts of the final endpoint fields they read, which the runtime compares with the facts the
        // field's class recorded (META-INF/sessionj/fields/): a library rebuilt with a field of another
        // protocol fails at that protocol's load, naming the field (adv14 A7).
        StringBuilder value = new StringBuilder(hash(text.toString()));
        if (descriptor != null) {
            value.append(' ').append(DESCRIPTOR_KEY).append(hash(descriptor.strip()));
        }
        appendFieldFacts(fieldFacts, value);
        return value.toString();
    }

    private void methodFacts(ExecutableElement method, StringBuilder text) {
        String key = null;
        if (NoAliasRules.isNoAlias(method)) {
            key = EndingsResource.key(environment, method);
            text.append('\n').append(key).append(" @NoAlias");
        }
        int index = 0;
        for (VariableElement parameter : method.getParameters()) {
            SessionParameters.SessionParameter session = parameters.of(parameter, null, null);
            String facts = "";
            if (session.annotated()) {
                SessionType declared = session.declared();
                facts = " " + (declared == null ? "invalid" : TypeModel.print(declared));
            }
            if (lent != null && api.isSocket(parameter.asType()) && lent.ending(method, parameter) != null) {
                facts += lent.handsOver(method, parameter) ? " hands over" : " ends";
            }
            if (NoAliasRules.isNoAlias(parameter)) {
                facts += " @NoAlias";
            }
            if (!facts.isEmpty()) {
                key = key != null ? key : EndingsResource.key(environment, method);
                text.append('\n').append(key).append('#').append(index).append(facts);
            }
            index++;
        }
    }

    /**
     * The text's length and 64-bit FNV-1a hash: enough to tell versions of one declaration apart, and
     * cheap (no {@code MessageDigest}, whose providers a fresh compiler would load for every build).
     */
    private static String hash(String text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        return text.length() + "-" + Long.toHexString(hash);
    }

    private Map<String, String> readIndex(String provider) {
        Map<String, String> entries = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(indexFile(provider), StandardCharsets.UTF_8)) {
                int space = line.indexOf(' ');
                if (!line.startsWith("#") && space > 0) {
                    entries.put(line.substring(0, space), line.substring(space + 1).trim());
                }
            }
        } catch (NoSuchFileException e) {
            return entries;
        } catch (IOException e) {
            warn("cannot read " + indexFile(provider) + ": " + e.getMessage());
        }
        return entries;
    }

    private void writeIndex(String provider, Map<String, String> entries) {
        Path file = indexFile(provider);
        try {
            if (entries.isEmpty()) {
                Files.deleteIfExists(file);
                return;
            }
            StringBuilder text = new StringBuilder(HEADER).append('\n');
            for (Map.Entry<String, String> entry : entries.entrySet()) {
                text.append(entry.getKey()).append(' ').append(entry.getValue()).append('\n');
            }
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            warn("cannot write " + file + ": " + e.getMessage() + "; a build that recompiles only changed files"
                    + " may then leave classes checked against an earlier version of " + provider);
        }
    }

    /** Removes the class files of the top-level class {@code user} and of the classes nested in it; false if it cannot. */
    private boolean removeClassFiles(String user) {
        Path file = classFile(user);
        String simple = file.getFileName().toString();
        String prefix = simple.substring(0, simple.length() - ".class".length()) + "$";
        try {
            Files.deleteIfExists(file);
            if (Files.isDirectory(file.getParent())) {
                try (DirectoryStream<Path> nested = Files.newDirectoryStream(file.getParent(), prefix + "*.class")) {
                    for (Path path : nested) {
                        Files.deleteIfExists(path);
                    }
                }
            }
            return true;
        } catch (IOException e) {
            warn("cannot remove the stale class files of " + user + ": " + e.getMessage() + "; recompile the module");
            return true; // reported all the same: it is stale
        }
    }

    private void warn(String message) {
        environment.getMessager().printMessage(Kind.WARNING, "sj-processor: " + message);
    }

    private Path indexFile(String provider) {
        return output.resolve(provider + SUFFIX);
    }

    /** The class file of a binary name, in the output directory the index sits in. */
    private Path classFile(String binaryName) {
        Path root = output.getParent().getParent().getParent(); // META-INF/sessionj/users/
        return root.resolve(binaryName.replace('.', '/') + ".class");
    }

    /** Binary names by element: asked for every read of a member (elements belong to one compilation, as does this). */
    private final Map<TypeElement, String> names = new HashMap<>();

    private String binaryName(TypeElement type) {
        String name = names.get(type);
        if (name == null) {
            name = elements.getBinaryName(type).toString();
            names.put(type, name);
        }
        return name;
    }
}
