package org.sessionj.processor;

import com.google.auto.service.AutoService;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic.Kind;
import javax.tools.StandardLocation;
import org.sessionj.processor.check.Diagnostic;
import org.sessionj.processor.check.ProtocolDeclarations;
import org.sessionj.processor.check.SessionChecker;
import org.sessionj.processor.internal.facts.OutputResources;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.DescriptorClass;
import org.sessionj.processor.internal.protocol.ProtocolDefinition;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;

/**
 * The sj-processor entry point. During annotation processing it validates every {@code @Protocol}
 * interface and writes its resolved descriptor ({@code META-INF/sessionj/protocols/<binary name>.sj},
 * and the same text as a class the runtime loads instead, {@link DescriptorClass});
 * after attribution it checks method bodies against their sessions' types ({@link SessionChecker}).
 * Needs no javac flags: put it on the annotation processor path.
 */
@AutoService(Processor.class)
public final class SessionProcessor extends AbstractProcessor implements ProtocolDeclarations {
    private ProtocolRegistry registry;
    private Trees trees;
    private SessionChecker checker;
    /** Whether a round had classes of this compilation (a run with sources, not only class files to process). */
    private boolean sawClasses;
    private final Set<String> written = new HashSet<>();
    /** Where the descriptors are written (set in {@link #init} under javac). */
    private OutputResources outputs;
    /**
     * Whether a type of the sources compiled so far (any round's files, at any depth, and the classes
     * compiled from the source path) has a name ending in {@link DescriptorClass#SUFFIX}: only such a
     * type can be named like a protocol's descriptor (SJ006), so without one the check skips javac's
     * lookup by name, which for a name javac does not know parses and attributes it (a fifth of the
     * processor's time on the compile-time benchmark, where no such type exists).
     */
    private boolean sourcesNameDescriptors;
    /** The warning under a compiler that is not javac, where nothing is checked. */
    static final String NOT_JAVAC = "sj-processor: this compiler is not javac, so nothing is checked here: no"
            + " protocol is validated, no session code is checked and no protocol descriptor is written (the runtime"
            + " then warns that the code was not checked). Build with javac (Maven's and Gradle's default) to get"
            + " the checks.";

    @Override
    public synchronized void init(ProcessingEnvironment environment) {
        super.init(environment);
        JavacTask task;
        try {
            trees = Trees.instance(environment);
            task = JavacTask.instance(environment);
        } catch (IllegalArgumentException notJavac) {
            // Another compiler (Eclipse's ECJ in an IDE, say): the checks read javac's trees, which it has not.
            // Said once, as a warning, so that the IDE's build goes on and nobody takes silence for a pass.
            environment.getMessager().printMessage(javax.tools.Diagnostic.Kind.WARNING, NOT_JAVAC);
            return;
        }
        if (multiModuleMode(environment)) {
            environment.getMessager().printMessage(javax.tools.Diagnostic.Kind.ERROR, MULTI_MODULE);
            return; // nothing checked, and the error says so: no build passes unchecked (adv15 A7)
        }
        registry = new ProtocolRegistry(environment.getElementUtils(), environment.getTypeUtils(), trees,
                environment.getFiler(), environment.getMessager());
        outputs = new OutputResources(environment.getFiler());
        checker = new SessionChecker(environment, trees, registry, this);
        task.addTaskListener(checker);
    }

    /** The error under javac's multi-module mode, where the processor's resources have no single output. */
    static final String MULTI_MODULE = "sj-processor: javac's multi-module mode (--module-source-path) is not"
            + " supported: the processor writes each class's protocol descriptors and facts to the class output"
            + " beside it, which this mode splits by module. Compile each module in a javac run of its own (as Maven"
            + " and Gradle do), with the modules it requires on --module-path.";

    /**
     * Whether javac compiles in multi-module mode ({@code --module-source-path}): its Filer then refuses a
     * resource of the class output that names no module, as every resource of the processor does.
     */
    private static boolean multiModuleMode(ProcessingEnvironment environment) {
        try {
            environment.getFiler().getResource(javax.tools.StandardLocation.CLASS_OUTPUT, "", "META-INF/sessionj/probe");
            return false;
        } catch (javax.annotation.processing.FilerException e) {
            return e.getMessage() != null && e.getMessage().contains("No module specified");
        } catch (java.io.IOException | RuntimeException e) {
            return false; // no class output at all (in-memory tests): the writes say what they cannot do
        }
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    /**
     * The annotations of {@code org.sessionj.api}. Returned here rather than declared with
     * {@code @SupportedAnnotationTypes}: {@link AbstractProcessor} reads that annotation (and looks for
     * {@code @SupportedOptions}) by reflection, which in every fresh javac parses the annotation and
     * spins a proxy class for it with the class-file API (issue 12, compile time; {@code ProcessorShellTest}).
     */
    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return Set.of("org.sessionj.api.*");
    }

    /** None: sj-processor reads no {@code -A} option (see {@link #getSupportedAnnotationTypes} for why it says so here). */
    @Override
    public Set<String> getSupportedOptions() {
        return Set.of();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        if (registry == null) {
            return false; // not javac (see init)
        }
        TypeElement protocol = processingEnv.getElementUtils().getTypeElement("org.sessionj.api.Protocol");
        if (protocol == null) {
            return false;
        }
        if (round.processingOver()) {
            checker.processingOver(sawClasses, round.errorRaised());
        }
        sawClasses |= !round.getRootElements().isEmpty();
        if (!round.processingOver()) {
            // The last round enters no new type: it comes only once a round generated no file. What the
            // names resolved to stays true for the checks after it, which then need not ask javac again
            // (issue 12, compile time). Another processor may still generate a source in the last round
            // (javac warns, and compiles it): the checker forgets the names then (SessionChecker#finished).
            registry.newRound();
        }
        for (Element root : round.getRootElements()) {
            TreePath path = trees.getPath(root);
            if (path != null) {
                registry.noteCompiled(path.getCompilationUnit());
            }
            noteDescriptorNames(root);
        }
        for (Element root : round.getRootElements()) {
            validateTypes(root);
        }
        return true;
    }

    /**
     * Validates {@code element} and its member types, at any depth, if annotated {@code @Protocol}: the
     * elements {@code getElementsAnnotatedWith} would give, since {@code @Protocol} targets types only
     * and is not inherited (javac itself rejects it anywhere else), without javac's scan of every
     * method, field and parameter of every root element of the round.
     */
    @Override
    public void validateTypes(TypeElement type) {
        noteDescriptorNames(type); // a class compiled from the source path, which no round listed
        validateTypes((Element) type);
    }

    /** Notes whether {@code element}, or a member type of it at any depth, is named like a descriptor class. */
    private void noteDescriptorNames(Element element) {
        if (sourcesNameDescriptors || !(element instanceof TypeElement type)) {
            return;
        }
        if (type.getSimpleName().toString().endsWith(DescriptorClass.SUFFIX)) {
            sourcesNameDescriptors = true;
            return;
        }
        for (Element member : type.getEnclosedElements()) {
            noteDescriptorNames(member);
        }
    }

    private void validateTypes(Element element) {
        if (!(element instanceof TypeElement type)) {
            return;
        }
        if (ProtocolRegistry.isProtocol(type)) {
            validate(type);
        }
        for (Element member : type.getEnclosedElements()) {
            validateTypes(member);
        }
    }

    private void validate(Element element) {
        AnnotationMirror annotation = ProtocolRegistry.protocolAnnotation(element).orElseThrow();
        AnnotationValue value = ProtocolRegistry.annotationValue(annotation, "value").orElse(null);
        if (element.getKind() != ElementKind.INTERFACE) {
            error(Diagnostic.PROTOCOL_NOT_INTERFACE.format(element.getSimpleName(),
                    element.getKind().toString().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')),
                    element, annotation, value);
            return;
        }
        TypeElement type = (TypeElement) element;
        // instanceof, not a pattern switch: javac loads the processor afresh per compilation, and each
        // switch's bootstrap would be linked cold every time (NoPatternSwitchTest)
        ProtocolDefinition definition = registry.definition(type);
        if (definition instanceof ProtocolDefinition.Invalid invalid) {
            for (String problem : invalid.problems()) {
                error(problem, element, annotation, value);
            }
        } else if (descriptorClash(type) instanceof TypeElement clash) {
            // SJ006's invariant: every protocol has a descriptor the runtime finds by its binary name.
            error("[" + Diagnostic.PROTOCOL_NOT_INTERFACE.code() + "] the protocol descriptor class of '"
                    + element.getSimpleName() + "' would be " + DescriptorClass.name(
                            processingEnv.getElementUtils().getBinaryName(type).toString())
                    + ", but the program declares a class of that name (" + clash.getQualifiedName() + "): the runtime"
                    + " would load it as the protocol's descriptor and fail; rename it (names ending in "
                    + DescriptorClass.SUFFIX + " belong to sj-processor)",
                    element, annotation, value);
        } else if (definition instanceof ProtocolDefinition.Valid valid) {
            writeDescriptor(valid.binaryName(), TypeModel.print(valid.expanded()), type);
        } else if (definition instanceof ProtocolDefinition.SetProtocol set) {
            writeDescriptor(set.binaryName(), ProtocolRegistry.descriptorText(set), type);
        }
    }

    /**
     * A class of the program compiled now whose binary name is the descriptor class name of protocol
     * {@code type} ({@code P$$SJProtocol}: a top-level class of that name beside {@code P}, or a member
     * class {@code P$$SJProtocol} beside a member protocol {@code P}), or null. Such a class would replace
     * the descriptor in the class output (adv12 A11). A descriptor an earlier build wrote is not one: it
     * has no source.
     */
    private TypeElement descriptorClash(TypeElement type) {
        javax.lang.model.util.Elements elements = processingEnv.getElementUtils();
        String descriptor = DescriptorClass.name(elements.getBinaryName(type).toString());
        String packageName = elements.getPackageOf(type).getQualifiedName().toString();
        String topLevel = descriptor.substring(packageName.isEmpty() ? 0 : packageName.length() + 1);
        if (!sourcesNameDescriptors && elements.getModuleOf(type).isUnnamed()
                && !mayBeOnSourcePath(packageName, topLevel)) {
            // No compiled source declares such a name and no file of it waits on the source path, so javac
            // cannot know a class of that name from source. (In a named module, javac may also compile from
            // a module source path, which this does not look at: ask javac there.)
            return null;
        }
        TypeElement found = elements.getTypeElement((packageName.isEmpty() ? "" : packageName + ".") + topLevel);
        if ((found == null || trees.getPath(found) == null) && type.getEnclosingElement() instanceof TypeElement outer) {
            for (Element member : outer.getEnclosedElements()) {
                if (member instanceof TypeElement sibling
                        && sibling.getSimpleName().contentEquals(type.getSimpleName() + DescriptorClass.SUFFIX)) {
                    found = sibling;
                }
            }
        }
        return found != null && !found.equals(type) && trees.getPath(found) != null ? found : null;
    }

    /**
     * Whether javac could compile a class {@code packageName.topLevel} from a file {@code topLevel.java}
     * of the source path (or of the class path, where javac looks for sources without {@code -sourcepath})
     * when asked for it by name. Any doubt (a location this compilation lacks, modules) says yes, and the
     * caller then asks javac.
     */
    private boolean mayBeOnSourcePath(String packageName, String topLevel) {
        for (StandardLocation location : new StandardLocation[] {StandardLocation.SOURCE_PATH,
                StandardLocation.CLASS_PATH}) {
            try {
                processingEnv.getFiler().getResource(location, packageName, topLevel + ".java");
                return true;
            } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException absent) {
                // not in this location
            } catch (IOException | RuntimeException doubt) {
                return true;
            }
        }
        return false;
    }

    private void writeDescriptor(String binaryName, String text, TypeElement type) {
        if (!written.add(binaryName)) {
            return;
        }
        String path = ProtocolRegistry.DESCRIPTOR_DIRECTORY + binaryName + ".sj";
        // After the descriptor, as comment lines, which @Protocol texts it was made from: a later compilation
        // that finds the class compiled again without the processor (an IDE's incremental build) notices the
        // stale descriptor (SJ009). In the descriptor rather than a resource of its own: one Filer resource
        // fewer per protocol (issue 12).
        writeResource(path, registry.descriptorResource(text, type), type, "the protocol descriptor ");
        // The same text as a class, which the runtime loads instead of reading the resource (cold start).
        // Written as a resource of the class output, not with createClassFile or as a source: a generated
        // type costs javac another processing round, in which it enters every compilation unit again
        // (a source is also compiled there), and an incremental build, whose class output is on the class
        // path, would warn under -Xlint:processing that the type already exists (DescriptorClassTest).
        String className = DescriptorClass.name(binaryName);
        byte[] classFile;
        try {
            classFile = DescriptorClass.classFile(binaryName, text);
        } catch (IllegalArgumentException tooLong) {
            processingEnv.getMessager().printMessage(Kind.NOTE, "no protocol descriptor class " + className
                    + " (the runtime reads the resource " + path + "): " + tooLong.getMessage(), type);
            return;
        }
        try {
            outputs.write(packageOf(binaryName), className.substring(className.lastIndexOf('.') + 1) + ".class",
                    classFile, type);
        } catch (IOException e) {
            processingEnv.getMessager().printMessage(Kind.ERROR,
                    "cannot write the protocol descriptor class " + className + ": " + e.getMessage(), type);
        }
    }

    private void writeResource(String path, String text, TypeElement type, String what) {
        try {
            outputs.write("", path, text.getBytes(StandardCharsets.UTF_8), type);
        } catch (IOException e) {
            processingEnv.getMessager().printMessage(Kind.ERROR, "cannot write " + what + path + ": " + e.getMessage(),
                    type);
        }
    }

    private static String packageOf(String binaryName) {
        int dot = binaryName.lastIndexOf('.');
        return dot < 0 ? "" : binaryName.substring(0, dot);
    }

    private void error(String message, Element element, AnnotationMirror annotation, AnnotationValue value) {
        if (value == null) {
            processingEnv.getMessager().printMessage(Kind.ERROR, message, element, annotation);
        } else {
            processingEnv.getMessager().printMessage(Kind.ERROR, message, element, annotation, value);
        }
    }
}
