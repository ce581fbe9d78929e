package io.chronex.replay.latency;

import io.chronex.api.CommandType;
import io.chronex.replay.latency.WireToWire.Hop;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/** The latency report's tables and number formats. */
public final class LatencyReportText {
    /** The percentiles of every table; 100 is the max. */
    static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99, 100};

    private LatencyReportText() {
    }

    /** One row per hop with something recorded: p50 p90 p99 p99.9 p99.99 max (µs), then the count. */
    public static void hops(final LatencyAnalysis analysis, final PrintStream out) {
        out.printf(Locale.ROOT, "%-10s %9s %9s %9s %9s %9s %9s %9s  (microseconds)%n", "hop", "p50", "p90", "p99", "p99.9", "p99.99", "max",
            "n");
        for (final Hop hop : Hop.values()) {
            row(hop.label, analysis.all(hop), out);
        }
    }

    /** Per command type, the end-to-end hop's percentiles. */
    public static void byType(final LatencyAnalysis analysis, final Hop endToEnd, final PrintStream out) {
        out.printf(Locale.ROOT, "%s by command type:%n", endToEnd.label);
        for (final Map.Entry<CommandType, Histogram[]> e : analysis.byType().entrySet()) {
            row(e.getKey().name().toLowerCase(Locale.ROOT), e.getValue()[endToEnd.ordinal()], out);
        }
    }

    private static void row(final String name, final Histogram h, final PrintStream out) {
        if (h.getTotalCount() == 0) {
            return;
        }
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-10s", name));
        for (final double p : PERCENTILES) {
            line.append(String.format(Locale.ROOT, " %9.2f", value(h, p) / 1e3));
        }
        line.append(String.format(Locale.ROOT, " %9d", h.getTotalCount()));
        out.println(line);
    }

    /** The engine's throughput over the results counted, when known; bench scripts read this line. */
    public static void throughput(final LatencyAnalysis analysis, final PrintStream out) {
        if (!Double.isNaN(analysis.engineRate())) {
            out.printf(Locale.ROOT, "engine throughput: %,.0f commands/s (first read to last append, %.3f s;"
                + " the offered rate when paced)%n", analysis.engineRate(), analysis.engineSeconds());
        }
    }

    /** The value at a percentile, the max for 100. */
    static long value(final Histogram h, final double percentile) {
        return percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
    }

    /** 99.9 as "99.9", 50 as "50". */
    static String percentile(final double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : String.format(Locale.ROOT, "%.6f", p).replaceAll("0+$", "");
    }

    /** Nanoseconds as microseconds, with as many decimals as small values need. */
    static String micros(final double nanos) {
        final double us = nanos / 1e3;
        return us >= 100 ? String.format(Locale.ROOT, "%,.0f", us) : us >= 1 ? String.format(Locale.ROOT, "%.1f", us)
            : String.format(Locale.ROOT, "%.2f", us);
    }

    static String seconds(final double s) {
        return s == Math.rint(s) ? Long.toString((long) s) : String.format(Locale.ROOT, "%.1f", s);
    }

    static String duration(final long nanos) {
        return nanos % 1_000_000_000L == 0 ? nanos / 1_000_000_000L + " s" : nanos / 1_000_000L + " ms";
    }
}
