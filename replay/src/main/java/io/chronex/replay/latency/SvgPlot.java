package io.chronex.replay.latency;

import io.chronex.replay.latency.WireToWire.Hop;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The latency picture as a self-contained SVG: on top, each hop's percentile distribution on a
 * log 1/(1-p) axis (HdrHistogram's convention: 90%, 99%, 99.9%... equally spaced, so the tail is
 * visible); below, the end-to-end p50, p99 and max per interval over time. Both latency axes are
 * logarithmic, since hops differ by orders of magnitude.
 */
public final class SvgPlot {
    private static final int WIDTH = 1000;
    private static final int LEFT = 90;
    private static final int RIGHT = 830;
    private static final int TOP1 = 50;
    private static final int BOTTOM1 = 430;
    private static final int TOP2 = 510;
    private static final int BOTTOM2 = 760;
    private static final int HEIGHT = 810;
    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#7f7f7f", "#000000"};

    private final StringBuilder svg = new StringBuilder();

    private SvgPlot() {
    }

    /** The SVG text for an analysis; {@code endToEnd} is the hop of the time series (wire, or total without return records). */
    public static String render(final LatencyAnalysis analysis, final Hop endToEnd, final String title) {
        final SvgPlot p = new SvgPlot();
        p.svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
            + " font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        p.svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        p.text(WIDTH / 2, 20, "middle", 15, escape(title));
        p.distribution(analysis);
        p.series(analysis, endToEnd);
        p.svg.append("</svg>\n");
        return p.svg.toString();
    }

    private void distribution(final LatencyAnalysis analysis) {
        long count = 0;
        double minUs = Double.MAX_VALUE;
        double maxUs = 0;
        for (final Hop hop : Hop.values()) {
            final Histogram h = analysis.all(hop);
            if (h.getTotalCount() > 0) {
                count = Math.max(count, h.getTotalCount());
                minUs = Math.min(minUs, Math.max(0.01, h.getValueAtPercentile(0) / 1e3));
                maxUs = Math.max(maxUs, h.getMaxValue() / 1e3);
            }
        }
        text(LEFT, TOP1 - 12, "start", 13, "Latency by percentile, per hop (log 1/(1-p) axis)");
        if (count == 0) {
            text((LEFT + RIGHT) / 2, (TOP1 + BOTTOM1) / 2, "middle", 13, "no results");
            return;
        }
        // Nines: as far as the sample count supports (1,000 to 9,999 results: up to 99.9%), at least to 99%.
        final int nines = (int) Math.max(2, Math.min(6, Math.floor(Math.log10(count))));
        final double yLow = Math.floor(Math.log10(minUs));
        final double yHigh = Math.max(yLow + 1, Math.ceil(Math.log10(Math.max(maxUs, minUs))));
        final Axes axes = new Axes(0, nines, yLow, yHigh, TOP1, BOTTOM1);
        for (int n = 0; n <= nines; n++) {
            final String label = n == 0 ? "0%" : LatencyReportText.percentile(100 - 100 / Math.pow(10, n)) + "%";
            final double x = axes.x(n);
            line(x, TOP1, x, BOTTOM1, "#dddddd", null);
            text(x, BOTTOM1 + 16, "middle", 12, label);
        }
        decades(axes, yLow, yHigh);
        text((LEFT + RIGHT) / 2, BOTTOM1 + 34, "middle", 12, "percentile");
        int legend = 0;
        for (final Hop hop : Hop.values()) {
            final Histogram h = analysis.all(hop);
            if (h.getTotalCount() == 0) {
                continue;
            }
            final List<double[]> points = new ArrayList<>();
            for (final HistogramIterationValue v : h.percentiles(5)) {
                final double p = v.getPercentileLevelIteratedTo() / 100;
                final double x = p >= 1 ? nines : Math.min(nines, Math.log10(1 / (1 - p)));
                points.add(new double[] {axes.x(x), axes.y(Math.log10(Math.max(0.01, v.getValueIteratedTo() / 1e3)))});
            }
            // Total is dashed: it is most of the journal hop when commands queue, and would hide that line.
            final String dash = hop == Hop.TOTAL ? "6,3" : null;
            polyline(points, COLOURS[hop.ordinal()], hop == Hop.WIRE || hop == Hop.TOTAL ? "2.5" : "1.5", dash);
            legend(legend++, COLOURS[hop.ordinal()], dash, String.format(Locale.ROOT, "%s p50 %s us", hop.label,
                LatencyReportText.micros(h.getValueAtPercentile(50))), TOP1);
        }
    }

    private void series(final LatencyAnalysis analysis, final Hop hop) {
        final int n = analysis.intervals();
        text(LEFT, TOP2 - 12, "start", 13, String.format(Locale.ROOT, "%s p50, p99 and max per %s interval over time", hop.label,
            LatencyReportText.duration(analysis.intervalNanos())));
        double minUs = Double.MAX_VALUE;
        double maxUs = 0;
        for (int i = 0; i < n; i++) {
            for (int which = 0; which < LatencyAnalysis.SERIES; which++) {
                final long v = analysis.intervalValue(hop, which, i);
                if (v >= 0) {
                    minUs = Math.min(minUs, Math.max(0.01, v / 1e3));
                    maxUs = Math.max(maxUs, v / 1e3);
                }
            }
        }
        if (maxUs == 0) {
            text((LEFT + RIGHT) / 2, (TOP2 + BOTTOM2) / 2, "middle", 13, "no " + hop.label + " times recorded");
            return;
        }
        final double lastStart = Math.max(analysis.intervalStart(n - 1), analysis.intervalNanos() / 1e9);
        final double yLow = Math.floor(Math.log10(minUs));
        final double yHigh = Math.max(yLow + 1, Math.ceil(Math.log10(maxUs)));
        final Axes axes = new Axes(0, lastStart, yLow, yHigh, TOP2, BOTTOM2);
        final double step = niceStep(lastStart);
        for (double t = 0; t <= lastStart + 1e-9; t += step) {
            line(axes.x(t), TOP2, axes.x(t), BOTTOM2, "#dddddd", null);
            text(axes.x(t), BOTTOM2 + 16, "middle", 12, LatencyReportText.seconds(t));
        }
        decades(axes, yLow, yHigh);
        text((LEFT + RIGHT) / 2, BOTTOM2 + 34, "middle", 12, "seconds from the first command received");
        final String[] names = {"p50", "p99", "max"};
        final String[] dashes = {null, "6,3", "2,3"};
        for (int which = 0; which < LatencyAnalysis.SERIES; which++) {
            final List<double[]> points = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                final long v = analysis.intervalValue(hop, which, i);
                if (v >= 0) {
                    points.add(new double[] {axes.x(analysis.intervalStart(i)), axes.y(Math.log10(Math.max(0.01, v / 1e3)))});
                }
            }
            polyline(points, COLOURS[hop.ordinal()], "1.5", dashes[which]);
            legend(which, COLOURS[hop.ordinal()], dashes[which], hop.label + " " + names[which], TOP2);
        }
    }

    /** Horizontal grid lines and labels at each power of ten of microseconds. */
    private void decades(final Axes axes, final double low, final double high) {
        for (double d = low; d <= high + 1e-9; d++) {
            final double y = axes.y(d);
            line(LEFT, y, RIGHT, y, "#dddddd", null);
            text(LEFT - 6, y + 4, "end", 12, LatencyReportText.micros(Math.pow(10, d) * 1e3) + " us");
        }
        line(LEFT, axes.top, LEFT, axes.bottom, "#444444", null);
        line(LEFT, axes.bottom, RIGHT, axes.bottom, "#444444", null);
    }

    private static double niceStep(final double span) {
        final double raw = span / 8;
        final double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-3))));
        for (final double m : new double[] {1, 2, 5, 10}) {
            if (m * magnitude >= raw) {
                return m * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private void legend(final int row, final String colour, final String dash, final String label, final int top) {
        final double y = top + 10 + row * 20;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
            RIGHT + 15, y, RIGHT + 40, y, colour, dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
        text(RIGHT + 45, y + 4, "start", 11, escape(label));
    }

    private void polyline(final List<double[]> points, final String colour, final String width, final String dash) {
        if (points.isEmpty()) {
            return;
        }
        svg.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"").append(width).append('"');
        if (dash != null) {
            svg.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        svg.append(" points=\"");
        for (final double[] p : points) {
            svg.append(String.format(Locale.ROOT, "%.1f,%.1f ", p[0], p[1]));
        }
        svg.append("\"/>\n");
    }

    private void line(final double x1, final double y1, final double x2, final double y2, final String colour, final String dash) {
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>%n", x1, y1, x2, y2,
            colour, dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
    }

    private void text(final double x, final double y, final String anchor, final int size, final String text) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n", x, y, anchor,
            size, text));
    }

    private static String escape(final String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Data to pixels: x linear over [x0, x1], y over [y0, y1] in log10 units, upwards. */
    private record Axes(double x0, double x1, double y0, double y1, int top, int bottom) {
        double x(final double v) {
            return LEFT + (v - x0) / Math.max(1e-12, x1 - x0) * (RIGHT - LEFT);
        }

        double y(final double log10) {
            return bottom - (log10 - y0) / Math.max(1e-12, y1 - y0) * (bottom - top);
        }
    }
}
