/**
 * The contract between processes: queue layout under a data directory and the message schema of
 * the commands journal and the events queue. Filled in by the engine-process issue; for now it
 * only proves that Chronicle Queue opens on this JVM with the project's flags.
 */
package io.chronex.queues;
