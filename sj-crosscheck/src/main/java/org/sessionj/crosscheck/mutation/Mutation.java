package org.sessionj.crosscheck.mutation;

import org.sessionj.crosscheck.program.Side;

/**
 * One single change of a generated program.
 *
 * @param signature the class of the change, stable across seeds ({@code move/ASSERT},
 *     {@code retype/receive/LOCAL/primitive->primitive}): escapes are listed and tolerated by class
 * @param description what exactly changed, for reports ({@code move the receive of int (v12) into an assert})
 * @param mutant the changed program
 */
public record Mutation(String signature, String description, Side mutant) {
}
