package io.chronex.queues;

import io.chronex.api.Result;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads an events queue onward from a tailer, decoding each excerpt for a handler: the one
 * tail-and-decode loop readers of the events queue (the monitor, the replay tools) share. Reuses one
 * header and one result, so reading allocates nothing per excerpt; excerpts that do not decode are
 * counted and passed over.
 */
public final class EventTail implements AutoCloseable {
    /** Told about each decoded excerpt; the header and result are reused after it returns. */
    @FunctionalInterface
    public interface Handler {
        void onEvent(long eventsIndex, EventHeader header, Result result);
    }

    private final ExcerptWalk walk;
    private final EventHeader header = new EventHeader();
    private final Result result = new Result();
    private long unreadable;

    /** Reads on from where the tailer stands (through an {@link ExcerptWalk}: close this to let its mapped chunk go). */
    public EventTail(final ExcerptTailer tailer) {
        this.walk = new ExcerptWalk(tailer);
    }

    /** Hands over up to {@code limit} excerpts that are there now; returns how many were read (0: caught up). */
    public int poll(final Handler handler, final int limit) {
        int read = 0;
        while (read < limit && walk.next()) {
            read++;
            if (EventCodec.readAt(walk.in(), walk.offset(), walk.length(), header, result) != DecodeStatus.OK) {
                unreadable++;
                continue;
            }
            handler.onEvent(walk.index(), header, result);
        }
        return read;
    }

    /** The index of the last excerpt read (decoded or not); -1 before the first, unless the tailer was moved first. */
    public long lastIndex() {
        return walk.index();
    }

    /** Excerpts read that could not be decoded. */
    public long unreadable() {
        return unreadable;
    }

    @Override
    public void close() {
        walk.close();
    }

    /**
     * The journal index a queue's last events excerpt answers, -1 when the queue holds none: where a writer of results
     * (a cluster member, a bridge) resumes.
     *
     * @throws IllegalStateException when that excerpt does not decode: which commands were answered cannot be told
     */
    public static long lastAnswered(final SingleChronicleQueue events) {
        final EventHeader header = new EventHeader();
        try (ExcerptTailer back = events.createTailer().direction(TailerDirection.BACKWARD).toEnd();
             DocumentContext dc = back.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            final DecodeStatus status = EventCodec.read(dc.wire().bytes(), header, new Result());
            if (status != DecodeStatus.OK) {
                throw new IllegalStateException("the last excerpt of " + events.file() + " (index " + Long.toHexString(dc.index())
                    + ") cannot be read (" + status + "): which commands were answered cannot be told");
            }
            return header.commandIndex;
        }
    }
}
