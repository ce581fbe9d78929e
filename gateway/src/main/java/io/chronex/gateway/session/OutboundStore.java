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
 */
public final class OutboundStore implements AutoCloseable {
    public static final int ENTRY_HEADER = 20;
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
                if (in.readRemaining() < 10) {
                    throw new IllegalStateException("outbound store " + queue.file() + ": excerpt " + Long.toHexString(storeIndex) + " is truncated");
                }
                final byte kind = in.readByte();
                final byte version = in.readByte();
                if (version != VERSION) {
                    throw new IllegalStateException("outbound store " + queue.file() + ": excerpt " + Long.toHexString(storeIndex)
                        + " has version " + version + "; this build reads " + VERSION);
                }
                switch (kind) {
                    case BATCH -> {
                        final long events = in.readLong();
                        if (events >= 0) {
                            lastEventsIndex = events;
                        }
                        long remaining = in.readInt();
                        while (remaining >= ENTRY_HEADER) {
                            final long account = in.readLong();
                            final int seq = in.readInt();
                            final int msgType = in.readInt();
                            final int length = in.readInt();
                            visitor.message(account, seq, msgType, storeIndex);
                            in.readSkip(length);
                            remaining -= ENTRY_HEADER + length;
                        }
                    }
                    case RESET -> visitor.reset(in.readLong());
                    case START -> lastEventsIndex = in.readLong();
                    default -> throw new IllegalStateException("outbound store " + queue.file() + ": excerpt "
                        + Long.toHexString(storeIndex) + " has unknown kind " + kind);
                }
            }
        }
        return any;
    }

    /** The last events index handled (or marked as the start), Long.MIN_VALUE if none. */
    public long lastEventsIndex() {
        return lastEventsIndex;
    }

    /** Records where a new gateway starts reading events: after the one at this index. */
    public void markStart(final long eventsIndex) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            out.writeByte(START);
            out.writeByte(VERSION);
            out.writeLong(eventsIndex);
        }
        lastEventsIndex = eventsIndex;
    }

    public void markReset(final long account) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            out.writeByte(RESET);
            out.writeByte(VERSION);
            out.writeLong(account);
        }
    }

    /** Appends one batch (entries as described above; batch must be backed by a byte[]) and returns its store index. */
    public long append(final long eventsIndex, final DirectBuffer batch, final int length) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> out = dc.wire().bytes();
            out.writeByte(BATCH);
            out.writeByte(VERSION);
            out.writeLong(eventsIndex);
            out.writeInt(length);
            out.write(batch.byteArray(), 0, length);
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
            if (in.readByte() != BATCH || in.readByte() != VERSION) {
                return -1;
            }
            in.readLong();
            long remaining = in.readInt();
            while (remaining >= ENTRY_HEADER) {
                final long entryAccount = in.readLong();
                final int entrySeq = in.readInt();
                in.readInt();
                final int length = in.readInt();
                if (entryAccount == account && entrySeq == seq) {
                    if (length > dst.capacity()) {
                        return -1;
                    }
                    for (int i = 0; i < length; i++) {
                        dst.putByte(i, in.readByte());
                    }
                    return length;
                }
                in.readSkip(length);
                remaining -= ENTRY_HEADER + length;
            }
            return -1;
        }
    }

    @Override
    public void close() {
        queue.close();
    }
}
