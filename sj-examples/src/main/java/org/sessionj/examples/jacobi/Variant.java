package org.sessionj.examples.jacobi;

/** How ghost points travel (paper 001 §5, Fig. 2a: "ordinary" vs {@code noalias}). */
public enum Variant {
    /** {@code send} of one reused array: the runtime copies it, even between threads. */
    ORDINARY,
    /** {@code pass} of a freshly allocated {@code @NoAlias} array: handed over by reference where the peer shares the heap. */
    NOALIAS
}
