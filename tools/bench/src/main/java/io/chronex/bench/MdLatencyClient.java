package io.chronex.bench;

import io.chronex.marketdata.FeedConfig;
import io.chronex.marketdata.client.FeedClient;
import io.chronex.marketdata.client.FeedState;
import io.chronex.queues.MarketDataStatusFile;
import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.IdleStrategies;
import io.chronex.runtime.Tool;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * bin/bench-marketdata's feed client: a {@link FeedClient} that records, for every incremental applied in sync, engine append
 * to book applied (one host, one System.nanoTime clock), and samples the publisher's lag from its status file.
 */
public final class MdLatencyClient {
    static final String USAGE = """
        Usage: MdLatencyClient --config FILE --data-dir DIR [--skip N] [--idle backoff|yield|busy]

        Joins the feed, prints "in sync at seq N" once it is, then until SIGTERM records for every incremental applied
        in sync System.nanoTime() - engineAppendNanos (the first N applied left out: warm-up), and each time the
        publisher rewrites DIR/marketdata/status (about once a second) its lag in excerpts and in µs. At SIGTERM prints
        the percentiles, the client's counters and one line:
          MDRESULT applied=.. recorded=.. p50_us=.. p90_us=.. p99_us=.. p999_us=.. max_us=.. gaps=.. recovered=..
                   last_seq=.. publisher_seq=.. lag_samples=.. lag_events_p99=.. lag_events_max=.. lag_us_p99=.. lag_us_max=..
                   publisher_dropped=.. publisher_backpressured=.. publish_lag_p99_us=.. publish_lag_max_us=..
        (publish lag: each incremental's publishNanos - engineAppendNanos, the publisher's lag when it sent it).
        """;
    private static final long POLL_STATUS_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Histogram appliedLatency = new Histogram(3_600_000_000_000L, 3);
    /** Per incremental: its publishNanos - engineAppendNanos, the publisher's lag when it sent it. */
    private final Histogram publishLag = new Histogram(3_600_000_000_000L, 3);
    private final Histogram lagEvents = new Histogram(1L << 40, 3);
    private final Histogram lagMicros = new Histogram(3_600_000_000L, 3);
    private long skip;
    private FeedState feed;
    private MappedByteBuffer status;
    private long lastStatusHeartbeat;

    private MdLatencyClient() {
    }

    public static void main(final String[] argv) {
        Tool.run("md-latency-client", USAGE, () -> new MdLatencyClient().run(argv, System.out));
    }

    private int run(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--config", "--data-dir", "--skip", "--idle"), Set.of(), 0);
        final FeedConfig config = FeedConfig.load(args.path("--config", Path.of("config/marketdata.yaml")));
        final Path statusPath = args.path("--data-dir", Path.of("data")).resolve("marketdata").resolve("status");
        skip = args.number("--skip", 0, 0, Long.MAX_VALUE);
        final String idleName = args.choice("--idle", "backoff", IdleStrategies.CHOICES);
        final AtomicBoolean stop = new AtomicBoolean();
        DutyCycle.onShutdownSignal("md-latency-stop", () -> stop.set(true));
        try (FeedClient client = new FeedClient(config, idleName, 0, 1)) {
            final IdleStrategy idle = client.idleStrategy();
            final FeedState state = client.state();
            feed = state;
            state.onApplied(this::applied);
            boolean synced = false;
            long nextStatus = 0;
            while (!stop.get()) {
                idle.idle(client.poll());
                if (!synced && state.synced()) {
                    synced = true;
                    out.printf("in sync at seq %d%n", state.lastSeq());
                    out.flush();
                }
                final long now = System.nanoTime();
                if (now >= nextStatus) {
                    nextStatus = now + POLL_STATUS_NANOS;
                    sampleStatus(statusPath, synced);
                }
            }
            // Drains what already arrived: the script stops this client only once the publisher has caught up.
            while (client.poll() > 0) {
                idle.reset();
            }
            report(state, out);
            return state.recoveries() == 0 ? 1 : 0;
        }
    }

    private void applied(final long seq, final long engineAppendNanos) {
        final long now = System.nanoTime();
        if (skip > 0) {
            skip--;
            return;
        }
        appliedLatency.recordValue(Math.max(0, now - engineAppendNanos));
        publishLag.recordValue(Math.max(0, feed.lastPublishNanos() - engineAppendNanos));
    }

    /** One sample per rewrite of the status file (its heartbeat field changes), once the client is in sync. */
    private void sampleStatus(final Path path, final boolean synced) throws IOException {
        if (status == null) {
            if (!Files.isRegularFile(path) || Files.size(path) < MarketDataStatusFile.LENGTH) {
                return;
            }
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                status = channel.map(FileChannel.MapMode.READ_ONLY, 0, MarketDataStatusFile.LENGTH);
                status.order(ByteOrder.LITTLE_ENDIAN);
            }
        }
        if (status.getLong(MarketDataStatusFile.MAGIC_AT) != MarketDataStatusFile.MAGIC) {
            return;
        }
        final long heartbeat = status.getLong(MarketDataStatusFile.HEARTBEAT_EPOCH_MILLIS_AT);
        if (!synced || heartbeat == lastStatusHeartbeat) {
            return;
        }
        lastStatusHeartbeat = heartbeat;
        lagEvents.recordValue(Math.max(0, status.getLong(MarketDataStatusFile.LAG_EVENTS_AT)));
        lagMicros.recordValue(Math.max(0, status.getLong(MarketDataStatusFile.LAG_MICROS_AT)));
    }

    private void report(final FeedState state, final PrintStream out) {
        final Histogram h = appliedLatency;
        final long publisherSeq = status == null ? -1 : status.getLong(MarketDataStatusFile.SEQ_AT);
        final long dropped = status == null ? -1 : status.getLong(MarketDataStatusFile.DROPPED_AT);
        final long backPressured = status == null ? -1 : status.getLong(MarketDataStatusFile.BACK_PRESSURE_AT);
        out.printf(Locale.ROOT, "feed: engine append -> book applied p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us (%d)%n",
            us(h, 50), us(h, 90), us(h, 99), us(h, 99.9), h.getMaxValue() / 1e3, h.getTotalCount());
        final Histogram p = publishLag;
        out.printf(Locale.ROOT, "feed: engine append -> publisher sent p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f us (%d)%n",
            us(p, 50), us(p, 90), us(p, 99), us(p, 99.9), p.getMaxValue() / 1e3, p.getTotalCount());
        out.printf(Locale.ROOT, "feed client: applied %d, last seq %d (publisher's last sent %d), gaps %d, recovered %d, duplicates %d,"
                + " malformed %d, left out %d, overflows %d%n", state.applied(), state.lastSeq(), publisherSeq, state.gaps(),
            state.recoveries(), state.duplicates(), state.malformed(), state.leftOut(), state.overflows());
        out.printf(Locale.ROOT, "publisher lag (%d samples of its status file): excerpts behind p50 %d p99 %d max %d;"
                + " us behind p50 %d p99 %d max %d; back-pressured %d, given up %d%n", lagEvents.getTotalCount(),
            lagEvents.getValueAtPercentile(50), lagEvents.getValueAtPercentile(99), lagEvents.getMaxValue(),
            lagMicros.getValueAtPercentile(50), lagMicros.getValueAtPercentile(99), lagMicros.getMaxValue(), backPressured, dropped);
        out.printf(Locale.ROOT, "MDRESULT applied=%d recorded=%d p50_us=%.1f p90_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f gaps=%d"
                + " recovered=%d last_seq=%d publisher_seq=%d lag_samples=%d lag_events_p99=%d lag_events_max=%d lag_us_p99=%d"
                + " lag_us_max=%d publisher_dropped=%d publisher_backpressured=%d publish_lag_p99_us=%.1f publish_lag_max_us=%.1f%n",
            state.applied(), h.getTotalCount(), us(h, 50), us(h, 90), us(h, 99), us(h, 99.9), h.getMaxValue() / 1e3, state.gaps(),
            state.recoveries(), state.lastSeq(), publisherSeq, lagEvents.getTotalCount(), lagEvents.getValueAtPercentile(99),
            lagEvents.getMaxValue(), lagMicros.getValueAtPercentile(99), lagMicros.getMaxValue(), dropped, backPressured, us(p, 99),
            p.getMaxValue() / 1e3);
        out.flush();
    }

    private static double us(final Histogram h, final double percentile) {
        return h.getValueAtPercentile(percentile) / 1e3;
    }
}
