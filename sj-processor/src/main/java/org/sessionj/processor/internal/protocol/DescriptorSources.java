package org.sessionj.processor.internal.protocol;

import java.util.Map;
import javax.annotation.processing.Messager;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic.Kind;
import org.sessionj.processor.check.Diagnostic;
import org.sessionj.processor.internal.facts.CompiledFacts;

/**
 * Which {@code @Protocol} texts a protocol's descriptor was made from, so that a descriptor older than its
 * class is noticed (adv17 A15). The descriptor of a protocol {@code P} holds {@code P}'s type with every
 * protocol it includes inlined; the processor writes, beside it, {@value #DIRECTORY}{@code <binary
 * name>.txt}: one line {@code <binary name> <hash>} for {@code P} and for every protocol its expansion
 * read, with the hash of that protocol's {@code @Protocol} text. A build that compiles {@code P} again
 * without the processor (Eclipse's compiler or an IDE's incremental build with annotation processing
 * off, {@code javac -proc:none}) leaves the old descriptor beside the new class. A later compilation
 * that reads {@code P} from the class path compares each line with the annotation the class holds now.
 * Invariant: <em>a protocol from the class path is checked against the annotation its class holds, never
 * against a descriptor written for another text</em>: on a mismatch the check reads the annotation (as
 * from source) and the build fails with SJ009, since the runtime would load the stale descriptor.
 *
 * <p>Not seen: a descriptor written by a processor older than this record (no record: it is trusted, as
 * before), and a protocol whose class file is as stale as its descriptor (both written before the edit:
 * then the build tool has not compiled the edit at all, and javac reads the old text from either).
 */
final class DescriptorSources {
    /** Where the records are, relative to a class-path entry (a shared contract with nothing else). */
    static final String DIRECTORY = "META-INF/sessionj/sources/";

    private final CompiledFacts compiledFacts;
    private final Messager messager;

    /** Records read with {@code compiledFacts}; a mismatch reported with {@code messager} (null: not reported). */
    DescriptorSources(CompiledFacts compiledFacts, Messager messager) {
        this.compiledFacts = compiledFacts;
        this.messager = messager;
    }

    /** The record of a descriptor made from {@code texts} ({@code @Protocol} texts by binary name, the protocol's first). */
    static String record(Map<String, String> texts) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> text : texts.entrySet()) {
            out.append(text.getKey()).append(' ').append(hash(text.getValue())).append('\n');
        }
        return out.toString();
    }

    /**
     * Whether the descriptor of {@code type} (from the class path) was made from the {@code @Protocol}
     * texts the classes javac sees hold now; true when there is no record. A mismatch is reported (SJ009)
     * at {@code type}.
     */
    boolean current(TypeElement type, String binaryName, ProtocolRegistry registry) {
        String record = compiledFacts.read(type, DIRECTORY + binaryName + ".txt");
        if (record == null) {
            return true;
        }
        for (String line : record.split("\n")) {
            int space = line.indexOf(' ');
            if (space <= 0) {
                continue;
            }
            String name = line.substring(0, space);
            TypeElement protocol = registry.typeForBinaryName(name).orElse(null);
            String text = protocol == null ? null : ProtocolRegistry.protocolText(protocol);
            if (!line.substring(space + 1).strip().equals(hash(text))) {
                report(type, name, protocol, text);
                return false;
            }
        }
        return true;
    }

    private void report(TypeElement type, String changed, TypeElement protocol, String text) {
        if (messager == null) {
            return;
        }
        String name = protocol == null ? changed : protocol.getQualifiedName().toString();
        String now = protocol == null ? name + " is not on the class path now"
                : text == null ? name + " has no @Protocol annotation now"
                : name + " declares @Protocol(\"" + text + "\") now";
        messager.printMessage(Kind.ERROR, "[" + Diagnostic.STALE_CHECK.code() + "] the protocol descriptor of "
                + type.getQualifiedName() + " (on " + compiledFacts.where(type) + ") was made from an earlier @Protocol"
                + " text of " + name + ", but " + now + ": its class was compiled again without sj-processor (an IDE's"
                + " or Eclipse's incremental compiler with annotation processing off, or javac -proc:none), and the"
                + " runtime would load the stale descriptor. This compilation checks against the annotation; recompile "
                + type.getQualifiedName() + " with the processor (e.g. mvn clean compile, or turn on annotation"
                + " processing in the IDE)", type);
    }

    /** The hash of a {@code @Protocol} text (the text's length and 64-bit FNV-1a hash); "none" for null. */
    static String hash(String text) {
        if (text == null) {
            return "none";
        }
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        return text.length() + "-" + Long.toHexString(hash);
    }
}
