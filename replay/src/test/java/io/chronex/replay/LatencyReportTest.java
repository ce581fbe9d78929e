package io.chronex.replay;

import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.ReturnHops;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/latency-report on events and return records whose hop times the test chose: every hop and the
 * wire-to-wire time come out exactly, per command type and time window; the interval log reads back
 * with one tag per hop; the plot is SVG with a line per hop; the slow results are attributed to the
 * hop that made them slow; the baseline gate passes against itself and fails against a slower engine.
 */
class LatencyReportTest {
    /** Receipt time of the first command: 2026-11-24T10:00:00Z; the n-th is received n ms later. */
    private static final long START = Instant.parse("2026-11-24T10:00:00Z").getEpochSecond() * 1_000_000_000L;
    private static final int RESULTS = 2_000;

    @TempDir
    Path tmp;

    private record Run(int exit, String output) {
    }

    private static Run report(final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = LatencyReport.exitCode(argv, out);
        }
        return new Run(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    /**
     * RESULTS results from gateway 1: gateway hop 2 µs, journal 3 µs, match {@code matchNanos}, events 1 µs, return 5 µs,
     * write 4 µs; every 500th result's write hop is 900 µs (the slow ones). Every fourth is a cancel. The last result has no
     * return record (its answer was not written live).
     */
    private Path journal(final String name, final long matchNanos) {
        final DataDirectory data = DataDirectory.open(tmp.resolve(name));
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (SingleChronicleQueue events = data.events(); SingleChronicleQueue returns = data.gatewayReturns(1)) {
            final ExcerptAppender appender = events.createAppender();
            final ReturnHops.Writer writer = new ReturnHops.Writer(returns.createAppender());
            for (int i = 0; i < RESULTS; i++) {
                result.reset(i % 4 == 3 ? CommandType.CANCEL : CommandType.NEW_ORDER);
                header.hops.clear();
                header.commandIndex = i;
                header.hops.gatewayId = 1;
                final long read = 1_000_000_000L + i * 1_000_000L;
                header.hops.receiptEpochNanos = START + i * 1_000_000L;
                header.hops.gatewayReadNanos = read;
                header.hops.gatewayAppendNanos = read + 2_000;
                header.hops.engineReadNanos = read + 5_000;
                header.hops.engineDoneNanos = read + 5_000 + matchNanos;
                header.hops.engineAppendNanos = read + 6_000 + matchNanos;
                final long eventsIndex;
                try (DocumentContext dc = appender.writingDocument()) {
                    EventCodec.write(dc.wire().bytes(), header, result);
                }
                eventsIndex = appender.lastIndexAppended();
                if (i < RESULTS - 1) {
                    final long eventRead = header.hops.engineAppendNanos + 5_000;
                    writer.add(eventsIndex, eventRead);
                    writer.flush(eventRead + (i % 500 == 499 ? 900_000 : 4_000));
                }
            }
        }
        return tmp.resolve(name);
    }

    /** The row of a hop (or command type) in a table: p50 p90 p99 p99.9 p99.99 max n. */
    private static double[] row(final String output, final String name) {
        final String line = Arrays.stream(output.split("\n")).filter(l -> l.startsWith(name + " ")).findFirst()
            .orElseThrow(() -> new AssertionError("no row " + name + " in\n" + output));
        return Arrays.stream(line.substring(name.length()).trim().split(" +")).mapToDouble(f -> Double.parseDouble(f.replace("%", "")))
            .toArray();
    }

    @Test
    void everyHopAndTheWireToWireTimeComeOutExactly() {
        final Path dir = journal("d", 1_000);
        final Run run = report("--data-dir", dir.toString());
        assertEquals(0, run.exit(), run.output());
        final Map<String, Double> expected = Map.of("gateway", 2.0, "journal", 3.0, "match", 1.0, "events", 1.0, "return", 5.0,
            "write", 4.0, "total", 5.0, "wire", 16.0);
        for (final Map.Entry<String, Double> hop : expected.entrySet()) {
            // Within the histograms' 3 significant digits.
            assertEquals(hop.getValue(), row(run.output(), hop.getKey())[0], hop.getValue() / 500, hop.getKey() + " p50\n" + run.output());
        }
        assertEquals(RESULTS, row(run.output(), "match")[6], 0.0);
        assertEquals(RESULTS - 1, row(run.output(), "wire")[6], 0.0, "the last answer was not written live: no wire time");
        assertEquals(RESULTS * 3 / 4, row(run.output(), "new_order")[6], 0.0);
        // The table is of wire times: the last result, a cancel, has none.
        assertEquals(RESULTS / 4 - 1, row(run.output(), "cancel")[6], 0.0);
        assertEquals(900.0, row(run.output(), "write")[5], 1.0, "the slow answers' write hop is the max");
        assertTrue(run.output().contains("RESULT results=2000 wire_results=1999 end_to_end=wire p50_us=16.0"), run.output());
    }

    @Test
    void aWindowCountsOnlyTheCommandsReceivedInIt() {
        final Path dir = journal("d", 1_000);
        // Commands are received 1 ms apart from START: [0.5 s, 1 s) holds commands 500..999.
        final Run run = report("--data-dir", dir.toString(), "--from", Instant.ofEpochSecond(0, START + 500_000_000L).toString(),
            "--to", Instant.ofEpochSecond(0, START + 1_000_000_000L).toString());
        assertEquals(500, row(run.output(), "match")[6], 0.0, run.output());
        assertEquals(2, report("--data-dir", dir.toString(), "--from", "yesterday").exit());
    }

    @Test
    void theSlowResultsAreAttributedToTheHopThatMadeThemSlow() {
        final Run run = report("--data-dir", journal("d", 1_000).toString(), "--tail", "99.9");
        // The slowest 0.1% of 1,999 wire times (2): 912 µs each, 900 of them in the write hop.
        assertTrue(run.output().contains("tail: the 2 slowest results by wire (above its p99.9; from 912."), run.output());
        final double[] write = row(run.output(), "  write");
        assertEquals(98.7, write[0], 0.1, run.output());
        assertEquals(900, write[1], 1.0, run.output());
        assertEquals(2, write[2], 0.0, "the write hop was the largest in both");
        assertEquals(0, row(run.output(), "  match")[2], 0.0, run.output());
    }

    @Test
    void theIntervalLogHasATagPerHopAndThePlotALinePerHop() throws Exception {
        final Path dir = journal("d", 1_000);
        final Path hlog = tmp.resolve("l.hlog");
        final Path svg = tmp.resolve("p.svg");
        assertEquals(0, report("--data-dir", dir.toString(), "--hlog", hlog.toString(), "--plot", svg.toString(), "--interval", "500ms")
            .exit());
        final Map<String, Long> counts = new HashMap<>();
        int intervals = 0;
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                counts.merge(h.getTag(), ((Histogram) h).getTotalCount(), Long::sum);
                intervals++;
            }
        }
        // 2,000 commands over 2 s in 500 ms intervals: 4 intervals of 8 hops each.
        assertEquals(32, intervals);
        assertEquals(Map.of("gateway", 2000L, "journal", 2000L, "match", 2000L, "events", 2000L, "return", 1999L, "write", 1999L,
            "total", 2000L, "wire", 1999L), counts);
        final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        // Eight hops in the distribution, p50/p99/max over time.
        assertEquals(8 + 3, doc.getElementsByTagName("polyline").getLength());
    }

    @Test
    void theGatePassesAgainstItselfAndFailsAgainstASlowerEngine() {
        final Path fast = journal("fast", 1_000);
        final Path slow = journal("slow", 200_000);
        final Run same = report("--data-dir", fast.toString(), "--baseline", fast.toString());
        assertEquals(0, same.exit(), same.output());
        assertTrue(same.output().contains("gate=pass"), same.output());
        final Run slower = report("--data-dir", slow.toString(), "--baseline", fast.toString(), "--max-ratio", "1.5");
        assertEquals(1, slower.exit(), slower.output());
        assertTrue(slower.output().contains("  match    p50"), slower.output());
        assertTrue(slower.output().lines().anyMatch(l -> l.startsWith("  match    p50") && l.endsWith("WORSE")), slower.output());
        assertTrue(slower.output().contains("gate=fail"), slower.output());
        // Against an interval log of the fast run, the same verdict.
        final Path hlog = tmp.resolve("fast.hlog");
        assertEquals(0, report("--data-dir", fast.toString(), "--hlog", hlog.toString()).exit());
        assertEquals(1, report("--data-dir", slow.toString(), "--baseline", hlog.toString()).exit());
        assertEquals(0, report("--data-dir", fast.toString(), "--baseline", hlog.toString()).exit());
        assertEquals(2, report("--data-dir", fast.toString(), "--baseline", tmp.resolve("none").toString()).exit());
    }
}
