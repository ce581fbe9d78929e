package io.chronex.replay.latency;

import io.chronex.replay.latency.WireToWire.Hop;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The regression gate: this run's percentiles per hop side by side with a baseline's (another data
 * directory, or an interval log such as --hlog writes), with their ratio; the gate fails when a hop's
 * p50, p90 or p99 is more than a given factor worse. The tail past p99 is shown but not gated: on small
 * machines it is the scheduler's, and it moves by large factors from run to run on its own.
 */
public final class Baseline {
    /** The percentiles the gate checks. */
    static final double[] GATED = {50, 90, 99};

    private Baseline() {
    }

    /** A baseline interval log's histograms summed per tag (hop label); hops it has no tag for are absent. */
    public static Map<Hop, Histogram> fromHlog(final Path file) {
        final Map<Hop, Histogram> sums = new EnumMap<>(Hop.class);
        final HistogramLogReader reader;
        try {
            reader = new HistogramLogReader(file.toFile());
        } catch (final FileNotFoundException e) {
            throw new IllegalArgumentException("cannot read the baseline " + file + ": " + e.getMessage());
        }
        try (reader) {
            EncodableHistogram next;
            while ((next = reader.nextIntervalHistogram()) != null) {
                final Hop hop = hop(next.getTag());
                if (hop != null && next instanceof Histogram h) {
                    sums.computeIfAbsent(hop, k -> new Histogram(3)).add(h);
                }
            }
        }
        return sums;
    }

    private static Hop hop(final String tag) {
        for (final Hop hop : Hop.values()) {
            if (hop.label.equals(tag)) {
                return hop;
            }
        }
        return null;
    }

    /** A data directory's analysis as the same map. */
    public static Map<Hop, Histogram> fromAnalysis(final LatencyAnalysis analysis) {
        final Map<Hop, Histogram> hops = new EnumMap<>(Hop.class);
        for (final Hop hop : Hop.values()) {
            if (analysis.all(hop).getTotalCount() > 0) {
                hops.put(hop, analysis.all(hop));
            }
        }
        return hops;
    }

    /**
     * Prints this run against the baseline, hop by hop, and returns how many gated figures are worse
     * than {@code maxRatio} times the baseline's.
     */
    public static int compare(final Map<Hop, Histogram> now, final Map<Hop, Histogram> baseline, final double maxRatio,
                              final PrintStream out) {
        out.printf(Locale.ROOT, "against the baseline: this / baseline, in us; the gate: p50, p90 and p99 of every hop within %.2fx%n",
            maxRatio);
        out.printf(Locale.ROOT, "  %-8s %-6s %12s %12s %8s%n", "hop", "", "this", "baseline", "ratio");
        int worse = 0;
        for (final Hop hop : Hop.values()) {
            final Histogram a = now.get(hop);
            final Histogram b = baseline.get(hop);
            if (a == null || b == null) {
                continue;
            }
            for (final double p : LatencyReportText.PERCENTILES) {
                final double x = LatencyReportText.value(a, p);
                final double y = LatencyReportText.value(b, p);
                final double ratio = x / Math.max(1, y);
                final boolean gated = isGated(p);
                final boolean fails = gated && ratio > maxRatio;
                worse += fails ? 1 : 0;
                out.printf(Locale.ROOT, "  %-8s %-6s %12.2f %12.2f %7.2fx%s%n", hop.label, p >= 100 ? "max" : "p"
                    + LatencyReportText.percentile(p), x / 1e3, y / 1e3, ratio, fails ? "  WORSE" : gated ? "" : "  (not gated)");
            }
        }
        return worse;
    }

    private static boolean isGated(final double p) {
        for (final double g : GATED) {
            if (g == p) {
                return true;
            }
        }
        return false;
    }
}
