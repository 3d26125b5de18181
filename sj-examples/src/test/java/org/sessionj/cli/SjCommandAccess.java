package org.sessionj.cli;

import picocli.CommandLine;

/** The {@code ./sj} command tree, for tests outside this package (DocsLinkTest). */
public final class SjCommandAccess {
    private SjCommandAccess() {
    }

    /** A fresh command line, as {@code ./sj} builds it. */
    public static CommandLine commandLine() {
        return SjCommand.commandLine();
    }
}
