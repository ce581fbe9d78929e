package io.chronex.replay.latency;

import io.chronex.api.CommandType;
import io.chronex.replay.latency.WireToWire.Hop;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.Locale;
import java.util.PriorityQueue;

/**
 * Which hop makes slow results slow: for the slowest results by end-to-end time (as many as lie above
 * a high percentile), each hop's share of their end-to-end time, and how many of them each hop
 * dominated. Percentiles of hops do not add up; shares of the same results do, since the hops of one
 * result add up exactly to its end-to-end time.
 */
public final class TailAttribution implements WireToWire.Visitor {
    private final LatencyAnalysis window;
    private final Hop endToEnd;
    private final Hop[] parts;
    private final int keep;
    /** The slowest results so far, fastest of them first: end-to-end time, then each part's. */
    private final PriorityQueue<long[]> slowest = new PriorityQueue<>(Comparator.comparingLong(r -> r[0]));

    /**
     * @param window   decides which results count (the same skip and window as the analysis)
     * @param endToEnd {@link Hop#WIRE} when the gateways recorded the return path, else {@link Hop#TOTAL}
     * @param keep     how many of the slowest results to attribute
     */
    public TailAttribution(final LatencyAnalysis window, final Hop endToEnd, final int keep) {
        this.window = window;
        this.endToEnd = endToEnd;
        this.parts = endToEnd == Hop.WIRE ? Hop.PARTS : new Hop[] {Hop.JOURNAL, Hop.MATCH, Hop.EVENTS};
        this.keep = Math.max(1, keep);
    }

    @Override
    public void result(final long eventsIndex, final CommandType type, final long receiptEpochNanos, final long engineAppendNanos,
                       final long[] nanos) {
        // The analysis's own counting decides the window, so both passes count the same results.
        window.result(eventsIndex, type, receiptEpochNanos, engineAppendNanos, nanos);
        final long total = nanos[endToEnd.ordinal()];
        if (!window.counts(receiptEpochNanos) || total < 0 || (slowest.size() == keep && total <= slowest.peek()[0])) {
            return;
        }
        final long[] r = new long[parts.length + 1];
        r[0] = total;
        for (int i = 0; i < parts.length; i++) {
            r[i + 1] = nanos[parts[i].ordinal()];
            if (r[i + 1] < 0) {
                return; // a part not recorded: nothing to attribute
            }
        }
        slowest.add(r);
        if (slowest.size() > keep) {
            slowest.poll();
        }
    }

    /** Prints the attribution table. */
    public void print(final double percentile, final PrintStream out) {
        final double[] shareSum = new double[parts.length];
        final long[] dominated = new long[parts.length];
        final double[] nanosSum = new double[parts.length];
        long fastest = Long.MAX_VALUE;
        for (final long[] r : slowest) {
            fastest = Math.min(fastest, r[0]);
            int top = 0;
            for (int i = 0; i < parts.length; i++) {
                shareSum[i] += r[0] == 0 ? 0 : (double) r[i + 1] / r[0];
                nanosSum[i] += r[i + 1];
                top = r[i + 1] > r[top + 1] ? i : top;
            }
            dominated[top]++;
        }
        final int n = slowest.size();
        out.printf(Locale.ROOT, "tail: the %,d slowest results by %s (above its p%s; from %.2f us): each hop's share of their %s time%n",
            n, endToEnd.label, LatencyReportText.percentile(percentile), n == 0 ? 0 : fastest / 1e3, endToEnd.label);
        if (n == 0) {
            return;
        }
        out.printf(Locale.ROOT, "  %-8s %12s %14s %12s%n", "hop", "mean share", "mean us", "largest in");
        for (int i = 0; i < parts.length; i++) {
            out.printf(Locale.ROOT, "  %-8s %11.1f%% %14.2f %12d%n", parts[i].label, 100 * shareSum[i] / n, nanosSum[i] / 1e3 / n,
                dominated[i]);
        }
    }
}
