package io.chronex.replay;

import io.chronex.api.Result;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.Hops;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * bin/latency-report: per-hop latency percentiles and throughput from the timestamps every events
 * excerpt carries. All hops use System.nanoTime, which every process on the host shares.
 */
public final class LatencyReport {
    static final String USAGE = """
        Usage: bin/latency-report --data-dir DIR [--skip N]

        Reads DIR/events and prints, for each hop, p50 p90 p99 p99.9 p99.99 max in microseconds:
          journal   gateway append -> engine read   (the commands queue hop, including any queueing)
          match     engine read    -> engine done   (decode + match)
          events    engine done    -> engine append (encode start)
          total     gateway append -> engine append
        and the engine's throughput from its first read to its last append.

          --skip N   ignore the first N results (warm-up; default 0)
        """;

    private LatencyReport() {
    }

    public static void main(final String[] argv) {
        Tool.run("latency-report", USAGE, () -> {
            final Args args = Args.parse(argv, "--data-dir", "--skip");
            final long skip = args.number("--skip", 0, 0, Long.MAX_VALUE);
            report(DataDirectory.openReadOnly(args.path("--data-dir", Path.of("data"))), skip, System.out);
            return 0;
        });
    }

    public static long report(final DataDirectory data, final long skip, final PrintStream out) {
        final String[] names = {"journal", "match", "events", "total"};
        final HopsRead read = new HopsRead(names.length, skip);
        try (SingleChronicleQueue events = data.events()) {
            final EventTail tail = new EventTail(events.createTailer());
            while (tail.poll(read, Integer.MAX_VALUE) > 0) {
                // until caught up with what is there
            }
        }
        final Histogram[] hops = read.hops;
        final long seen = read.seen;
        final long timed = read.timed;
        final long firstRead = read.firstRead;
        final long lastAppend = read.lastAppend;
        out.printf(Locale.ROOT, "%d results (%d skipped)%n", timed, Math.min(skip, seen));
        out.printf(Locale.ROOT, "%-8s %9s %9s %9s %9s %9s %9s  (microseconds)%n", "hop", "p50", "p90", "p99", "p99.9", "p99.99", "max");
        for (int i = 0; i < hops.length; i++) {
            final Histogram h = hops[i];
            if (h.getTotalCount() == 0) {
                continue;
            }
            out.printf(Locale.ROOT, "%-8s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f%n", names[i], h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
                h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3);
        }
        if (timed > 1 && lastAppend > firstRead) {
            out.printf(Locale.ROOT, "engine throughput: %,.0f commands/s (first read to last append, %.3f s;"
                + " the offered rate when paced)%n",
                timed / ((lastAppend - firstRead) / 1e9), (lastAppend - firstRead) / 1e9);
        }
        return timed;
    }

    /** The hops of each decoded result after the first {@code skip}, through the readers' shared {@link EventTail}. */
    private static final class HopsRead implements EventTail.Handler {
        private final Histogram[] hops;
        private final long skip;
        private long seen;
        private long timed;
        private long firstRead = Long.MAX_VALUE;
        private long lastAppend = Long.MIN_VALUE;

        HopsRead(final int count, final long skip) {
            this.skip = skip;
            hops = new Histogram[count];
            for (int i = 0; i < hops.length; i++) {
                // Auto-resizing: a backlog replayed hours after it was appended is a legitimate (huge) journal hop.
                hops[i] = new Histogram(3);
            }
        }

        @Override
        public void onEvent(final long eventsIndex, final EventHeader header, final Result result) {
            if (seen++ < skip) {
                return;
            }
            final Hops h = header.hops;
            firstRead = Math.min(firstRead, h.engineReadNanos);
            lastAppend = Math.max(lastAppend, h.engineAppendNanos);
            if (h.gatewayAppendNanos != 0) {
                hops[0].recordValue(Math.max(0, h.engineReadNanos - h.gatewayAppendNanos));
                hops[3].recordValue(Math.max(0, h.engineAppendNanos - h.gatewayAppendNanos));
            }
            hops[1].recordValue(Math.max(0, h.engineDoneNanos - h.engineReadNanos));
            hops[2].recordValue(Math.max(0, h.engineAppendNanos - h.engineDoneNanos));
            timed++;
        }
    }
}
