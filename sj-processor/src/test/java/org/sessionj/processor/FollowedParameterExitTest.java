package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv21 B1: a lambda, method reference or function object given to a method of the program that only calls its
 * parameter's functional method ({@code static void runSafely(Runnable task) { try { task.run(); } catch … }}) runs
 * at those calls: an unchecked exit of a live plain local session out of it meets the catches around them. The
 * rejected programs compiled (the function was taken to run where it stands, outside every catch) and the peer
 * waited; a parameter the method does more with (stores it) makes the function escape (SJ024 where it is given).
 */
class FollowedParameterExitTest {
    static final String HEAD = """
            import java.time.LocalDate;
            import java.time.format.DateTimeParseException;
            import java.util.*;
            import java.util.concurrent.*;
            import java.util.function.*;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<LocalDate>") interface Booking {}
              static final ExecutorService pool = Executors.newFixedThreadPool(1);
              static void book(String input) {
                SJSocket s = SJService.create(Booking.class, "localhost", 4000).request();
                s.send(1);
                s.send(LocalDate.parse(input));
                s.close();
              }
            """;

    /** The same method with its session a try-with-resources resource: any failure closes it and tells the peer. */
    static final String SAFE_HEAD = HEAD.replace(
            "SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request();",
            "try (SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request()) {")
            .replace("s.close();", "}");

    /** The adversary's X01: a helper that runs a task and logs its failure. */
    @Test
    void aLambdaRunByAHelperThatCatchesIsSJ024() {
        assertRejected("SJ024", 21, msg("which leaves 'book' and then the function given for 'task' of 'runSafely' and "
                + "comes out of the call on line 21, where the catch on line 21 takes it and goes on"), HEAD + """
                  static void run(List<String> inputs) {
                    runSafely(() -> book(inputs.get(0)));
                    System.out.println("went on");
                  }
                  static void runSafely(Runnable task) {
                    try { task.run(); } catch (RuntimeException e) { System.out.println("task failed: " + e); }
                  }
                }
                """);
    }

    /** X02: a method reference and a {@code Consumer}, the catch naming the JDK failure. */
    @Test
    void aMethodReferenceRunByAHelperIsSJ024() {
        assertRejected("SJ024", 20, msg("the function given for 'task' of 'runSafely'", "where the catch on line 20"), HEAD + """
                  static void run(List<String> inputs) {
                    runSafely(inputs.get(0), A::book);
                  }
                  static void runSafely(String in, Consumer<String> task) {
                    try { task.accept(in); } catch (DateTimeParseException e) { System.out.println("bad: " + e); }
                  }
                }
                """);
    }

    /** X03: a retry loop over a {@code Supplier}, through a method between. */
    @Test
    void aRetryHelperIsSJ024() {
        assertRejected("SJ024", 26, msg("and then 'bookInt' (through its call on line 17)",
                "the function given for 's' of 'retry'"), HEAD + """
                  static int bookInt(String input) {
                    book(input);
                    return 1;
                  }
                  static void run(List<String> inputs) {
                    Integer r = retry(() -> bookInt(inputs.get(0)));
                    System.out.println(r);
                  }
                  static <T> T retry(Supplier<T> s) {
                    for (int i = 0; i < 2; i++) {
                      try { return s.get(); } catch (RuntimeException e) { System.out.println("retry " + e); }
                    }
                    return null;
                  }
                }
                """);
    }

    /** X04: an anonymous {@code Runnable} given to the helper. */
    @Test
    void anAnonymousRunnableRunByAHelperIsSJ024() {
        assertRejected("SJ024", 23, msg("and then the function given for 'task' of 'runSafely'"), HEAD + """
                  static void run(List<String> inputs) {
                    String input = inputs.get(0);
                    runSafely(new Runnable() {
                      public void run() { book(input); }
                    });
                  }
                  static void runSafely(Runnable task) {
                    try { task.run(); } catch (Exception e) { System.out.println("task failed: " + e); }
                  }
                }
                """);
    }

    /** A helper that keeps the task for later: where it runs is not known, so the lambda escapes where it is given. */
    @Test
    void aHelperThatStoresTheTaskIsSJ024WhereItIsGiven() {
        assertRejected("SJ024", 18, msg("the function escapes where the checker does not follow it (given to 'later' on "
                + "line 18, which does more with it than call it), taken as a catch that goes on"), HEAD + """
                  static final List<Runnable> tasks = new ArrayList<>();
                  static void run(List<String> inputs) {
                    later(() -> book(inputs.get(0)));
                  }
                  static void later(Runnable task) {
                    tasks.add(task);
                  }
                }
                """);
    }

    /** The twins: the session a resource; the helper's call outside any catch (the exception leaves, nobody goes on). */
    @Test
    void theSafeTwinsCompile() {
        assertAccepted(SAFE_HEAD + """
                  static void run(List<String> inputs) {
                    runSafely(() -> book(inputs.get(0)));
                    runSafely(new Runnable() {
                      public void run() { book(inputs.get(1)); }
                    });
                    later(() -> book(inputs.get(2)));
                  }
                  static void runSafely(Runnable task) {
                    try { task.run(); } catch (RuntimeException e) { System.out.println("task failed: " + e); }
                  }
                  static final List<Runnable> tasks = new ArrayList<>();
                  static void later(Runnable task) {
                    tasks.add(task);
                  }
                }
                """);
        assertAccepted(HEAD + """
                  static void run(List<String> inputs) {
                    runTwice(() -> book(inputs.get(0)));
                  }
                  static void runTwice(Runnable task) {
                    task.run();
                    try {
                      task.run();
                    } catch (RuntimeException e) {
                      throw new IllegalStateException("failed twice", e);
                    }
                  }
                }
                """);
    }
}
