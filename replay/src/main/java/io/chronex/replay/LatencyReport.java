package io.chronex.replay;

import io.chronex.queues.DataDirectory;
import io.chronex.queues.OutputFile;
import io.chronex.replay.latency.Baseline;
import io.chronex.replay.latency.LatencyAnalysis;
import io.chronex.replay.latency.LatencyReportText;
import io.chronex.replay.latency.SvgPlot;
import io.chronex.replay.latency.TailAttribution;
import io.chronex.replay.latency.WireToWire;
import io.chronex.replay.latency.WireToWire.Hop;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * bin/latency-report: per-hop and wire-to-wire latency percentiles from the timestamps every events
 * excerpt carries and the return-path times the gateways record, per command type and time window;
 * interval logs, a plot, tail attribution and a regression gate against a baseline. All hops use
 * System.nanoTime, which every process on the host shares.
 */
public final class LatencyReport {
    static final String USAGE = """
        Usage: bin/latency-report --data-dir DIR [--skip N] [--from TIME] [--to TIME] [--interval T]
                                  [--hlog FILE] [--plot FILE.svg] [--tail P] [--baseline DIR|FILE.hlog [--max-ratio F]]

        Reads DIR/events and the gateways' return-path records (DIR/gateways/N/returns) and prints, per
        hop, p50 p90 p99 p99.9 p99.99 max in microseconds and the count:
          gateway   gateway socket read -> gateway append    (decode, checks, encode)
          journal   gateway append -> engine read            (the commands queue, including any queueing)
          match     engine read -> engine done               (decode + match)
          events    engine done -> engine append             (encode start)
          return    engine append -> gateway event read      (the events queue)
          write     gateway event read -> socket write       (the answer to the command's sender)
          total     gateway append -> engine append          (inside the exchange's queues)
          wire      gateway socket read -> socket write      (wire to wire: the six hops above add up to it)
        then the end-to-end hop (wire, or total when no gateway recorded a return path) per command type,
        the engine's throughput, and which hop the slowest results spent their time in.

          --skip N         leave out the first N results (warm-up; default 0)
          --from/--to TIME only commands received in [from, to) (UTC, ISO-8601: 2026-11-24T10:31:07Z)
          --interval T     the interval of --hlog and of the plot's time series (default 1s; 100ms, 10s...)
          --hlog FILE      write an HdrHistogram interval log, one tag per hop (HistogramLogProcessor reads it)
          --plot FILE.svg  draw the percentile distribution of every hop (log 1/(1-p) axis) and the
                           end-to-end p50/p99/max per interval over time
          --tail P         attribute the results above the end-to-end pP to their hops (default 99.9)
          --baseline X     compare with another data directory or an interval log (--hlog's): each hop's
                           percentiles side by side with their ratio; exit 1 when a hop's p50, p90 or
                           p99 is worse than the baseline's by more than --max-ratio (default 2.0)
        Ends with RESULT results= wire_results= end_to_end= p50_us= p99_us= p99.9_us= [gate=pass|fail].
        Exit 0; 1 when the gate fails; 2 on a usage error.
        """;

    private LatencyReport() {
    }

    public static void main(final String[] argv) {
        Tool.run("latency-report", USAGE, () -> run(argv, System.out));
    }

    /** The tool without leaving the JVM (tests): its exit code. */
    public static int exitCode(final String[] argv, final PrintStream out) {
        return Tool.exitCode("latency-report", USAGE, () -> run(argv, out));
    }

    private static int run(final String[] argv, final PrintStream out) throws IOException {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--skip", "--from", "--to", "--interval", "--hlog", "--plot", "--tail",
            "--baseline", "--max-ratio"), Set.of(), 0);
        final long skip = args.number("--skip", 0, 0, Long.MAX_VALUE);
        final long from = epochNanos(args, "--from", Long.MIN_VALUE);
        final long to = epochNanos(args, "--to", Long.MAX_VALUE);
        final long interval = args.duration("--interval", "1s", 1_000_000L, 3_600_000_000_000L);
        final double tailPercentile = decimal(args, "--tail", 99.9, 50, 99.9999);
        final double maxRatio = decimal(args, "--max-ratio", 2.0, 1.0, 1e6);
        final String baseline = args.string("--baseline", null);
        final DataDirectory data = DataDirectory.openReadOnly(args.path("--data-dir", Path.of("data")));
        final Path hlogFile = OutputFile.option(args, "--hlog");
        final Path plotFile = OutputFile.option(args, "--plot");

        final LatencyAnalysis analysis;
        final WireToWire.Counts counts;
        try (PrintStream hlogOut = hlogFile == null ? null : new PrintStream(hlogFile.toFile(), StandardCharsets.US_ASCII)) {
            final HistogramLogWriter hlog = hlogOut == null ? null : new HistogramLogWriter(hlogOut);
            if (hlog != null) {
                hlog.outputLogFormatVersion();
                hlog.outputComment("chronex latency-report " + data.root() + ": one tag per hop, intervals of command receipt time");
                hlog.outputLegend();
            }
            analysis = new LatencyAnalysis(skip, from, to, interval, hlog);
            counts = WireToWire.read(data, analysis);
            analysis.finish();
        }
        final Hop endToEnd = counts.withReturn() > 0 ? Hop.WIRE : Hop.TOTAL;
        final long wire = analysis.all(Hop.WIRE).getTotalCount();
        out.printf(Locale.ROOT, "%,d results (%,d read, %,d skipped, the rest outside --from/--to); %,d of them with the gateway's"
            + " return path%n", analysis.counted(), counts.results(), Math.min(skip, counts.results()), wire);
        if (counts.unreadableEvents() + counts.unreadableReturns() > 0) {
            out.printf("passed over: %d events excerpts and %d return-path excerpts that do not decode%n", counts.unreadableEvents(),
                counts.unreadableReturns());
        }
        LatencyReportText.hops(analysis, out);
        LatencyReportText.byType(analysis, endToEnd, out);
        LatencyReportText.throughput(analysis, out);
        final Histogram e2e = analysis.all(endToEnd);
        if (e2e.getTotalCount() > 0) {
            // By rank, not by value: the slowest (100 - P)% of the results, however many share the percentile's value.
            final int keep = (int) Math.min(1_000_000, Math.ceil(e2e.getTotalCount() * (100 - tailPercentile) / 100));
            final TailAttribution tail = new TailAttribution(new LatencyAnalysis(skip, from, to, interval, null), endToEnd, keep);
            WireToWire.read(data, tail);
            tail.print(tailPercentile, out);
        }
        if (plotFile != null) {
            Files.writeString(plotFile, SvgPlot.render(analysis, endToEnd, "chronex latency: " + data.root().getFileName() + " ("
                + analysis.counted() + " results)"));
            out.println("plot written to " + plotFile);
        }
        if (hlogFile != null) {
            out.println("interval log written to " + hlogFile + " (tags: one per hop)");
        }
        String gate = "";
        int exit = 0;
        if (baseline != null) {
            final Map<Hop, Histogram> base = baselineOf(Path.of(baseline), skip);
            final int worse = Baseline.compare(Baseline.fromAnalysis(analysis), base, maxRatio, out);
            gate = worse == 0 ? " gate=pass" : " gate=fail";
            exit = worse == 0 ? 0 : 1;
        }
        out.printf(Locale.ROOT, "RESULT results=%d wire_results=%d end_to_end=%s p50_us=%.2f p99_us=%.2f p99.9_us=%.2f%s%n",
            analysis.counted(), wire, endToEnd.label, e2e.getValueAtPercentile(50) / 1e3, e2e.getValueAtPercentile(99) / 1e3,
            e2e.getValueAtPercentile(99.9) / 1e3, gate);
        return exit;
    }

    /** A baseline data directory is analysed with the same skip (no window: its times are its own); an interval log is read. */
    private static Map<Hop, Histogram> baselineOf(final Path baseline, final long skip) {
        if (Files.isDirectory(baseline)) {
            final LatencyAnalysis other = new LatencyAnalysis(skip, Long.MIN_VALUE, Long.MAX_VALUE, 1_000_000_000L, null);
            WireToWire.read(DataDirectory.openReadOnly(baseline), other);
            return Baseline.fromAnalysis(other);
        }
        if (!Files.isReadable(baseline)) {
            throw new Args.UsageException("--baseline " + baseline + " is neither a data directory nor a readable interval log");
        }
        try {
            return Baseline.fromHlog(baseline);
        } catch (final IllegalArgumentException | IllegalStateException e) {
            throw new Args.UsageException("--baseline " + baseline + " is not an interval log: " + e.getMessage());
        }
    }

    private static long epochNanos(final Args args, final String option, final long fallback) {
        final String text = args.string(option, null);
        if (text == null) {
            return fallback;
        }
        try {
            final Instant instant = Instant.parse(text);
            return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        } catch (final DateTimeParseException e) {
            throw new Args.UsageException(option + " needs a UTC time such as 2026-11-24T10:31:07Z, not '" + text + "'");
        }
    }

    private static double decimal(final Args args, final String option, final double fallback, final double min, final double max) {
        final String text = args.string(option, null);
        if (text == null) {
            return fallback;
        }
        try {
            final double v = Double.parseDouble(text);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (final NumberFormatException e) {
            // said below
        }
        throw new Args.UsageException(option + " must be a number from " + min + " to " + max + ", not '" + text + "'");
    }

    /** For tests and tools: the classic report's count of results with hop times, printed to out. */
    public static long report(final DataDirectory data, final long skip, final PrintStream out) {
        final LatencyAnalysis analysis = new LatencyAnalysis(skip, Long.MIN_VALUE, Long.MAX_VALUE, 1_000_000_000L, null);
        WireToWire.read(data, analysis);
        analysis.finish();
        LatencyReportText.hops(analysis, out);
        LatencyReportText.throughput(analysis, out);
        return analysis.counted();
    }
}
