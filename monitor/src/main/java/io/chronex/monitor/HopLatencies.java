package io.chronex.monitor;

import io.chronex.queues.Hops;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Per-hop latency histograms from the hop timestamps an events excerpt carries, each hop recorded
 * into an HdrHistogram {@link Recorder} (so a reader thread, such as a future HTTP face, can take
 * interval histograms while the tailing thread records) and accumulated since start at each interval.
 * Every hop is a difference of two System.nanoTime readings, the one clock all processes on a host share.
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
        TOTAL("total");

        public final String label;

        Hop(final String label) {
            this.label = label;
        }
    }

    private static final Hop[] HOPS = Hop.values();
    private final Recorder[] recorders = new Recorder[HOPS.length];
    private final Histogram[] interval = new Histogram[HOPS.length];
    private final Histogram[] sinceStart = new Histogram[HOPS.length];

    public HopLatencies() {
        for (int i = 0; i < HOPS.length; i++) {
            // Auto-resizing, 3 digits: a backlog answered long after it was appended is a legitimate, huge, journal hop.
            recorders[i] = new Recorder(3);
            // Taken from the recorder (empty): it accepts only its own histograms back for recycling.
            interval[i] = recorders[i].getIntervalHistogram();
            sinceStart[i] = new Histogram(3);
        }
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

    private void recordHop(final Hop hop, final long nanos) {
        // Clamped: two cores' readings of CLOCK_MONOTONIC agree, but a hand-built excerpt may not.
        recorders[hop.ordinal()].recordValue(Math.max(0, nanos));
    }

    /** Ends the current interval: {@link #interval} then holds what was recorded since the previous call. */
    public void rollInterval() {
        for (int i = 0; i < HOPS.length; i++) {
            interval[i] = recorders[i].getIntervalHistogram(interval[i]);
            sinceStart[i].add(interval[i]);
        }
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
