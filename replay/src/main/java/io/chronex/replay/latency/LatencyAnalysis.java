package io.chronex.replay.latency;

import io.chronex.api.CommandType;
import io.chronex.replay.latency.WireToWire.Hop;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * Per-hop latency histograms of the results in a window: over everything, per command type, and per
 * interval of receipt time (written to an HdrHistogram interval log when one is given, and kept as
 * p50/p99/max series for the plot). Fed by {@link WireToWire}.
 */
public final class LatencyAnalysis implements WireToWire.Visitor {
    private static final Hop[] HOPS = Hop.values();
    /** Percentiles kept per interval for the time series: p50, p99, max. */
    static final int SERIES = 3;

    private final long skip;
    private final long fromEpochNanos;
    private final long toEpochNanos;
    private final long intervalNanos;
    private final HistogramLogWriter hlog;
    private final Histogram[] all = new Histogram[HOPS.length];
    private final Map<CommandType, Histogram[]> byType = new EnumMap<>(CommandType.class);
    private final Histogram[] interval = new Histogram[HOPS.length];
    private long seen;
    private long counted;
    private long firstRead = Long.MAX_VALUE;
    private long lastAppend = Long.MIN_VALUE;
    private long intervalNumber = Long.MIN_VALUE;
    private long firstIntervalNumber = Long.MIN_VALUE;
    /** Per interval: its start (seconds from the first interval's start), then per hop p50, p99, max in ns (-1: none). */
    private double[] seriesStart = new double[64];
    private long[][] series = new long[HOPS.length * SERIES][64];
    private int intervals;

    /**
     * @param skip           results left out first (warm-up), whatever their time
     * @param fromEpochNanos only results of commands received at or after this (Long.MIN_VALUE: no bound)
     * @param toEpochNanos   and before this (Long.MAX_VALUE: no bound)
     * @param intervalNanos  the interval of the time series and the interval log
     * @param hlog           where interval histograms go (one tag per hop), or null
     */
    public LatencyAnalysis(final long skip, final long fromEpochNanos, final long toEpochNanos, final long intervalNanos,
                           final HistogramLogWriter hlog) {
        this.skip = skip;
        this.fromEpochNanos = fromEpochNanos;
        this.toEpochNanos = toEpochNanos;
        this.intervalNanos = intervalNanos;
        this.hlog = hlog;
        for (int i = 0; i < HOPS.length; i++) {
            // Auto-resizing: a backlog answered hours after it was appended is a legitimate (huge) journal hop.
            all[i] = new Histogram(3);
            interval[i] = new Histogram(3);
            interval[i].setTag(HOPS[i].label);
        }
    }

    /** Whether a result counts: past the skip, and received inside the window. */
    boolean counts(final long receiptEpochNanos) {
        return seen > skip && receiptEpochNanos >= fromEpochNanos && receiptEpochNanos < toEpochNanos;
    }

    @Override
    public void result(final long eventsIndex, final CommandType type, final long receiptEpochNanos, final long engineAppendNanos,
                       final long[] nanos) {
        seen++;
        if (!counts(receiptEpochNanos)) {
            return;
        }
        counted++;
        if (nanos[Hop.JOURNAL.ordinal()] >= 0 || nanos[Hop.MATCH.ordinal()] >= 0) {
            firstRead = Math.min(firstRead, engineAppendNanos - Math.max(0, nanos[Hop.MATCH.ordinal()])
                - Math.max(0, nanos[Hop.EVENTS.ordinal()]));
            lastAppend = Math.max(lastAppend, engineAppendNanos);
        }
        final long number = Math.floorDiv(receiptEpochNanos, intervalNanos);
        if (number > intervalNumber) {
            closeInterval();
            intervalNumber = number;
            if (firstIntervalNumber == Long.MIN_VALUE) {
                firstIntervalNumber = number;
            }
        }
        final Histogram[] ofType = type == null ? null : byType.computeIfAbsent(type, t -> newHistograms());
        for (int i = 0; i < HOPS.length; i++) {
            if (nanos[i] >= 0) {
                all[i].recordValue(nanos[i]);
                interval[i].recordValue(nanos[i]);
                if (ofType != null) {
                    ofType[i].recordValue(nanos[i]);
                }
            }
        }
    }

    private static Histogram[] newHistograms() {
        final Histogram[] h = new Histogram[HOPS.length];
        for (int i = 0; i < h.length; i++) {
            h[i] = new Histogram(3);
        }
        return h;
    }

    /** Ends the last interval; call once after the pass. */
    public void finish() {
        closeInterval();
    }

    private void closeInterval() {
        if (intervalNumber == Long.MIN_VALUE) {
            return;
        }
        if (intervals == seriesStart.length) {
            seriesStart = Arrays.copyOf(seriesStart, intervals * 2);
            for (int i = 0; i < series.length; i++) {
                series[i] = Arrays.copyOf(series[i], intervals * 2);
            }
        }
        seriesStart[intervals] = (intervalNumber - firstIntervalNumber) * (intervalNanos / 1e9);
        final long startMillis = intervalNumber * intervalNanos / 1_000_000L;
        for (int i = 0; i < HOPS.length; i++) {
            final Histogram h = interval[i];
            final boolean any = h.getTotalCount() > 0;
            series[i * SERIES][intervals] = any ? h.getValueAtPercentile(50) : -1;
            series[i * SERIES + 1][intervals] = any ? h.getValueAtPercentile(99) : -1;
            series[i * SERIES + 2][intervals] = any ? h.getMaxValue() : -1;
            if (any && hlog != null) {
                h.setStartTimeStamp(startMillis);
                h.setEndTimeStamp(startMillis + intervalNanos / 1_000_000L);
                hlog.outputIntervalHistogram(h);
            }
            h.reset();
            h.setTag(HOPS[i].label);
        }
        intervals++;
    }

    /** Everything counted, per hop. */
    public Histogram all(final Hop hop) {
        return all[hop.ordinal()];
    }

    /** Per command type that had a result counted, per hop. */
    public Map<CommandType, Histogram[]> byType() {
        return byType;
    }

    /** Results read, counted or not. */
    public long seen() {
        return seen;
    }

    /** Results counted (past the skip, inside the window). */
    public long counted() {
        return counted;
    }

    /** Engine throughput over the counted results: first engine read to last engine append, per second; NaN when not known. */
    public double engineRate() {
        return counted > 1 && lastAppend > firstRead ? counted / ((lastAppend - firstRead) / 1e9) : Double.NaN;
    }

    /** Seconds from the first engine read to the last engine append of the counted results. */
    public double engineSeconds() {
        return (lastAppend - firstRead) / 1e9;
    }

    int intervals() {
        return intervals;
    }

    /** The interval's start, in seconds from the first interval's. */
    double intervalStart(final int i) {
        return seriesStart[i];
    }

    /** The hop's p50 (which 0), p99 (1) or max (2) in the interval, in ns; -1 when the hop had nothing then. */
    long intervalValue(final Hop hop, final int which, final int i) {
        return series[hop.ordinal() * SERIES + which][i];
    }

    long intervalNanos() {
        return intervalNanos;
    }
}
