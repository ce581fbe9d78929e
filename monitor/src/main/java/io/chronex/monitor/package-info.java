/**
 * The monitor: a read-only view of a data directory. {@link io.chronex.monitor.MonitorModel} and
 * its parts (hop latencies, counters, books, backlog) are fed by the shared tailers of
 * {@code io.chronex.queues}; {@link io.chronex.monitor.Monitor} is bin/monitor.
 */
package io.chronex.monitor;
