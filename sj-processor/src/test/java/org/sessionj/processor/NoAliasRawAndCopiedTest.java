package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;
import static org.sessionj.processor.NoAliasViewsTest.BUF;
import static org.sessionj.processor.NoAliasViewsTest.MORE;
import static org.sessionj.processor.NoAliasViewsTest.PROTOCOL;
import static org.sessionj.processor.NoAliasViewsTest.run;

import org.junit.jupiter.api.Test;

/**
 * Copies of a {@code @NoAlias} map's entries that the checker lost track of (adv19, confirmed at run time: the
 * peer's map changed after the pass). A3: a raw type hid the elements' type, which was taken as "cannot be a
 * view" ({@code (Collection) m.entrySet()}); a raw container's elements are now {@code Object}, which may be.
 * A4: {@code Arrays.copyOf}/{@code copyOfRange} of a copy of the entries, used in place, was taken as only
 * borrowing the copy (as it borrows an array it only reads); it is a copy of the copy, followed to where it goes.
 */
class NoAliasRawAndCopiedTest {
    private static final String KEEP = "        List<Object> ko = new ArrayList<>();\n";
    private static final String PASS_M = "        try (SJSocket s = svc.request()) { s.pass(m); }\n";

    @Test
    void aRawCollectionOfTheEntriesHoldsTheMapsNodes() {
        assertRejected("SJ041", 19, msg("@NoAlias 'm' is used after its value was moved into a call of 'addAll'"),
                PROTOCOL, MORE, BUF, run(KEEP + """
                        ko.addAll((Collection) m.entrySet());
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into a call of 'addAll' (through a copy of its elements"),
                PROTOCOL, MORE, BUF, run(KEEP + """
                        ko.addAll(new ArrayList(m.entrySet()));
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into a call of 'addAll'"), PROTOCOL, MORE, BUF, run(KEEP + """
                        ko.addAll((List) Arrays.asList(m.entrySet().toArray()));
                """ + PASS_M));
    }

    /** Corrected: a typed copy of what cannot be a view (the keys, strings) compiles. */
    @Test
    void aTypedCopyOfTheKeysCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run(KEEP + """
                        ko.addAll(new ArrayList<String>(m.keySet()));
                """ + PASS_M));
    }

    @Test
    void aCopyOfACopyOfTheEntriesUsedInPlaceMovesTheValue() {
        assertRejected("SJ041", 19, msg("moved into a call of 'addAll' (through a copy of its elements, which may be "
                + "views of it) (as the result of 'entrySet'", "on line 18"), PROTOCOL, MORE, BUF, run(KEEP + """
                        Collections.addAll(ko, Arrays.copyOf(m.entrySet().toArray(), 1));
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into a call of 'addAll'"), PROTOCOL, MORE, BUF, run(KEEP + """
                        Collections.addAll(ko, Arrays.copyOfRange(m.entrySet().toArray(), 0, 1));
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into a call of 'add'"), PROTOCOL, MORE, BUF, run(KEEP + """
                        ko.add(Arrays.copyOf(m.entrySet().toArray(), 1)[0]);
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into a call of 'addAll'"), PROTOCOL, MORE, BUF, run(KEEP + """
                        ko.addAll(Arrays.asList(Arrays.copyOf(m.entrySet().toArray(), 1)));
                """ + PASS_M));
    }

    /** A copy of a copy that goes nowhere (only its length is read) only borrows the value. */
    @Test
    void aCopyOfACopyReadInPlaceCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int n = Arrays.copyOf(m.entrySet().toArray(), 1).length;
                        System.out.println(n);
                """ + PASS_M));
    }
}
