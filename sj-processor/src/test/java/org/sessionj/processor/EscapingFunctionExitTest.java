package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;
import static org.sessionj.processor.FollowedParameterExitTest.HEAD;
import static org.sessionj.processor.FollowedParameterExitTest.SAFE_HEAD;

import org.junit.jupiter.api.Test;

/**
 * adv21 B2, B3, B10: a leaking function (its code may let an unchecked exception out with a plain local session live)
 * that escapes where the checker does not follow it — copied, chosen by a conditional, stored in a field or a
 * collection, returned, given to a JDK method that keeps it ({@code Map.of}, {@code List.of}, {@code FutureTask}) —
 * is SJ024 where it escapes, taken as run under a catch that goes on. Each rejected program compiled, and its catch
 * (around a later run) took the exception and went on with the session abandoned. Functions that run where the
 * checker follows them (a held local, a JDK call that runs them in place, an executor) and functions whose body is
 * exception-safe compile as before.
 */
class EscapingFunctionExitTest {
    /** X05: a copy of a held lambda. */
    @Test
    void aCopiedLambdaIsSJ024() {
        assertRejected("SJ024", 17, msg("the function escapes where the checker does not follow it (held in 'r' on line 17"),
                HEAD + """
                  static void run(String input) {
                    Runnable r = () -> book(input);
                    Runnable r2 = r;
                    try { r2.run(); } catch (DateTimeParseException e) { System.out.println("bad"); }
                  }
                }
                """);
    }

    /** X14: the program's own functional interface, held in a local and run under a catch. */
    @Test
    void anOwnFunctionalInterfaceIsFollowed() {
        assertRejected("SJ024", 19, msg("where the catch on line 19 takes it and goes on"), HEAD + """
                  interface Task { void go(String in); }
                  static void run(String input) {
                    Task t = A::book;
                    try { t.go(input); } catch (DateTimeParseException e) { System.out.println("bad"); }
                  }
                }
                """);
    }

    /** B3 X10: a command table. */
    @Test
    void aCommandTableIsSJ024() {
        assertRejected("SJ024", 17, msg("(given to 'of' on line 17, which may keep it), taken as a catch that goes on"),
                HEAD + """
                  static void run(String input) {
                    Map<String, Consumer<String>> commands = Map.of("book", A::book);
                    try { commands.get("book").accept(input); } catch (DateTimeParseException e) { System.out.println("bad"); }
                  }
                }
                """);
    }

    /** B3 X13: a static final field. */
    @Test
    void aFunctionInAFieldIsSJ024() {
        assertRejected("SJ024", 16, msg("(held in 'BOOK' on line 16"), HEAD + """
                  static final Consumer<String> BOOK = A::book;
                  static void run(String input) {
                    try { BOOK.accept(input); } catch (DateTimeParseException e) { System.out.println("bad"); }
                  }
                }
                """);
    }

    /** X06 (a conditional), X17 (returned by a lambda). */
    @Test
    void aConditionalOrAReturnedLambdaIsSJ024() {
        assertRejected("SJ024", 17, msg("(chosen by a conditional on line 17)"), HEAD + """
                  static void run(String input) {
                    Runnable r = input.isEmpty() ? () -> System.out.println("none") : () -> book(input);
                    try { r.run(); } catch (DateTimeParseException e) { System.out.println("bad"); }
                  }
                }
                """);
        assertRejected("SJ024", 17, msg("(returned on line 17)"), HEAD + """
                  static void run(String input) {
                    Supplier<Runnable> sup = () -> () -> book(input);
                    try { sup.get().run(); } catch (DateTimeParseException e) { System.out.println("bad"); }
                  }
                }
                """);
    }

    /** B10 Y03 (invokeAll of a list), Y02 (a FutureTask, run on this thread, which keeps the failure). */
    @Test
    void tasksGivenToAListOrAFutureTaskAreSJ024() {
        assertRejected("SJ024", 17, msg("(given to 'of' on line 17, which may keep it)"), HEAD + """
                  static void run(String input) throws InterruptedException {
                    List<Future<Object>> fs = pool.invokeAll(List.of(() -> { book(input); return null; }));
                    try { fs.get(0).get(); } catch (ExecutionException e) { System.out.println("failed, next"); }
                  }
                }
                """);
        assertRejected("SJ024", 17, msg("(given to the FutureTask<> constructor on line 17, which may keep it)"), HEAD + """
                  static void run(String input) throws InterruptedException {
                    FutureTask<Object> ft = new FutureTask<>(() -> { book(input); return null; });
                    ft.run();
                    try { ft.get(); } catch (ExecutionException e) { System.out.println("failed, next"); }
                  }
                }
                """);
    }

    /** B10 Y01, Y11, Y12: task objects of the program's classes given to an executor or a thread. */
    @Test
    void taskObjectsRunOnAnotherThreadAreSJ024() {
        assertRejected("SJ024", 18, msg("and then 'run' (through its call on line 16)",
                "where 'submit' on line 18 runs it on another thread"), HEAD + """
                  record BookTask(String in) implements Runnable { public void run() { book(in); } }
                  static void run(String input) throws InterruptedException {
                    Future<?> f = pool.submit(new BookTask(input));
                    try { f.get(); } catch (ExecutionException e) { System.out.println("failed, next"); }
                  }
                }
                """);
        assertRejected("SJ024", 17, msg("where 'submit' on line 17 runs it on another thread"), HEAD + """
                  static void run(String input) {
                    pool.submit(new Runnable() {
                      public void run() { book(input); }
                    });
                  }
                }
                """);
        assertRejected("SJ024", 18, msg("where the Thread constructor on line 18 runs it on another thread"), HEAD + """
                  record BookTask(String in) implements Runnable { public void run() { book(in); } }
                  static void run(String input) {
                    new Thread(new BookTask(input)).start();
                  }
                }
                """);
    }

    /** B2 X11: an anonymous Runnable held in a local and run under a catch. */
    @Test
    void aHeldAnonymousRunnableIsFollowed() {
        assertRejected("SJ024", 20, msg("and then the object made on line 17", "where the catch on line 20"), HEAD + """
                  static void run(String input) {
                    Runnable r = new Runnable() {
                      public void run() { book(input); }
                    };
                    try { r.run(); } catch (DateTimeParseException e) { System.out.println("bad"); }
                  }
                }
                """);
    }

    /**
     * The twins: the same escapes with the session a resource compile; functions run in place by the JDK
     * ({@code forEach}, {@code computeIfAbsent}, {@code Optional.ifPresent}) and task objects called directly, with
     * no catch that goes on, compile.
     */
    @Test
    void theSafeTwinsAndFunctionsRunInPlaceCompile() {
        assertAccepted(SAFE_HEAD + """
                  static final Consumer<String> BOOK = A::book;
                  record BookTask(String in) implements Runnable { public void run() { book(in); } }
                  static void run(String input) throws Exception {
                    Map<String, Consumer<String>> commands = Map.of("book", A::book);
                    try { commands.get("book").accept(input); } catch (DateTimeParseException e) { System.out.println("bad"); }
                    try { BOOK.accept(input); } catch (DateTimeParseException e) { System.out.println("bad"); }
                    Runnable r = () -> book(input);
                    Runnable r2 = r;
                    try { r2.run(); } catch (DateTimeParseException e) { System.out.println("bad"); }
                    Future<?> f = pool.submit(new BookTask(input));
                    try { f.get(); } catch (ExecutionException e) { System.out.println("failed, next"); }
                  }
                }
                """);
        assertAccepted(HEAD + """
                  record BookTask(String in) implements Runnable { public void run() { book(in); } }
                  static void run(List<String> inputs, Map<String, Integer> counts, Optional<String> one) {
                    inputs.forEach(A::book);
                    inputs.forEach(in -> book(in));
                    counts.computeIfAbsent("k", k -> { book(k); return 1; });
                    one.ifPresent(A::book);
                    new BookTask(inputs.get(0)).run();
                    BookTask t = new BookTask(inputs.get(1));
                    t.run();
                  }
                }
                """);
    }
}
