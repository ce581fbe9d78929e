package io.chronex.queues;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.text.ParseException;

/**
 * Where a time window starts in a queue, found by binary search over the queue's own index instead of
 * a read from the start: a few dozen excerpts read whatever the queue's length. It relies on receipt
 * times rising with the queue's order, which they do up to the small disorder of several gateways
 * appending to one journal; callers search for a time earlier by {@link #SLACK_NANOS} and filter
 * exactly as they read on.
 */
public final class TimeSeek {
    /** How far apart in receipt time two commands may be journalled out of order (two gateways, one slow append). */
    public static final long SLACK_NANOS = 1_000_000_000L;

    /** An excerpt's receipt time, epoch nanoseconds; {@link Long#MIN_VALUE} when the excerpt does not say. */
    @FunctionalInterface
    public interface ReceiptTime {
        long of(Bytes<?> excerpt);
    }

    /** The receipt time of a commands excerpt (one reader each: it keeps its own decoding objects). */
    public static ReceiptTime commands() {
        final io.chronex.api.Command command = new io.chronex.api.Command();
        final Hops hops = new Hops();
        return excerpt -> {
            hops.clear();
            return CommandCodec.read(excerpt, command, hops) == DecodeStatus.OK ? known(hops.receiptEpochNanos) : Long.MIN_VALUE;
        };
    }

    /** The receipt time of the command an events excerpt answers. */
    public static ReceiptTime events() {
        final EventHeader header = new EventHeader();
        return excerpt -> EventCodec.readHeader(excerpt, header) == DecodeStatus.OK ? known(header.hops.receiptEpochNanos) : Long.MIN_VALUE;
    }

    /**
     * Not a time: the journal index an events excerpt answers, which rises strictly along the events queue, so that the
     * same search finds the result of a given command ({@code bin/audit verify} starting part way).
     */
    public static ReceiptTime commandAnswered() {
        final EventHeader header = new EventHeader();
        return excerpt -> EventCodec.readHeader(excerpt, header) == DecodeStatus.OK ? header.commandIndex : Long.MIN_VALUE;
    }

    /** 0 is "not recorded" (the answer to an excerpt that was not a command has no receipt time). */
    private static long known(final long receiptEpochNanos) {
        return receiptEpochNanos == 0 ? Long.MIN_VALUE : receiptEpochNanos;
    }

    private TimeSeek() {
    }

    /**
     * The index of the first excerpt received at or after {@code epochNanos} (as far as the search can
     * tell), or -1 when the queue is empty or every excerpt is earlier. Moves the tailer; the caller moves it
     * where it wants next.
     */
    public static long firstAtOrAfter(final SingleChronicleQueue queue, final ExcerptTailer tailer, final long epochNanos,
                                      final ReceiptTime receipt) {
        final long first = queue.firstIndex();
        final long last = queue.lastIndex();
        if (first == Long.MAX_VALUE || last < 0 || first > last) {
            return -1;
        }
        final RollCycle roll = queue.rollCycle();
        // The cycle (a day's file) to search: the last one whose first excerpt is earlier than the time.
        int cycle = roll.toCycle(first);
        final int lastCycle = roll.toCycle(last);
        for (int c = cycle; c >= 0 && c <= lastCycle; c = next(queue, c)) {
            final long t = receiptAt(tailer, roll.toIndex(c, 0), receipt);
            if (t != Long.MIN_VALUE && t >= epochNanos) {
                break;
            }
            cycle = c;
            if (c == lastCycle) {
                break;
            }
        }
        long low = roll.toIndex(cycle, 0);
        long high = cycle == lastCycle ? last : roll.toIndex(cycle, 0) + queue.countExcerpts(roll.toIndex(cycle, 0),
            roll.toIndex(next(queue, cycle), 0)) - 1;
        if (receiptAt(tailer, low, receipt) >= epochNanos) {
            return low;
        }
        if (receiptAt(tailer, high, receipt) < epochNanos) {
            return cycle == lastCycle ? -1 : roll.toIndex(next(queue, cycle), 0);
        }
        // Invariant: receipt(low) < time <= receipt(high). An excerpt without a time (one that is not a command) takes the
        // time of the next one that has one, so the order the search relies on holds across it.
        while (high - low > 1) {
            final long mid = low + (high - low) / 2;
            if (receiptFrom(tailer, mid, high, receipt) >= epochNanos) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high;
    }

    private static int next(final SingleChronicleQueue queue, final int cycle) {
        try {
            return queue.nextCycle(cycle, TailerDirection.FORWARD);
        } catch (final ParseException e) {
            return -1;
        }
    }

    /** The receipt time of the first excerpt from index on (up to {@code limit}) that has one; Long.MAX_VALUE when none does. */
    private static long receiptFrom(final ExcerptTailer tailer, final long index, final long limit, final ReceiptTime receipt) {
        if (!tailer.moveToIndex(index)) {
            return Long.MAX_VALUE;
        }
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent() || dc.index() > limit) {
                    return Long.MAX_VALUE;
                }
                final long t = receipt.of(dc.wire().bytes());
                if (t != Long.MIN_VALUE) {
                    return t;
                }
            }
        }
    }

    private static long receiptAt(final ExcerptTailer tailer, final long index, final ReceiptTime receipt) {
        if (!tailer.moveToIndex(index)) {
            return Long.MIN_VALUE;
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            return dc.isPresent() ? receipt.of(dc.wire().bytes()) : Long.MIN_VALUE;
        }
    }
}
