package io.chronex.marketdata.client;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.chronex.marketdata.FeedConfig;
import io.chronex.runtime.IdleStrategies;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;

import java.io.File;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The feed client: joins both channels through a media driver of its own and hands every message to a {@link FeedState}
 * from the thread that calls {@link #poll}. Joins at any time: until the first snapshot cycle it is recovering.
 *
 * <p>The caller's loop should idle with {@link #idleStrategy} ({@link IdleStrategies#pacedByName} with the feed's pause),
 * so that on a small box it wakes about once per pause while the feed trickles. The media driver parks for half the
 * pause, and only after a turn that received nothing ({@link FeedConfig#RECEIVER_BUSY_BYTES}): Aeron's receiver reads
 * one datagram per channel a turn, so it empties its sockets before it sleeps (docs/marketdata.md, "Idling").
 *
 * <p>{@code dropRate} is a test hook: that fraction of the incremental messages received (chosen by a seeded random) is
 * thrown away before the state sees it, as a lossy network would.
 */
public final class FeedClient implements AutoCloseable {
    private static final AtomicInteger CLIENTS = new AtomicInteger();
    private static final String DIR_PREFIX = "md-client-";
    private static final int FRAGMENTS_PER_POLL = 256;
    private static final int RECOVERING_FRAGMENTS = 8;

    private final FeedState state;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final Subscription incremental;
    private final Subscription snapshots;
    private final FragmentAssembler incrementalAssembler;
    private final FragmentAssembler snapshotAssembler;
    private final double dropRate;
    private final SplittableRandom random;
    private final String idleName;
    private final long pauseNanos;
    private long received;
    private long dropped;
    private FragmentHandler observer;

    /** A client of the feed {@code config} describes, idling with backoff; {@code dropRate} 0 for a real one. */
    public FeedClient(final FeedConfig config, final double dropRate, final long seed) {
        this(config, "backoff", dropRate, seed);
    }

    /** A client of the feed {@code config} describes, idling as {@code idleName}; {@code dropRate} 0 for a real one. */
    public FeedClient(final FeedConfig config, final String idleName, final double dropRate, final long seed) {
        if (idleName == null || IdleStrategies.pacedByName(idleName, 0, 1) == null) {
            throw new IllegalArgumentException("unknown idle strategy '" + idleName + "' (backoff, yield or busy)");
        }
        this.idleName = idleName;
        this.pauseNanos = config.pauseNanos();
        this.state = new FeedState(config.recoveryBufferBytes());
        this.dropRate = dropRate;
        this.random = new SplittableRandom(seed);
        removeDeadClientsDirectories(config.aeronDir());
        final Path dir = config.aeronDir().resolve(DIR_PREFIX + ProcessHandle.current().pid() + "-" + CLIENTS.incrementAndGet());
        this.driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(dir.toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(IdleStrategies.pacedByName(idleName, config.pauseNanos() / 2, FeedConfig.RECEIVER_BUSY_BYTES))
            .termBufferSparseFile(true)
            .publicationTermBufferLength(64 * 1024)
            .ipcTermBufferLength(64 * 1024)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        try {
            this.aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            this.incremental = aeron.addSubscription(config.incrementalSubscription(), config.incrementalStream());
            this.snapshots = aeron.addSubscription(config.snapshotSubscription(), config.snapshotStream());
        } catch (final RuntimeException e) {
            driver.close();
            throw e;
        }
        final FragmentHandler onIncremental = (buffer, offset, length, header) -> {
            received++;
            if (observer != null) {
                observer.onFragment(buffer, offset, length, header);
            }
            if (dropRate > 0 && random.nextDouble() < dropRate) {
                dropped++;
                return;
            }
            state.onMessage(buffer, offset, length);
        };
        this.incrementalAssembler = new FragmentAssembler(onIncremental);
        this.snapshotAssembler = new FragmentAssembler((buffer, offset, length, header) -> state.onMessage(buffer, offset, length));
    }

    /**
     * A test hook: also hands every whole incremental-channel message received (before the drop hook) to {@code observer},
     * on the polling thread.
     */
    public void observeIncrementals(final FragmentHandler observer) {
        this.observer = observer;
    }

    /**
     * A client killed with kill -9 leaves its media driver's directory behind (the images' term buffers, on tmpfs): the
     * next client removes those whose process is gone.
     */
    private static void removeDeadClientsDirectories(final Path aeronDir) {
        final File[] dirs = aeronDir.toFile().listFiles((parent, name) -> name.startsWith(DIR_PREFIX));
        if (dirs == null) {
            return;
        }
        for (final File dir : dirs) {
            final String rest = dir.getName().substring(DIR_PREFIX.length());
            final int dash = rest.indexOf('-');
            try {
                final long pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    continue;
                }
            } catch (final NumberFormatException e) {
                continue;
            }
            IoUtil.delete(dir, true);
        }
    }

    /**
     * Reads what has arrived on both channels; returns the number of fragments read (0: nothing new). Snapshots first, and
     * while recovering only a few incrementals at a time: a snapshot is usable only if no incremental after it was lost
     * before it was read, so it must not wait behind a long run of incrementals.
     */
    public int poll() {
        final int snapshotFragments = snapshots.poll(snapshotAssembler, FRAGMENTS_PER_POLL);
        return snapshotFragments + incremental.poll(incrementalAssembler, state.synced() ? FRAGMENTS_PER_POLL : RECOVERING_FRAGMENTS);
    }

    /** The books and counters; read them from the polling thread. */
    public FeedState state() {
        return state;
    }

    /**
     * A new idle strategy for the loop that calls {@link #poll}: under backoff, a park for the feed's pause after a turn
     * that polled fewer fragments than a recovering poll takes (more is probably waiting after a full one).
     */
    public IdleStrategy idleStrategy() {
        return IdleStrategies.pacedByName(idleName, pauseNanos, RECOVERING_FRAGMENTS);
    }

    /** Incremental messages received (dropped ones included). */
    public long received() {
        return received;
    }

    /** Incremental messages the drop hook threw away. */
    public long dropped() {
        return dropped;
    }

    /** The drop hook's rate. */
    public double dropRate() {
        return dropRate;
    }

    @Override
    public void close() {
        CloseHelper.closeAll(aeron, driver);
    }
}
