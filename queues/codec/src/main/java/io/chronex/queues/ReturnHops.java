package io.chronex.queues;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The return path's hop times, which only a gateway knows: for each command it answers straight onto
 * its client's socket, when it read the result from the events queue and when the answer went out.
 * A gateway appends them to a queue of its own ({@link DataDirectory#gatewayReturns}), one excerpt per
 * batch of answers, so that latency tools can join them to the events' hops by events index and get
 * the wire-to-wire latency of every order.
 *
 * <p>Excerpt layout (little-endian): {@code 'W' | u8 version | i32 count | count × (i64 events index |
 * i64 event read nanos | i64 socket write nanos)}. Times are System.nanoTime, the clock of every other
 * hop. Within one gateway's queue the events indexes rise (it reads the events in order).
 */
public final class ReturnHops {
    private static final byte KIND = 'W';
    private static final byte VERSION = 1;
    private static final int COUNT_OFFSET = 2;
    private static final int RECORDS_OFFSET = 6;
    private static final int RECORD_LENGTH = 24;
    /** Records per excerpt at most: a batch with more is written as several excerpts. */
    public static final int MAX_BATCH = 1024;

    private ReturnHops() {
    }

    /**
     * Collects the answers queued for their sockets in one pass of the gateway, then, once the pass has
     * written its output, stamps them all with that time and appends them as one excerpt: one clock read
     * and one append per pass, nothing allocated.
     */
    public static final class Writer {
        private final ExcerptAppender appender;
        private final long[] eventsIndex = new long[MAX_BATCH];
        private final long[] readNanos = new long[MAX_BATCH];
        private int count;

        public Writer(final ExcerptAppender appender) {
            this.appender = appender;
        }

        /**
         * An answer queued for its socket in this pass. A pass that queues more than {@link #MAX_BATCH}
         * answers stamps the first ones early, with the time they were queued.
         */
        public void add(final long eventsIndexOfResult, final long eventReadNanos) {
            if (count == MAX_BATCH) {
                flush(System.nanoTime());
            }
            eventsIndex[count] = eventsIndexOfResult;
            readNanos[count] = eventReadNanos;
            count++;
        }

        /** The pass's output was written at {@code socketWriteNanos}: appends its records, if any. */
        public void flush(final long socketWriteNanos) {
            if (count == 0) {
                return;
            }
            try (DocumentContext dc = appender.writingDocument()) {
                final Bytes<?> bytes = dc.wire().bytes();
                bytes.writeByte(KIND);
                bytes.writeByte(VERSION);
                bytes.writeInt(count);
                for (int i = 0; i < count; i++) {
                    bytes.writeLong(eventsIndex[i]);
                    bytes.writeLong(readNanos[i]);
                    bytes.writeLong(socketWriteNanos);
                }
            } finally {
                count = 0;
            }
        }

        /** Answers added and not yet appended. */
        public int pending() {
            return count;
        }
    }

    /** Reads one gateway's records in order, one at a time, so a reader can merge them with the events by index. */
    public static final class Cursor {
        private final ExcerptTailer tailer;
        private long[] records = new long[MAX_BATCH * 3];
        private int count;
        private int next;
        private long unreadable;
        /** The current record (valid while {@link #advance} last returned true). */
        public long eventsIndex;
        public long eventReadNanos;
        public long socketWriteNanos;

        public Cursor(final ExcerptTailer tailer) {
            this.tailer = tailer;
        }

        /** Moves to the next record; false at the end of what is there. */
        public boolean advance() {
            while (next == count) {
                if (!readExcerpt()) {
                    return false;
                }
            }
            eventsIndex = records[next * 3];
            eventReadNanos = records[next * 3 + 1];
            socketWriteNanos = records[next * 3 + 2];
            next++;
            return true;
        }

        /** Excerpts that were not return records (or were cut short), passed over. */
        public long unreadable() {
            return unreadable;
        }

        private boolean readExcerpt() {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return false;
                }
                final Bytes<?> bytes = dc.wire().bytes();
                final long start = bytes.readPosition();
                final long length = bytes.readRemaining();
                final int n = length >= RECORDS_OFFSET ? bytes.readInt(start + COUNT_OFFSET) : -1;
                if (length < RECORDS_OFFSET || bytes.readByte(start) != KIND || bytes.readByte(start + 1) != VERSION || n < 0
                    || n > MAX_BATCH || length < RECORDS_OFFSET + (long) n * RECORD_LENGTH) {
                    unreadable++;
                    count = 0;
                    next = 0;
                    return true;
                }
                if (records.length < n * 3) {
                    records = new long[n * 3];
                }
                for (int i = 0; i < n * 3; i++) {
                    records[i] = bytes.readLong(start + RECORDS_OFFSET + i * 8L);
                }
                count = n;
                next = 0;
                return true;
            }
        }
    }
}
