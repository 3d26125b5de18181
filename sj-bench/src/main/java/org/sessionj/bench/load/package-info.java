/**
 * Load tests that are not JMH benchmarks: a server in one JVM, clients in another, counting
 * failures, throughput and latency ({@code scripts/accept-load.sh}, docs/reliability.md).
 */
package org.sessionj.bench.load;
