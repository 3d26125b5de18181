package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A1: a lambda or method reference given to a JDK call that runs it on another thread (an executor's
 * {@code submit}/{@code execute}, a {@code CompletableFuture} stage, a {@code Thread}'s body, {@code SJ.spawn}) does
 * not run in that call: what it throws is kept there (a {@code Future}, a failed stage, the thread's end) and comes
 * back wrapped, or never, while the program goes on. An unchecked exit of a live plain local session out of it
 * abandons the session whatever the try statements around the call do. The rejected programs compiled (or were
 * SJ024 for a wrong reason: a catch of {@code RejectedExecutionException} around {@code submit} taken to take
 * {@code LocalDate.parse}'s failure), and the peer waited.
 */
class FunctionRunnerExitTest {
    private static final String HEAD = """
            import java.time.LocalDate;
            import java.time.format.DateTimeParseException;
            import java.util.List;
            import java.util.concurrent.*;
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
    private static final String SAFE_HEAD = HEAD.replace(
            "SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request();",
            "try (SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request()) {")
            .replace("s.close();", "}");

    /** The adversary's T2: the failure comes back from get() as an ExecutionException, which the program takes. */
    @Test
    void submittedAndCollectedByGetIsSJ024() {
        assertRejected("SJ024", 17, msg("session 's' is not complete if, in 'book', the call of 'parse' on line 12 throws an "
                + "unchecked exception, which leaves 'book' and comes out of the call on line 17, where 'submit' on line 17 "
                + "runs it on another thread: the exception ends there and the program goes on"), HEAD + """
                  static void runAll(List<String> inputs) throws InterruptedException {
                    for (String input : inputs) {
                      Future<?> f = pool.submit(() -> book(input));
                      try {
                        f.get();
                      } catch (ExecutionException e) {
                        System.out.println("bad input, next: " + e.getCause());
                      }
                    }
                  }
                }
                """);
    }

    /**
     * The adversary's L30: the natural catch around a submit was taken to take the task's failure (a wrong reason);
     * the failure is kept in the Future nobody reads, and the session is abandoned all the same.
     */
    @Test
    void submittedUnderACatchOfRejectionIsSJ024ForTheRightReason() {
        assertRejected("SJ024", 17, msg("where 'submit' on line 17 runs it on another thread"), HEAD + """
                  static void runAll(List<String> inputs) {
                    try {
                      pool.submit(() -> book(inputs.get(0)));
                    } catch (RejectedExecutionException e) {
                      System.out.println("pool full, next");
                    }
                  }
                }
                """);
    }

    /** The adversary's L05: no catch at all, the JDK hands the failure to the program's handler. */
    @Test
    void completableFutureStageIsSJ024() {
        assertRejected("SJ024", 16, msg("where 'runAsync' on line 16 runs it on another thread"), HEAD + """
                  static void runAll(List<String> inputs) {
                    CompletableFuture.runAsync(() -> book(inputs.get(0)), pool).exceptionally(e -> {
                      System.out.println("bad date, next");
                      return null;
                    }).join();
                  }
                }
                """);
    }

    /** A method reference given to execute: the method referred to runs on the pool's thread. */
    @Test
    void methodReferenceGivenToExecuteIsSJ024() {
        assertRejected("SJ024", 17, msg("comes out of the call on line 17, where 'execute' on line 17 runs it on another "
                + "thread"), HEAD + """
                  static void bookToday() { book("today"); }
                  static void runAll() {
                    pool.execute(A::bookToday);
                  }
                }
                """);
    }

    /** The lambda's own session, left by a helper's throw, in a thread's body. */
    @Test
    void aSessionOfTheThreadsBodyIsSJ024() {
        assertRejected("SJ024", 6, msg("session 's' is not complete if, in 'the lambda on line 6', the call of 'check' on "
                + "line 9 throws an unchecked exception", "where the Thread constructor on line 6 runs it on another "
                + "thread"), """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  static int check(int v) { if (v < 0) throw new IllegalArgumentException("negative: " + v); return v; }
                  static void start(int v) {
                    Thread t = new Thread(() -> {
                      SJSocket s = SJService.create(Pair.class, "localhost", 4000).request();
                      s.send(1);
                      s.send(check(v));
                      s.close();
                    });
                    t.start();
                  }
                }
                """);
    }

    /** The adversary's T7: a session thread's body calls a method that holds a plain local session; join() raises it. */
    @Test
    void aSpawnBodyIsSJ024() {
        assertRejected("SJ024", 16, msg("session 'b' is not complete if, in 'pair', the call of 'check' on line 9 throws an "
                + "unchecked exception, which leaves 'pair' and comes out of the call on line 16, where 'spawn' on line 14 "
                + "runs it on another thread"), """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>") interface Ping {}
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  static int check(int v) { if (v < 0) throw new IllegalArgumentException("negative: " + v); return v; }
                  static void pair(int v) {
                    SJSocket b = SJService.create(Pair.class, "localhost", 4001).request();
                    b.send(1);
                    b.send(check(v));
                    b.close();
                  }
                  static void run() {
                    SJSocket p = SJService.create(Ping.class, "localhost", 4000).request();
                    SJThread t = SJ.spawn(p, s -> {
                      s.send(1);
                      pair(-1);
                    });
                    try {
                      t.join();
                    } catch (SJException e) {
                      System.out.println("worker failed, next");
                    }
                  }
                }
                """);
    }

    /** The corrected twin of the first three: the session a resource, the same executor and future code. */
    @Test
    void theSessionAResourceCompiles() {
        assertAccepted(SAFE_HEAD + """
                  static void runAll(List<String> inputs) throws InterruptedException {
                    for (String input : inputs) {
                      Future<?> f = pool.submit(() -> book(input));
                      try {
                        f.get();
                      } catch (ExecutionException e) {
                        System.out.println("bad input, next: " + e.getCause());
                      }
                    }
                    try {
                      pool.submit(() -> book(inputs.get(0)));
                    } catch (RejectedExecutionException e) {
                      System.out.println("pool full, next");
                    }
                    CompletableFuture.runAsync(() -> book(inputs.get(0)), pool).exceptionally(e -> null).join();
                    new Thread(() -> book("today")).start();
                  }
                }
                """);
    }

    /** A task that parses before its session begins: nothing can fail while it is live. */
    @Test
    void aTaskThatParsesFirstCompiles() {
        assertAccepted(HEAD.replace("SJSocket s = SJService", "LocalDate d = LocalDate.parse(input);\n    SJSocket s = SJService")
                .replace("s.send(LocalDate.parse(input));", "s.send(d);") + """
                  static void runAll(List<String> inputs) {
                    pool.submit(() -> book(inputs.get(0)));
                  }
                }
                """);
    }
}
