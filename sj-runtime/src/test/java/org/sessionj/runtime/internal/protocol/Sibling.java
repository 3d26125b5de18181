package org.sessionj.runtime.internal.protocol;

/** A class in the same package as the test protocols, found by its simple name. */
public record Sibling(int value) {
}
