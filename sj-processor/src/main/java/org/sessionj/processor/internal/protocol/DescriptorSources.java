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
 * protocol it includes inlined; the processor ends the descriptor resource with a record of it: one
 * line {@value #LINE}{@code <binary name> <hash>} for {@code P} and for every protocol its expansion
 * read, with the hash of that protocol's {@code @Protocol} text. The lines are SJ-notation comments, so
 * every reader of the descriptor skips them (sj-runtime cuts them off before it hashes the descriptor for
 * its stale-users check). An earlier processor wrote the same lines without the
 * prefix to a resource of their own, {@value #DIRECTORY}{@code <binary name>.txt}, which is read when the
 * descriptor has no record (one resource fewer per protocol: the Filer's cost per resource was a measured
 * share of the compilation, issue 12). A build that compiles {@code P} again without the processor
 * (Eclipse's compiler or an IDE's incremental build with annotation processing off, {@code javac
 * -proc:none}) leaves the old descriptor beside the new class. A later compilation that reads {@code P}
 * from the class path compares each line with the annotation the class holds now.
 * Invariant: <em>a protocol from the class path is checked against the annotation its class holds, never
 * against a descriptor written for another text</em>: on a mismatch the check reads the annotation (as
 * from source) and the build fails with SJ009, since the runtime would load the stale descriptor.
 *
 * <p>Not seen: a descriptor written by a processor older than either record (no record: it is trusted, as
 * before), and a protocol whose class file is as stale as its descriptor (both written before the edit:
 * then the build tool has not compiled the edit at all, and javac reads the old text from either).
 */
final class DescriptorSources {
    /**
     * Where an earlier processor wrote the record, relative to a class-path entry (read for its
     * descriptors, never written).
     */
    static final String DIRECTORY = "META-INF/sessionj/sources/";

    /**
     * Begins each line of the record at the end of a descriptor resource; sj-runtime cuts the descriptor
     * there too (its ProtocolRegistry.RECORD_LINE).
     */
    static final String LINE = "// source ";

    private final CompiledFacts compiledFacts;
    private final Messager messager;

    /** Records read with {@code compiledFacts}; a mismatch reported with {@code messager} (null: not reported). */
    DescriptorSources(CompiledFacts compiledFacts, Messager messager) {
        this.compiledFacts = compiledFacts;
        this.messager = messager;
    }

    /**
     * The descriptor resource's text: {@code descriptor}, then the record of its making from {@code texts}
     * ({@code @Protocol} texts by binary name, the protocol's first).
     */
    static String withRecord(String descriptor, Map<String, String> texts) {
        StringBuilder out = new StringBuilder(descriptor.length() + 64 * texts.size()).append(descriptor).append('\n');
        for (Map.Entry<String, String> text : texts.entrySet()) {
            out.append(LINE).append(text.getKey()).append(' ').append(hash(text.getValue())).append('\n');
        }
        return out.toString();
    }

    /** The descriptor in a descriptor resource's text {@code file} (what precedes its record), stripped. */
    static String descriptor(String file) {
        int record = recordStart(file);
        return (record < 0 ? file : file.substring(0, record)).strip();
    }

    /** Where the record in {@code file} starts (the start of its first line), or -1 when it has none. */
    private static int recordStart(String file) {
        if (file.startsWith(LINE)) {
            return 0;
        }
        int newline = file.indexOf("\n" + LINE);
        return newline < 0 ? -1 : newline + 1;
    }

    /**
     * Whether the descriptor of {@code type} (from the class path; {@code file}, its resource's text) was
     * made from the {@code @Protocol} texts the classes javac sees hold now; true when there is no record.
     * A mismatch is reported (SJ009) at {@code type}.
     */
    boolean current(TypeElement type, String binaryName, String file, ProtocolRegistry registry) {
        int start = recordStart(file);
        // No record in the descriptor: one written by an older processor has it in a resource of its own.
        String record = start >= 0 ? file.substring(start) : compiledFacts.read(type, DIRECTORY + binaryName + ".txt");
        if (record == null) {
            return true;
        }
        for (String line : record.split("\n")) {
            if (start >= 0) {
                if (!line.startsWith(LINE)) {
                    continue;
                }
                line = line.substring(LINE.length());
            }
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
