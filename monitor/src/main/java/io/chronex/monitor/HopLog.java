package io.chronex.monitor;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The monitor's --hlog file: an HdrHistogram interval log with one tagged histogram per hop per
 * interval (tags: gateway, journal, match, events, total), so HdrHistogram's own tools
 * (HistogramLogProcessor, HistogramLogReader, the plotters) read it as they read any other.
 */
public final class HopLog implements AutoCloseable {
    private final PrintStream out;
    private final HistogramLogWriter writer;

    public HopLog(final Path file, final long startEpochMillis) {
        try {
            this.out = new PrintStream(file.toFile(), java.nio.charset.StandardCharsets.US_ASCII);
        } catch (final java.io.IOException e) {
            throw new io.chronex.runtime.Args.UsageException("cannot write the --hlog file " + file + ": " + e.getMessage());
        }
        this.writer = new HistogramLogWriter(out);
        writer.outputLogFormatVersion();
        writer.outputStartTime(startEpochMillis);
        writer.setBaseTime(startEpochMillis);
        writer.outputLegend();
    }

    /** Writes the last completed interval of every hop that recorded something in it (see {@link HopLatencies#rollInterval}). */
    public void write(final HopLatencies latencies) {
        for (final HopLatencies.Hop hop : HopLatencies.Hop.values()) {
            write(latencies, hop);
        }
        out.flush();
    }

    /** Writes one hop's last completed interval if it recorded something (a step of the monitor's interval end); not flushed. */
    public void write(final HopLatencies latencies, final HopLatencies.Hop hop) {
        final Histogram h = latencies.interval(hop);
        if (h.getTotalCount() > 0) {
            h.setTag(hop.label);
            writer.outputIntervalHistogram(h);
        }
    }

    /** Pushes what was written to the file. */
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        out.close();
    }
}
