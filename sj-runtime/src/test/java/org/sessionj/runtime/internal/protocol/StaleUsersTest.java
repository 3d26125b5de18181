package org.sessionj.runtime.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.SJException;

/**
 * A protocol whose recorded users were checked against another descriptor is refused at its load (adv12
 * A10); the records are those sj-processor writes in each user's class output. The end-to-end case (a
 * Maven module left uncompiled after its protocol module changed) is KvMavenSampleTest's.
 */
class StaleUsersTest {
    @TempDir
    Path classes;

    private static final String DESCRIPTOR = "cbegin.!<int>";

    /** A class loader that sees a users record of this test's protocol (the test class itself) with {@code lines}. */
    private URLClassLoader recording(String lines) throws IOException {
        Path record = classes.resolve(StaleUsers.DIRECTORY + StaleUsersTest.class.getName() + ".txt");
        Files.createDirectories(record.getParent());
        Files.writeString(record, "# sj-processor: classes checked against this class's session declarations\n" + lines);
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader());
    }

    @Test
    void usersCheckedAgainstTheLoadedDescriptorPass() throws IOException {
        try (URLClassLoader loader = recording("com.example.Client 12-ab descriptor=" + StaleUsers.hash(DESCRIPTOR) + "\n")) {
            assertThatCode(() -> StaleUsers.check(StaleUsersTest.class, loader, DESCRIPTOR + "\n")).doesNotThrowAnyException();
        }
    }

    @Test
    void aUserCheckedAgainstAnotherDescriptorIsNamed() throws IOException {
        String earlier = "descriptor=" + StaleUsers.hash("cbegin.!<long>");
        try (URLClassLoader loader = recording("com.example.Client 12-ab " + earlier + "\n"
                + "com.example.Fresh 12-ab descriptor=" + StaleUsers.hash(DESCRIPTOR) + "\n"
                + "com.example.Other 12-ab " + earlier + "\n")) {
            assertThatThrownBy(() -> StaleUsers.check(StaleUsersTest.class, loader, DESCRIPTOR))
                    .isInstanceOf(SJException.class)
                    .hasMessageContaining("protocol " + StaleUsersTest.class.getName() + " is not the version that "
                            + "com.example.Client, com.example.Other were checked against at compile time")
                    .hasMessageContaining("recompile the module that contains them")
                    .hasMessageNotContaining("Fresh");
        }
    }

    @Test
    void recordsWithoutADescriptorHashAndBadLinesCheckNothing() throws IOException {
        try (URLClassLoader loader = recording("com.example.Old 12-ab\nnot a record at all\n\n")) {
            assertThatCode(() -> StaleUsers.check(StaleUsersTest.class, loader, DESCRIPTOR)).doesNotThrowAnyException();
        }
    }

    @Test
    void theHashIsTheProcessors() {
        // CheckedUsersIndex.hash in sj-processor: length, then FNV-1a 64 in hex (the empty text: the offset basis).
        assertThat(StaleUsers.hash("")).isEqualTo("0-cbf29ce484222325");
        assertThat(StaleUsers.hash("a")).isEqualTo("1-af63dc4c8601ec8c");
    }

    /** A protocol nested in a class that a field of it creates: {@code Lib.SVC = SJService.create(Proto.class, …)}. */
    interface Proto {
    }

    /** Writes {@code text} to {@code name} under the class output of the loader {@link #recording} makes. */
    private void file(String name, String text) throws IOException {
        Path file = classes.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    /**
     * adv14 A7: the enclosing class of a protocol records the current fact of its field; a reader recorded
     * with another fact is named with the field, the fact it was checked against and the current one.
     */
    @Test
    void aReaderOfAFieldOfTheEnclosingClassCheckedAgainstAnotherProtocolIsNamed() throws IOException {
        String owner = StaleUsersTest.class.getName();
        file(StaleUsers.FIELDS + owner + ".txt", "# sj-processor: fields\nSVC\tendpoint cbegin.!<long>\n");
        file(StaleUsers.DIRECTORY + owner + ".txt", "# header\ncom.example.Fresh 9-cd field.SVC=endpoint%20cbegin.!<long>\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            assertThatCode(() -> StaleUsers.check(Proto.class, loader, DESCRIPTOR)).doesNotThrowAnyException();
        }
        file(StaleUsers.DIRECTORY + owner + ".txt", "# header\ncom.example.App 9-cd field.SVC=endpoint%20cbegin.!<int>\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            assertThatThrownBy(() -> StaleUsers.check(Proto.class, loader, DESCRIPTOR))
                    .isInstanceOf(SJException.class)
                    .hasMessageContaining("field " + owner + ".SVC is not what com.example.App was checked against")
                    .hasMessageContaining("it was an endpoint of protocol cbegin.!<int>, it is now an endpoint of "
                            + "protocol cbegin.!<long> (loading protocol " + Proto.class.getName() + ")")
                    .hasMessageContaining("recompile the module that contains com.example.App against this version of "
                            + owner);
        }
    }

    /**
     * A class that reads the protocol (recorded in the protocol's index by the class's own compilation) may
     * create it in a field: its field's readers are checked too, and a field gone from the class's record
     * is reported as such.
     */
    @Test
    void aReaderOfAFieldOfAClassThatReadsTheProtocolIsCheckedAndAGoneFieldIsNamed() throws IOException {
        file(StaleUsers.DIRECTORY + "com.example.Lib.txt", "com.example.App 9-cd field.SVC=endpoint%20cbegin.!<int>\n");
        try (URLClassLoader loader = recording("com.example.Lib 12-ab descriptor=" + StaleUsers.hash(DESCRIPTOR) + "\n")) {
            assertThatThrownBy(() -> StaleUsers.check(StaleUsersTest.class, loader, DESCRIPTOR))
                    .isInstanceOf(SJException.class)
                    .hasMessageContaining("field com.example.Lib.SVC is not what com.example.App was checked against")
                    .hasMessageContaining("it is now not a final field with recorded facts");
        }
    }

    @Test
    void aRecordedFactIsPercentDecoded() {
        assertThat(StaleUsers.decode("endpoint%20cbegin.?{A:%20end}%25%2")).isEqualTo("endpoint cbegin.?{A: end}%%2");
    }
}
