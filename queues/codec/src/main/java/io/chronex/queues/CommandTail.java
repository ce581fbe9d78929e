package io.chronex.queues;

import io.chronex.api.Command;
import net.openhft.chronicle.queue.ExcerptTailer;

/**
 * Reads the commands journal onward from a tailer, decoding each excerpt for a handler: the
 * journal's counterpart of {@link EventTail}. Excerpts that do not decode (the engine rejects them)
 * are still handed over, with their status, since they are journal entries the engine answers; configuration
 * records are told apart.
 */
public final class CommandTail implements AutoCloseable {
    /** Told about each excerpt; {@code command} and {@code hops} are meaningful only when {@code status} is OK. */
    @FunctionalInterface
    public interface Handler {
        void onCommand(long journalIndex, DecodeStatus status, Command command, Hops hops);

        /** An excerpt that is not a command but a configuration record ({@link ConfigRecord}), handed over in its place. */
        default void onConfiguration(final long journalIndex) {
        }
    }

    private final ExcerptWalk walk;
    private final Command command = new Command();
    private final Hops hops = new Hops();

    /** Reads on from where the tailer stands (through an {@link ExcerptWalk}: close this to let its mapped chunk go). */
    public CommandTail(final ExcerptTailer tailer) {
        this.walk = new ExcerptWalk(tailer);
    }

    /** Hands over up to {@code limit} excerpts that are there now; returns how many were read (0: caught up). */
    public int poll(final Handler handler, final int limit) {
        int read = 0;
        while (read < limit && walk.next()) {
            read++;
            hops.clear();
            final DecodeStatus status = CommandCodec.readAt(walk.in(), walk.offset(), walk.length(), command, hops);
            if (status != DecodeStatus.OK && ConfigRecord.is(walk.in(), walk.offset(), walk.length())) {
                handler.onConfiguration(walk.index());
            } else {
                handler.onCommand(walk.index(), status, command, hops);
            }
        }
        return read;
    }

    /** The index of the last excerpt read; -1 before the first, unless the tailer was moved first. */
    public long lastIndex() {
        return walk.index();
    }

    @Override
    public void close() {
        walk.close();
    }
}
