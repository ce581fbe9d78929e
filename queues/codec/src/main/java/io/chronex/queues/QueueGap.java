package io.chronex.queues;

import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.util.concurrent.locks.LockSupport;

/**
 * A stretch of a queue that a forward read cannot get through although the queue says excerpts
 * follow it: what bytes zeroed inside a queue file look like to Chronicle. Its tailer reads a zero
 * header as "nothing written yet" and stops there for good, while the queue's index (kept apart)
 * still knows the excerpts after it, so a reader that trusts "nothing more" reports thousands of
 * results as never written, and exits 0. Found by comparing where a read stopped with the
 * queue's last index.
 *
 * @param from         the first index that cannot be read
 * @param firstReadable the first index after it that can, or -1 when none was found (the stretch
 *                      runs to the end of its cycle's file, or the queue's index is damaged too)
 * @param lastIndex    the queue's last index when it was looked at
 */
public record QueueGap(String queue, long from, long firstReadable, long lastIndex) {
    /** How long a writer may take to complete the excerpt a reader found unwritten, before it counts as a gap. */
    private static final long SETTLE_NANOS = 50_000_000L;

    /**
     * The gap that ended a forward read whose last excerpt was {@code lastRead} (-1: it read none),
     * or null when the read reached the queue's last excerpt. A live writer may have appended since
     * the read ended: the excerpt after {@code lastRead} is looked for again, for up to 50 ms, before
     * the stretch is called a gap.
     */
    public static QueueGap after(final ChronicleQueue queue, final long lastRead) {
        final long deadline = System.nanoTime() + SETTLE_NANOS;
        final ExcerptTailer probe = queue.createTailer();
        while (true) {
            final long last = queue.lastIndex();
            if (last < 0 || last <= lastRead) {
                return null;
            }
            if (readableAfter(probe, lastRead)) {
                return null;
            }
            if (System.nanoTime() > deadline) {
                final long from = lastRead < 0 ? queue.firstIndex() : lastRead + 1;
                return new QueueGap(queue.fileAbsolutePath(), from, firstReadable(probe, from, last), last);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /**
     * Whether the excerpt after lastRead (the first one, for -1) can be read: the tailer is put on lastRead
     * and reads on from it, so a next excerpt in the next cycle's file counts as it does for any reader.
     */
    private static boolean readableAfter(final ExcerptTailer probe, final long lastRead) {
        if (lastRead < 0) {
            probe.toStart();
        } else {
            if (!probe.moveToIndex(lastRead)) {
                return false;
            }
            probe.readingDocument().close(); // past lastRead itself
        }
        try (DocumentContext dc = probe.readingDocument()) {
            return dc.isPresent();
        }
    }

    /**
     * The first index in (from, last] a tailer can be moved to and read at, found by doubling steps and
     * then halving: Chronicle finds an index by scanning from the nearest index entry before it, so every
     * index from a little after the damage to the end of the file reads, and those before do not.
     * Within from's cycle only (indices of another cycle are another file's); -1 when none reads there.
     */
    private static long firstReadable(final ExcerptTailer probe, final long from, final long last) {
        final long cycleEnd = (from | 0xFFFF_FFFFL) < last ? from | 0xFFFF_FFFFL : last;
        if (readsAt(probe, cycleEnd)) {
            long bad = from;
            long good = cycleEnd;
            // Doubling from the damaged end first: most gaps are short, and the readable run ends at cycleEnd.
            for (long step = 1; from + step < good; step <<= 1) {
                if (readsAt(probe, from + step)) {
                    good = from + step;
                    break;
                }
                bad = from + step;
            }
            while (good - bad > 1) {
                final long mid = bad + (good - bad) / 2;
                if (readsAt(probe, mid)) {
                    good = mid;
                } else {
                    bad = mid;
                }
            }
            return good;
        }
        return -1;
    }

    private static boolean readsAt(final ExcerptTailer probe, final long index) {
        if (!probe.moveToIndex(index)) {
            return false;
        }
        try (DocumentContext dc = probe.readingDocument()) {
            return dc.isPresent() && dc.index() == index;
        }
    }

    /** Excerpts the queue's index counts in the gap, where that is known (the gap ends in its own cycle). */
    public long unreadableExcerpts() {
        return firstReadable >= 0 ? firstReadable - from : (from >>> 32) == (lastIndex >>> 32) ? lastIndex - from + 1 : -1;
    }

    /** One line for an operator: which queue, which indices, what it means. */
    public String describe() {
        final long count = unreadableExcerpts();
        return queue + ": excerpts from index 0x" + Long.toHexString(from)
            + (firstReadable >= 0 ? " to 0x" + Long.toHexString(firstReadable - 1) : " onwards (to the end of its cycle's file)")
            + (count >= 0 ? " (" + count + " excerpts)" : "") + " cannot be read, although the queue's last index is 0x"
            + Long.toHexString(lastIndex) + ": the file is damaged there (bytes zeroed or overwritten)";
    }
}
