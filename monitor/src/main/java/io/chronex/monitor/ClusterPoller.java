package io.chronex.monitor;

import io.chronex.queues.cluster.ClusterConfig;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The live monitor's cluster reader: asks the members on a thread of its own, once per period, and hands out the latest
 * answer. Asking takes up to about a second when a member is cut off (the connect and answer timeouts); done on the
 * monitor's thread that would stop its reading of the queues for as long, every interval.
 */
final class ClusterPoller implements ClusterReader, AutoCloseable {
    /** How long the first {@link #read} waits for the first answers before it shows what there is (nothing yet). */
    private static final long FIRST_WAIT_MS = 3_000;

    private final ClusterReader reader;
    private final ScheduledExecutorService thread;
    private final CountDownLatch first = new CountDownLatch(1);
    private volatile ClusterView.Snapshot latest;

    ClusterPoller(final ClusterReader reader, final long periodMs) {
        this.reader = reader;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "monitor-cluster");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::poll, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    private void poll() {
        try {
            latest = reader.read();
        } catch (final RuntimeException e) {
            // Kept out of the scheduler, which would stop polling for good; the last answers stay (their readAt says when).
        } finally {
            first.countDown();
        }
    }

    @Override
    public ClusterConfig config() {
        return reader.config();
    }

    /** The latest answers (at most a period and a read old); the first call waits for them. */
    @Override
    public ClusterView.Snapshot read() {
        if (latest == null) {
            try {
                first.await(FIRST_WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        final ClusterView.Snapshot snapshot = latest;
        return snapshot != null ? snapshot
            : new ClusterView.Snapshot(reader.config().file(), java.time.Instant.now(), java.util.List.of(), true);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
