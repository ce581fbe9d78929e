package io.chronex.queues;

import io.chronex.api.Result;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads an events queue onward from a tailer, decoding each excerpt for a handler: the one
 * tail-and-decode loop readers of the events queue (the monitor, the replay tools) share. Reuses one
 * header and one result, so reading allocates nothing per excerpt; excerpts that do not decode are
 * counted and passed over.
 */
public final class EventTail {
    /** Told about each decoded excerpt; the header and result are reused after it returns. */
    @FunctionalInterface
    public interface Handler {
        void onEvent(long eventsIndex, EventHeader header, Result result);
    }

    private final ExcerptTailer tailer;
    private final EventHeader header = new EventHeader();
    private final Result result = new Result();
    private long unreadable;

    public EventTail(final ExcerptTailer tailer) {
        this.tailer = tailer;
    }

    /** Hands over up to {@code limit} excerpts that are there now; returns how many were read (0: caught up). */
    public int poll(final Handler handler, final int limit) {
        int read = 0;
        while (read < limit) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return read;
                }
                read++;
                if (EventCodec.read(dc.wire().bytes(), header, result) != DecodeStatus.OK) {
                    unreadable++;
                    continue;
                }
                handler.onEvent(dc.index(), header, result);
            }
        }
        return read;
    }

    /** Excerpts read that could not be decoded. */
    public long unreadable() {
        return unreadable;
    }
}
