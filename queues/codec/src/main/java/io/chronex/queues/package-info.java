/**
 * The contract between processes: the data directory's layout ({@link io.chronex.queues.DataDirectory})
 * and the binary schema of the commands journal ({@link io.chronex.queues.CommandCodec}) and the
 * events queue ({@link io.chronex.queues.EventCodec}). docs/messages.md documents every field.
 */
package io.chronex.queues;
