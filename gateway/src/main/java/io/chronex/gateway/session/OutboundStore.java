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
 * <p>One excerpt per batch: all the messages one event produced (for any of the gateway's sessions)
 * go in one excerpt with that event's index, so a crash never leaves an event half answered; the
 * restarted gateway resumes at the next event. Excerpt kinds (little-endian):
 * <ul>
 * <li>{@code 'O' 1 | i64 events index (-1: not from an event) | i32 batch length | batch}, where a batch is a
 * run of {@code i64 account | i32 MsgSeqNum | i32 MsgType | i32 length | message bytes};</li>
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
    private static final int BATCH_OFFSET = 14;             // BATCH: the batch's entries
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
    private static final byte RESET = 'R';
    private static final byte START = 'S';
    private static final byte VERSION = 1;

    /** What a start-up scan reports, in store order. */
    public interface Visitor {
        /** A message sent (or queued for a disconnected client) to the session of an account. */
        void message(long account, int seq, int msgType, long storeIndex);

        /** The session of an account had its sequence numbers reset. */
        void reset(long account);
    }

    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final ExcerptTailer reader;
    private long lastEventsIndex = Long.MIN_VALUE;

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
        boolean any = false;
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                any = true;
                final Bytes<?> in = dc.wire().bytes();
                final long storeIndex = dc.index();
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
                    case BATCH -> recoverBatch(in, at, storeIndex, visitor);
                    case RESET -> visitor.reset(in.readLong(at + ACCOUNT_OFFSET));
                    case START -> lastEventsIndex = in.readLong(at + EVENTS_INDEX_OFFSET);
                    default -> throw new IllegalStateException("outbound store " + queue.file() + ": excerpt "
                        + Long.toHexString(storeIndex) + " has unknown kind " + kind);
                }
            }
        }
        return any;
    }

    private void recoverBatch(final Bytes<?> in, final long at, final long storeIndex, final Visitor visitor) {
        if (in.readRemaining() < BATCH_OFFSET) {
            throw new IllegalStateException("outbound store " + queue.file() + ": excerpt " + Long.toHexString(storeIndex)
                + " is truncated");
        }
        final long events = in.readLong(at + EVENTS_INDEX_OFFSET);
        if (events >= 0) {
            lastEventsIndex = events;
        }
        long entry = at + BATCH_OFFSET;
        long remaining = in.readInt(at + BATCH_LENGTH_OFFSET);
        while (remaining >= ENTRY_HEADER) {
            final long next = entryEnd(in, entry);
            if (next < 0) {
                throw new IllegalStateException("outbound store " + queue.file() + ": excerpt " + Long.toHexString(storeIndex)
                    + " is truncated");
            }
            visitor.message(in.readLong(entry + ENTRY_ACCOUNT_OFFSET), in.readInt(entry + ENTRY_SEQ_OFFSET),
                in.readInt(entry + ENTRY_MSG_TYPE_OFFSET), storeIndex);
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

    /** Appends one batch (entries as described above; batch must be backed by a byte[]) and returns its store index. */
    public long append(final long eventsIndex, final DirectBuffer batch, final int length) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            final long at = out.writePosition();
            out.writeSkip(BATCH_OFFSET + length);
            out.writeByte(at + KIND_OFFSET, BATCH);
            out.writeByte(at + VERSION_OFFSET, VERSION);
            out.writeLong(at + EVENTS_INDEX_OFFSET, eventsIndex);
            out.writeInt(at + BATCH_LENGTH_OFFSET, length);
            out.write(at + BATCH_OFFSET, batch.byteArray(), 0, length);
        }
        if (eventsIndex >= 0) {
            lastEventsIndex = eventsIndex;
        }
        return appender.lastIndexAppended();
    }

    /**
     * Copies the message with this sequence number for this account out of the batch at storeIndex
     * into dst at 0.
     *
     * @return its length, or -1 when it is not there (a damaged store)
     */
    public int read(final long storeIndex, final long account, final int seq, final MutableDirectBuffer dst) {
        if (!reader.moveToIndex(storeIndex)) {
            return -1;
        }
        try (DocumentContext dc = reader.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            final Bytes<?> in = dc.wire().bytes();
            final long at = in.readPosition();
            if (in.readRemaining() < BATCH_OFFSET || in.readByte(at + KIND_OFFSET) != BATCH
                || in.readByte(at + VERSION_OFFSET) != VERSION) {
                return -1;
            }
            long entry = at + BATCH_OFFSET;
            long remaining = in.readInt(at + BATCH_LENGTH_OFFSET);
            while (remaining >= ENTRY_HEADER) {
                final long next = entryEnd(in, entry);
                if (next < 0) {
                    return -1;
                }
                if (in.readLong(entry + ENTRY_ACCOUNT_OFFSET) == account && in.readInt(entry + ENTRY_SEQ_OFFSET) == seq) {
                    final int length = (int) (next - entry - ENTRY_HEADER);
                    if (length > dst.capacity()) {
                        return -1;
                    }
                    for (int i = 0; i < length; i++) {
                        dst.putByte(i, in.readByte(entry + ENTRY_HEADER + i));
                    }
                    return length;
                }
                remaining -= next - entry;
                entry = next;
            }
            return -1;
        }
    }

    @Override
    public void close() {
        queue.close();
    }
}
