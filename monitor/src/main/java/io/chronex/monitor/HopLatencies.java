package io.chronex.monitor;

import io.chronex.queues.Hops;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Per-hop latency histograms from the hop timestamps an events excerpt carries, each hop recorded
 * into a plain HdrHistogram for the current interval and accumulated since start at each interval.
 * One thread records and rolls (the monitor's; its faces get rendered copies), so no Recorder: its
 * atomic counts were a sixth of the monitor's CPU per excerpt.
 * Every hop is a difference of two System.nanoTime readings, the one clock all processes on a host share.
 *
 * <p>The last minute is a ring of the last {@link #windowIntervals()} interval histograms and their
 * sum, kept by adding the newest interval and subtracting the one that falls out (two passes over a
 * histogram per hop and interval, whatever the window). The ring's histograms are allocated once
 * and reset, never reallocated per interval; they keep 2 significant digits (values within 1%) and
 * int counts, so a ring of 600 intervals × 5 hops stays within a few MiB even with hops of seconds.
 */
public final class HopLatencies {
    /** The hops, in the order a command travels them. */
    public enum Hop {
        /** gateway socket read to gateway append (decode, checks, encode). */
        GATEWAY("gateway"),
        /** gateway append to engine read: the commands queue, including any queueing behind other commands. */
        JOURNAL("journal"),
        /** engine read to engine done: decode and match. */
        MATCH("match"),
        /** engine done to engine append: the start of the events write. */
        EVENTS("events"),
        /** gateway read (or append, when the command was not read from a socket) to engine append. */
        TOTAL("total"),
        /** engine append to the gateway's read of the result (the events queue): from the gateway's return records. */
        RETURN("return"),
        /** the gateway's read of the result to the answer's socket write: from its return records. */
        WRITE("write"),
        /** gateway socket read to the answer's socket write: wire to wire, for answers the gateway recorded. */
        WIRE("wire");

        public final String label;

        Hop(final String label) {
            this.label = label;
        }
    }

    private static final Hop[] HOPS = Hop.values();
    private final Histogram[] current = new Histogram[HOPS.length];
    private final Histogram[] interval = new Histogram[HOPS.length];
    private final Histogram[] sinceStart = new Histogram[HOPS.length];
    /** Largest ring: intervals under 100 ms make the window shorter than a minute rather than the ring bigger. */
    public static final int MAX_WINDOW_INTERVALS = 600;
    private final int window;
    private final AbstractHistogram[][] ring;
    private final Histogram[] lastMinute = new Histogram[HOPS.length];
    private int ringNext;
    private int ringFilled;
    /** Hops whose ended interval is not in their sums yet (see {@link #endInterval}). */
    private int toAccumulate;

    /** With a last-minute window of 60 intervals (one minute at the default 1 s interval). */
    public HopLatencies() {
        this(60);
    }

    /**
     * @param windowIntervals intervals summed into the last-minute histograms: ceil(60 s / interval) (see
     *                        {@link #windowIntervals(long)}), 1..{@link #MAX_WINDOW_INTERVALS}
     */
    public HopLatencies(final int windowIntervals) {
        if (windowIntervals < 1 || windowIntervals > MAX_WINDOW_INTERVALS) {
            throw new IllegalArgumentException("window of " + windowIntervals + " intervals: 1.." + MAX_WINDOW_INTERVALS);
        }
        window = windowIntervals;
        ring = new AbstractHistogram[HOPS.length][windowIntervals];
        for (int i = 0; i < HOPS.length; i++) {
            lastMinute[i] = new Histogram(2);
            for (int j = 0; j < windowIntervals; j++) {
                ring[i][j] = new IntCountsHistogram(2);
            }
            // Auto-resizing, 3 digits: a backlog answered long after it was appended is a legitimate, huge, journal hop.
            current[i] = new Histogram(3);
            current[i].setStartTimeStamp(System.currentTimeMillis());
            interval[i] = new Histogram(3);
            sinceStart[i] = new Histogram(3);
        }
    }

    /**
     * Where {@link #record} and {@link #recordReturn} put their values: the current interval's histograms, or, for
     * history (excerpts that were in the queues before the monitor started, read as it catches up), the since-start ones
     * alone, so a restarted monitor's catch-up is not shown as the last interval's or the last minute's traffic.
     */
    private Histogram[] recordInto = current;

    /** Whether what is recorded next is history (see {@link #recordInto}). */
    public void history(final boolean history) {
        recordInto = history ? sinceStart : current;
    }

    /** Records the hops of one result; a hop whose start or end was not recorded (0) is left out. */
    public void record(final Hops h) {
        if (h.gatewayReadNanos != 0 && h.gatewayAppendNanos != 0) {
            recordHop(Hop.GATEWAY, h.gatewayAppendNanos - h.gatewayReadNanos);
        }
        if (h.gatewayAppendNanos != 0 && h.engineReadNanos != 0) {
            recordHop(Hop.JOURNAL, h.engineReadNanos - h.gatewayAppendNanos);
        }
        if (h.engineReadNanos != 0 && h.engineDoneNanos != 0) {
            recordHop(Hop.MATCH, h.engineDoneNanos - h.engineReadNanos);
        }
        if (h.engineDoneNanos != 0 && h.engineAppendNanos != 0) {
            recordHop(Hop.EVENTS, h.engineAppendNanos - h.engineDoneNanos);
        }
        final long start = h.gatewayReadNanos != 0 ? h.gatewayReadNanos : h.gatewayAppendNanos;
        if (start != 0 && h.engineAppendNanos != 0) {
            recordHop(Hop.TOTAL, h.engineAppendNanos - start);
        }
    }

    /**
     * Records the return hops of one answer from its gateway's return record ({@code ReturnHops}) joined to its
     * result's hops: engine append, gateway read (0: not recorded), gateway event read, socket write.
     */
    public void recordReturn(final long engineAppendNanos, final long gatewayReadNanos, final long eventReadNanos,
                             final long socketWriteNanos) {
        if (engineAppendNanos != 0 && eventReadNanos != 0) {
            recordHop(Hop.RETURN, eventReadNanos - engineAppendNanos);
        }
        if (eventReadNanos != 0 && socketWriteNanos != 0) {
            recordHop(Hop.WRITE, socketWriteNanos - eventReadNanos);
        }
        if (gatewayReadNanos != 0 && socketWriteNanos != 0) {
            recordHop(Hop.WIRE, socketWriteNanos - gatewayReadNanos);
        }
    }

    private void recordHop(final Hop hop, final long nanos) {
        // Clamped: two cores' readings of CLOCK_MONOTONIC agree, but a hand-built excerpt may not.
        recordInto[hop.ordinal()].recordValue(Math.max(0, nanos));
    }

    /** The intervals in a minute: ceil(60 s / interval), at most {@link #MAX_WINDOW_INTERVALS}. */
    public static int windowIntervals(final long intervalNanos) {
        final long minute = 60_000_000_000L;
        final long n = (minute + intervalNanos - 1) / Math.max(1, intervalNanos);
        return (int) Math.max(1, Math.min(MAX_WINDOW_INTERVALS, n));
    }

    /**
     * Ends the current interval: {@link #interval} then holds what was recorded since the previous
     * call, and {@link #lastMinute} the last {@link #windowIntervals()} intervals, this one included.
     */
    public void rollInterval() {
        endInterval();
        while (accumulateNext()) {
            // every hop's sums
        }
    }

    /**
     * The first half of {@link #rollInterval}, at once for every hop: the interval's histograms become
     * {@link #interval}, recording goes on into emptied ones. The since-start and last-minute sums are
     * left to {@link #accumulateNext}, one hop a call, so a caller can pause between them: each is a walk
     * over the hop's histograms, and all of them at once held a CPU the monitor shares for milliseconds.
     */
    public void endInterval() {
        while (accumulateNext()) {
            // a previous interval's sums first, should a caller not have finished them
        }
        // Interval start and end in epoch ms, as a Recorder stamps them: the --hlog file's interval times.
        final long nowMillis = System.currentTimeMillis();
        for (int i = 0; i < HOPS.length; i++) {
            // Swapped, not copied: the finished interval's histogram becomes interval[i], the old one is reused.
            final Histogram finished = current[i];
            current[i] = interval[i];
            current[i].reset();
            current[i].setStartTimeStamp(nowMillis);
            finished.setEndTimeStamp(nowMillis);
            interval[i] = finished;
        }
        toAccumulate = HOPS.length;
    }

    /** Adds the next hop's ended interval to its since-start and last-minute sums; false when every hop's is in. */
    public boolean accumulateNext() {
        if (toAccumulate == 0) {
            return false;
        }
        final int i = HOPS.length - toAccumulate;
        sinceStart[i].add(interval[i]);
        final AbstractHistogram slot = ring[i][ringNext];
        if (ringFilled == window) {
            lastMinute[i].subtract(slot);
        }
        slot.reset();
        slot.add(interval[i]);
        lastMinute[i].add(slot);
        if (--toAccumulate == 0) {
            ringNext = (ringNext + 1) % window;
            ringFilled = Math.min(window, ringFilled + 1);
        }
        return true;
    }

    /** The sum of the last {@link #windowIntervals()} completed intervals of a hop (fewer until that many have ended); 2 digits. */
    public Histogram lastMinute(final Hop hop) {
        return lastMinute[hop.ordinal()];
    }

    /** How many intervals the last-minute window holds when full. */
    public int windowIntervals() {
        return window;
    }

    /** How many intervals it holds now (less than {@link #windowIntervals()} during the first minute). */
    public int windowFilled() {
        return ringFilled;
    }

    /** The last completed interval's histogram of a hop (see {@link #rollInterval}). */
    public Histogram interval(final Hop hop) {
        return interval[hop.ordinal()];
    }

    /** Everything recorded up to the last {@link #rollInterval}. */
    public Histogram sinceStart(final Hop hop) {
        return sinceStart[hop.ordinal()];
    }
}
