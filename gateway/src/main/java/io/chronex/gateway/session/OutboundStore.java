package io.chronex.gateway.session;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Every FIX message a gateway sends, kept in its own Chronicle queue before it goes on the wire,
 * so a resend can replay it with its original SendingTime and a restarted gateway knows each
 * session's next sequence number and which event it handled last.
 *
 * <p>One excerpt per batch: the messages of one or more whole events (for any of the gateway's
 * sessions) go in one excerpt tagged with the last event's index, so the restarted gateway resumes
 * at the next event. An event with more messages than a batch holds (a mass cancel of 100,000
 * orders) is stored as parts: each part names the event and how many of its messages the store
 * holds so far, and a restart after a crash between parts goes through that event again, skipping
 * exactly that many (the messages of an event are a deterministic function of it), so no message
 * is lost or stored twice. Excerpt kinds (little-endian):
 * <ul>
 * <li>{@code 'O' 1 | i64 events index (-1: not from an event) | i32 batch length | batch}, where a batch is a
 * run of {@code i64 account | i32 MsgSeqNum | i32 MsgType | i32 length | message bytes};</li>
 * <li>{@code 'P' 1 | i64 events index | i32 batch length | batch | i32 messages of that event stored so far}:
 * a part of an event that is not finished (whole events before it may share the batch);</li>
 * <li>{@code 'R' 1 | i64 account}: that session's sequence numbers were reset (next outbound is 1);</li>
 * <li>{@code 'S' 1 | i64 events index}: where a gateway with nothing sent yet starts reading events.</li>
 * </ul>
 * The offsets below are that layout, used by the writers (this class, and the gateway's Outbox for
 * the entries of a batch) and the readers alike.
 */
public final class OutboundStore implements AutoCloseable {
    // Every excerpt, from its start:
    private static final int KIND_OFFSET = 0;               // u8: BATCH, RESET or START
    private static final int VERSION_OFFSET = 1;            // u8
    private static final int EVENTS_INDEX_OFFSET = 2;       // i64, BATCH and START
    private static final int ACCOUNT_OFFSET = 2;            // i64, RESET
    private static final int BATCH_LENGTH_OFFSET = 10;      // i32, BATCH
    private static final int BATCH_OFFSET = 14;             // BATCH and PART: the batch's entries
    /** Where a batch's entries start in its excerpt: an entry at batch offset o is at excerpt offset ENTRIES_OFFSET + o. */
    public static final int ENTRIES_OFFSET = BATCH_OFFSET;
    /** Kind, version and the i64 that every kind carries: anything shorter is truncated. */
    private static final int MIN_EXCERPT_LENGTH = 10;
    /** A mark (RESET or START): kind, version and one i64. */
    private static final int MARK_LENGTH = 10;

    // Every entry of a batch, from the entry's start:
    public static final int ENTRY_ACCOUNT_OFFSET = 0;       // i64
    public static final int ENTRY_SEQ_OFFSET = 8;           // i32 MsgSeqNum
    public static final int ENTRY_MSG_TYPE_OFFSET = 12;     // i32 MsgType, as FixDecoder packs it
    public static final int ENTRY_LENGTH_OFFSET = 16;       // i32, of the message bytes that follow
    public static final int ENTRY_HEADER = 20;              // then the message bytes

    private static final byte BATCH = 'O';
    private static final byte PART = 'P';
    private static final byte RESET = 'R';
    private static final byte START = 'S';
    private static final byte VERSION = 1;

    /** What a start-up scan reports, in store order. */
    public interface Visitor {
        /** A message sent (or queued for a disconnected client) to the session of an account, at entryOffset in its excerpt. */
        void message(long account, int seq, int msgType, long storeIndex, int entryOffset);

        /** The session of an account had its sequence numbers reset. */
        void reset(long account);
    }

    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final ExcerptTailer reader;
    private long lastEventsIndex = Long.MIN_VALUE;
    /** The event the last part stored belongs to, while no later whole batch closed it; else Long.MIN_VALUE. */
    private long partialEventsIndex = Long.MIN_VALUE;
    private int partialMessages;

    public OutboundStore(final SingleChronicleQueue queue) {
        this.queue = queue;
        this.appender = queue.createAppender();
        this.reader = queue.createTailer();
    }

    /**
     * Reads the whole store once (at start): every message and reset, in order. Afterwards
     * {@link #lastEventsIndex()} is the last event handled, or of the start marker.
     *
     * @return false when the store is empty (a gateway that never ran)
     */
    public boolean recover(final Visitor visitor) {
        final ExcerptTailer tailer = queue.createTailer();
        // Nothing else appends here (the gateway's lock), so the index's end is fixed while we read.
        final long indexedEnd = queue.lastIndex();
        boolean any = false;
        long lastRead = -1;
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                any = true;
                final Bytes<?> in = dc.wire().bytes();
                final long storeIndex = dc.index();
                lastRead = storeIndex;
                final long at = in.readPosition();
                if (in.readRemaining() < MIN_EXCERPT_LENGTH) {
                    throw new IllegalStateException("outbound store " + queue.file() + ": excerpt " + Long.toHexString(storeIndex)
                        + " is truncated");
                }
                final byte kind = in.readByte(at + KIND_OFFSET);
                final byte version = in.readByte(at + VERSION_OFFSET);
                if (version != VERSION) {
                    throw new IllegalStateException("outbound store " + queue.file() + ": excerpt " + Long.toHexString(storeIndex)
                        + " has version " + version + "; this build reads " + VERSION);
                }
                switch (kind) {
                    case BATCH, PART -> recoverBatch(in, at, storeIndex, kind == PART, visitor);
                    case RESET -> visitor.reset(in.readLong(at + ACCOUNT_OFFSET));
                    case START -> {
                        lastEventsIndex = in.readLong(at + EVENTS_INDEX_OFFSET);
                        partialEventsIndex = Long.MIN_VALUE;
                    }
                    default -> throw new IllegalStateException("outbound store " + queue.file() + ": excerpt "
                        + Long.toHexString(storeIndex) + " has unknown kind " + kind);
                }
            }
        }
        if (indexedEnd >= 0 && lastRead < indexedEnd) {
            // A zeroed excerpt header reads as "nothing written yet": the walk stops at it, the index knows better.
            throw new IllegalStateException("outbound store " + queue.file() + " cannot be read past "
                + (lastRead < 0 ? "its start" : "excerpt " + Long.toHexString(lastRead)) + ", but its index says it holds excerpts up to "
                + Long.toHexString(indexedEnd) + " (zeroed or overwritten bytes): the messages stored after that point cannot be"
                + " resent and the sequence numbers that follow them are unknown");
        }
        return any;
    }

    private void recoverBatch(final Bytes<?> in, final long at, final long storeIndex, final boolean part, final Visitor visitor) {
        final int batchLength = in.readRemaining() < BATCH_OFFSET ? -1 : in.readInt(at + BATCH_LENGTH_OFFSET);
        if (batchLength < 0 || in.readRemaining() < BATCH_OFFSET + batchLength + (part ? Integer.BYTES : 0)) {
            throw new IllegalStateException("outbound store " + queue.file() + ": excerpt " + Long.toHexString(storeIndex)
                + " is truncated");
        }
        final long events = in.readLong(at + EVENTS_INDEX_OFFSET);
        if (part) {
            partialEventsIndex = events;
            partialMessages = in.readInt(at + BATCH_OFFSET + batchLength);
        } else if (events >= 0) {
            lastEventsIndex = events;
            partialEventsIndex = Long.MIN_VALUE;
        }
        long entry = at + BATCH_OFFSET;
        long remaining = batchLength;
        while (remaining >= ENTRY_HEADER) {
            final long next = entryEnd(in, entry);
            if (next < 0) {
                throw new IllegalStateException("outbound store " + queue.file() + ": excerpt " + Long.toHexString(storeIndex)
                    + " is truncated");
            }
            visitor.message(in.readLong(entry + ENTRY_ACCOUNT_OFFSET), in.readInt(entry + ENTRY_SEQ_OFFSET),
                in.readInt(entry + ENTRY_MSG_TYPE_OFFSET), storeIndex, (int) (entry - at));
            remaining -= next - entry;
            entry = next;
        }
    }

    /**
     * Where the batch entry at {@code entry} ends, or -1 when it runs past the excerpt (a damaged
     * store): absolute reads are not bounded by the excerpt, so the walk checks for itself.
     */
    private static long entryEnd(final Bytes<?> in, final long entry) {
        final long limit = in.readLimit();
        if (entry + ENTRY_HEADER > limit) {
            return -1;
        }
        final int length = in.readInt(entry + ENTRY_LENGTH_OFFSET);
        return length < 0 || entry + ENTRY_HEADER + length > limit ? -1 : entry + ENTRY_HEADER + length;
    }

    /** The last events index handled (or marked as the start), Long.MIN_VALUE if none. */
    public long lastEventsIndex() {
        return lastEventsIndex;
    }

    /**
     * After {@link #recover}: the event whose answer was cut short between parts (a crash), or
     * Long.MIN_VALUE. Every event before it is answered; of it, {@link #partialMessages()} are stored.
     */
    public long partialEventsIndex() {
        return partialEventsIndex;
    }

    /** How many messages of {@link #partialEventsIndex()} the store holds. */
    public int partialMessages() {
        return partialMessages;
    }

    /** Records where a new gateway starts reading events: after the one at this index. */
    public void markStart(final long eventsIndex) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            final long at = out.writePosition();
            out.writeSkip(MARK_LENGTH);
            out.writeByte(at + KIND_OFFSET, START);
            out.writeByte(at + VERSION_OFFSET, VERSION);
            out.writeLong(at + EVENTS_INDEX_OFFSET, eventsIndex);
        }
        lastEventsIndex = eventsIndex;
    }

    public void markReset(final long account) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            final long at = out.writePosition();
            out.writeSkip(MARK_LENGTH);
            out.writeByte(at + KIND_OFFSET, RESET);
            out.writeByte(at + VERSION_OFFSET, VERSION);
            out.writeLong(at + ACCOUNT_OFFSET, account);
        }
    }

    /** Appends one batch of whole events (entries as described above; batch must be backed by a byte[]) and returns its store index. */
    public long append(final long eventsIndex, final DirectBuffer batch, final int length) {
        final long index = write(BATCH, eventsIndex, batch, length, 0);
        if (eventsIndex >= 0) {
            lastEventsIndex = eventsIndex;
            partialEventsIndex = Long.MIN_VALUE;
        }
        return index;
    }

    /** Appends a part of an event not finished yet, with the number of its messages stored so far, this part's included. */
    public long appendPart(final long eventsIndex, final DirectBuffer batch, final int length, final int eventMessages) {
        final long index = write(PART, eventsIndex, batch, length, eventMessages);
        partialEventsIndex = eventsIndex;
        partialMessages = eventMessages;
        return index;
    }

    private long write(final byte kind, final long eventsIndex, final DirectBuffer batch, final int length, final int eventMessages) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            final long at = out.writePosition();
            out.writeSkip(BATCH_OFFSET + length + (kind == PART ? Integer.BYTES : 0));
            out.writeByte(at + KIND_OFFSET, kind);
            out.writeByte(at + VERSION_OFFSET, VERSION);
            out.writeLong(at + EVENTS_INDEX_OFFSET, eventsIndex);
            out.writeInt(at + BATCH_LENGTH_OFFSET, length);
            out.write(at + BATCH_OFFSET, batch.byteArray(), 0, length);
            if (kind == PART) {
                out.writeInt(at + BATCH_OFFSET + length, eventMessages);
            }
        }
        return appender.lastIndexAppended();
    }

    /**
     * Copies the message with this sequence number for this account, whose entry is at entryOffset
     * in the excerpt at storeIndex (both from the {@link ResendIndex}), into dst at 0.
     *
     * @return its length, or -1 when it is not there (a damaged store)
     */
    public int read(final long storeIndex, final int entryOffset, final long account, final int seq, final MutableDirectBuffer dst) {
        if (!reader.moveToIndex(storeIndex)) {
            return -1;
        }
        try (DocumentContext dc = reader.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            final Bytes<?> in = dc.wire().bytes();
            final long at = in.readPosition();
            final byte kind = in.readRemaining() < BATCH_OFFSET ? 0 : in.readByte(at + KIND_OFFSET);
            if ((kind != BATCH && kind != PART) || in.readByte(at + VERSION_OFFSET) != VERSION || entryOffset < BATCH_OFFSET) {
                return -1;
            }
            final long entry = at + entryOffset;
            final long next = entryEnd(in, entry);
            if (next < 0 || in.readLong(entry + ENTRY_ACCOUNT_OFFSET) != account || in.readInt(entry + ENTRY_SEQ_OFFSET) != seq) {
                return -1;
            }
            final int length = (int) (next - entry - ENTRY_HEADER);
            if (length > dst.capacity()) {
                return -1;
            }
            for (int i = 0; i < length; i++) {
                dst.putByte(i, in.readByte(entry + ENTRY_HEADER + i));
            }
            return length;
        }
    }

    @Override
    public void close() {
        queue.close();
    }
}
