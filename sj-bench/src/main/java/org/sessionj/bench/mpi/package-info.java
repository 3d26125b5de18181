/**
 * The MPI-free part of the benchmark comparison's MPI programs, shared by both peers: the MPJ Express
 * baseline ({@code org.sessionj.bench.mpj}, package {@code mpi} of mpj.jar) and Open MPI's Java bindings
 * ({@code org.sessionj.bench.ompi}, a different {@code mpi} package). Nothing here touches MPI, so the
 * same sources compile against either library: {@code scripts/compare/mpj.sh} and
 * {@code scripts/compare/ompi.sh} compile them together with each peer's programs.
 *
 * <p>What stays in the peers: every MPI call, and the hot loops that touch message buffers where the two
 * libraries want different buffers (Open MPI's direct {@code DoubleBuffer}s, MPJ's arrays).
 */
package org.sessionj.bench.mpi;
