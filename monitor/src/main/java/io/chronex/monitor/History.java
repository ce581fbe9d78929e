package io.chronex.monitor;

import org.HdrHistogram.Histogram;

/**
 * The last {@link #CAPACITY} intervals' figures, for the page's time series: so a page opened late
 * still shows the last minutes, not only what happens after it connects. A ring of primitive arrays,
 * one point appended per interval by the monitor's thread.
 */
public final class History {
    /** Points kept: five minutes at the default 1 s interval. */
    public static final int CAPACITY = 300;
    private static final HopLatencies.Hop[] HOPS = HopLatencies.Hop.values();

    private final double[] epochSeconds = new double[CAPACITY];
    private final double[] commandsPerSecond = new double[CAPACITY];
    private final double[] eventsPerSecond = new double[CAPACITY];
    private final long[] backlog = new long[CAPACITY];
    /** Milliseconds; negative when the oldest waiting command carried no timestamp. */
    private final double[] backlogAgeMs = new double[CAPACITY];
    /** Per hop, microseconds over the interval; NaN when the hop recorded nothing in it. */
    private final double[][] p50 = new double[HOPS.length][CAPACITY];
    private final double[][] p99 = new double[HOPS.length][CAPACITY];
    private final double[][] max = new double[HOPS.length][CAPACITY];
    private int next;
    private int size;
    private final AlertHistory alerts = new AlertHistory();

    /** What the alerts did over the monitor's run. */
    public AlertHistory alerts() {
        return alerts;
    }

    /** Appends the interval just rolled: its length in seconds and the model's interval figures. */
    public void add(final double epochSeconds, final double intervalSeconds, final MonitorModel model, final long backlogAgeNanos) {
        final int i = next;
        this.epochSeconds[i] = epochSeconds;
        commandsPerSecond[i] = model.lastIntervalCommands() / intervalSeconds;
        eventsPerSecond[i] = model.lastIntervalEvents() / intervalSeconds;
        backlog[i] = model.backlog().count();
        backlogAgeMs[i] = backlogAgeNanos < 0 ? -1 : backlogAgeNanos / 1e6;
        for (final HopLatencies.Hop hop : HOPS) {
            final Histogram h = model.latencies().interval(hop);
            final boolean empty = h.getTotalCount() == 0;
            p50[hop.ordinal()][i] = empty ? Double.NaN : h.getValueAtPercentile(50) / 1e3;
            p99[hop.ordinal()][i] = empty ? Double.NaN : h.getValueAtPercentile(99) / 1e3;
            max[hop.ordinal()][i] = empty ? Double.NaN : h.getMaxValue() / 1e3;
        }
        next = (next + 1) % CAPACITY;
        size = Math.min(size + 1, CAPACITY);
    }

    /** Points held, at most {@link #CAPACITY}. */
    public int size() {
        return size;
    }

    /** The ring position of the {@code n}-th oldest point held. */
    private int at(final int n) {
        return (next - size + n + CAPACITY) % CAPACITY;
    }

    public double epochSeconds(final int n) {
        return epochSeconds[at(n)];
    }

    public double commandsPerSecond(final int n) {
        return commandsPerSecond[at(n)];
    }

    public double eventsPerSecond(final int n) {
        return eventsPerSecond[at(n)];
    }

    public long backlog(final int n) {
        return backlog[at(n)];
    }

    public double backlogAgeMs(final int n) {
        return backlogAgeMs[at(n)];
    }

    public double p50(final HopLatencies.Hop hop, final int n) {
        return p50[hop.ordinal()][at(n)];
    }

    public double p99(final HopLatencies.Hop hop, final int n) {
        return p99[hop.ordinal()][at(n)];
    }

    public double max(final HopLatencies.Hop hop, final int n) {
        return max[hop.ordinal()][at(n)];
    }
}
