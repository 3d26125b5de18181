package org.sessionj.processor;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A throw-away project on disk for tests that run javac with the processor in several steps, as a build
 * that recompiles only changed files does: sources in {@code src/demo/<Name>.java}, output in
 * {@code classes}, each step compiling some files against the earlier output.
 */
final class StepwiseBuild {
    /** javac's exit status and everything it printed. */
    record Result(int status, String output) {
    }

    private final Path root;

    StepwiseBuild(Path root) {
        this.root = root;
    }

    /** Writes (or replaces) the source of class {@code demo.<name>}; returns its file. */
    Path write(String name, String text) throws IOException {
        Path file = source(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    /** The source file of class {@code demo.<name>}. */
    Path source(String name) {
        return root.resolve("src/demo/" + name + ".java");
    }

    /** The class file javac wrote for {@code demo.<name>}. */
    Path classFile(String name) {
        return classes().resolve("demo/" + name + ".class");
    }

    /** The output directory. */
    Path classes() {
        return root.resolve("classes");
    }

    /** javac with the processor, into {@code classes}, with the earlier output on the class path. */
    Result compile(String... names) throws IOException {
        return javac(List.of("-cp", classes() + File.pathSeparator + System.getProperty("java.class.path")), names);
    }

    /** javac without any processor ({@code -proc:none}), into {@code classes}, with the earlier output on the class path. */
    Result compileWithoutProcessor(String... names) throws IOException {
        return javac(List.of("-proc:none", "-cp", classes() + File.pathSeparator + System.getProperty("java.class.path")),
                names);
    }

    /**
     * javac with the processor (unless {@code options} hold {@code -proc:none}) and {@code options}, into
     * {@code classes}, of the sources of {@code names}.
     */
    Result javac(List<String> options, String... names) throws IOException {
        Files.createDirectories(classes());
        List<String> arguments = new ArrayList<>(options.contains("-proc:none") ? List.of("-d", classes().toString())
                : List.of("-proc:full", "-processor", SessionProcessor.class.getName(), "-d", classes().toString()));
        arguments.addAll(options);
        for (String name : names) {
            arguments.add(source(name).toString());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            int status = compiler.run(null, err, err, arguments.toArray(String[]::new));
            return new Result(status, output.toString(StandardCharsets.UTF_8));
        }
    }
}
