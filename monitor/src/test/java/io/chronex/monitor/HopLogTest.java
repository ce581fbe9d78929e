package io.chronex.monitor;

import io.chronex.queues.Hops;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The --hlog file reads back with HdrHistogram's own reader: one tagged histogram per hop per interval, with the values recorded. */
class HopLogTest {
    @TempDir
    Path tmp;

    @Test
    void eachIntervalIsOneTaggedHistogramPerHopThatHdrHistogramReads() throws Exception {
        final HopLatencies latencies = new HopLatencies();
        final Path file = tmp.resolve("hops.hlog");
        try (HopLog log = new HopLog(file, 1_763_900_000_000L)) {
            for (int interval = 1; interval <= 2; interval++) {
                for (int i = 0; i < 10 * interval; i++) {
                    final Hops h = new Hops();
                    h.gatewayReadNanos = 1_000;
                    h.gatewayAppendNanos = 3_000;
                    h.engineReadNanos = 3_000 + 50_000L * interval;
                    h.engineDoneNanos = h.engineReadNanos + 700;
                    h.engineAppendNanos = h.engineDoneNanos + 300;
                    latencies.record(h);
                }
                latencies.rollInterval();
                log.write(latencies);
            }
        }
        final Map<String, long[]> counts = new TreeMap<>();
        final HistogramLogReader reader = new HistogramLogReader(file.toFile());
        int intervals = 0;
        for (EncodableHistogram e = reader.nextIntervalHistogram(); e != null; e = reader.nextIntervalHistogram()) {
            final Histogram h = (Histogram) e;
            counts.computeIfAbsent(h.getTag(), t -> new long[2])[h.getTotalCount() == 10 ? 0 : 1] += h.getTotalCount();
            if ("journal".equals(h.getTag())) {
                final long expected = h.getTotalCount() == 10 ? 50_000 : 100_000;
                assertEquals(expected, h.getValueAtPercentile(50), 100, "the journal hop's median in its interval");
            }
            intervals++;
        }
        assertEquals(10, intervals, "5 hops x 2 intervals");
        assertEquals("[events, gateway, journal, match, total]", counts.keySet().toString());
        for (final long[] c : counts.values()) {
            assertEquals(10, c[0]);
            assertEquals(20, c[1]);
        }
    }
}
