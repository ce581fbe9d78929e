package io.chronex.engine.cluster;

import io.chronex.engine.MatchingEngine;
import io.chronex.queues.SnapshotFiles;
import io.chronex.queues.SnapshotStore;
import io.chronex.runtime.WholeFile;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A member's engine snapshot files in DIR/snapshots, in bin/engine's format and names ({@link SnapshotStore}), so that
 * bin/audit (book at a time, verify from an index, checkpoints) and the monitor's snapshot check work on a member as on a
 * single host. Aeron's cluster snapshots in the archive stay the member's own recovery; these are for the readers. The
 * service thread only copies the state; sealing, writing and the fsync happen on a thread of this class, as bin/engine
 * does, and a newer copy replaces one the writer has not started yet.
 */
final class MemberSnapshots implements AutoCloseable {
    private final Path dir;
    private final SnapshotStore store;
    private final SingleChronicleQueue commands;
    private final long configHash;
    private final Consumer<String> log;
    /** False when DIR/snapshots is pinned to another configuration: files under this one would mislead every reader. */
    private final boolean enabled;
    private final AtomicReference<Pending> pending = new AtomicReference<>();
    private final ExecutorService writer = Executors.newSingleThreadExecutor(task -> {
        final Thread thread = new Thread(task, "member-snapshot-writer");
        thread.setDaemon(true);
        return thread;
    });
    private volatile long written;
    private volatile long failed;

    /** The state after the command at journalIndex (unsealed), waiting for the writer. */
    private record Pending(long journalIndex, byte[] state, String why) {
    }

    /**
     * Snapshots of the member's journal {@code commands} (the node journal's queue, read again on the writer thread for the
     * command's fingerprint) into {@code dir}, under {@code configHash}. Pins the directory to that hash as bin/engine's first
     * start does (snapshots/config.hash, which bin/audit verify checks).
     */
    MemberSnapshots(final Path dir, final SingleChronicleQueue commands, final long configHash, final SnapshotStore store,
                    final Consumer<String> log) {
        this.dir = dir;
        this.store = store;
        this.commands = commands;
        this.configHash = configHash;
        this.log = log;
        this.enabled = pin();
        final int unfinished = enabled ? store.deleteUnfinished() : 0;
        if (unfinished > 0) {
            log.accept("deleted " + unfinished + " unfinished snapshot file(s) in " + dir + " (a stop while one was being written)");
        }
    }

    private boolean pin() {
        final Path file = dir.resolve(SnapshotFiles.CONFIG_HASH);
        final String hash = Long.toHexString(configHash);
        try {
            Files.createDirectories(dir);
            if (!Files.exists(file)) {
                WholeFile.write(file, hash + "\n");
                return true;
            }
            final String pinned = Files.readString(file).trim();
            if (pinned.equals(hash)) {
                return true;
            }
            log.accept("NO SNAPSHOT FILES: " + file + " pins " + dir + " to configuration hash " + pinned + ", this member runs "
                + hash + "; move the directory's snapshots aside to have them written again");
        } catch (final IOException e) {
            log.accept("NO SNAPSHOT FILES: cannot pin " + file + " (" + e.getMessage() + ")");
        }
        return false;
    }

    /** Keeps {@code bytes} free on the filesystem with every file written (the member's storage reserve / 2, as bin/engine). */
    void keepFree(final long bytes) {
        store.keepFree(bytes);
    }

    /**
     * On the service thread: the engine's state after the command at {@code journalIndex} of the member's journal is copied
     * and handed to the writer; {@code why} goes into the log line that says it was written.
     */
    void take(final long journalIndex, final MatchingEngine engine, final String why) {
        if (!enabled) {
            return;
        }
        if (pending.getAndSet(new Pending(journalIndex, engine.snapshotUnsealed(), why)) == null) {
            writer.execute(this::writePending);
        }
    }

    /** On the writer thread. One that cannot be written costs the readers a longer replay, never the member its trading. */
    private void writePending() {
        final Pending snapshot = pending.getAndSet(null);
        if (snapshot == null) {
            return;
        }
        final long start = System.nanoTime();
        try {
            final OptionalLong fingerprint = SnapshotFiles.commandFingerprint(commands, snapshot.journalIndex());
            if (fingerprint.isEmpty()) {
                throw new UncheckedIOException(new IOException("the member's journal has no command at "
                    + Long.toHexString(snapshot.journalIndex()) + " to fingerprint"));
            }
            final Path file = store.write(snapshot.journalIndex(), configHash, fingerprint.getAsLong(),
                MatchingEngine.sealSnapshot(snapshot.state()));
            written++;
            log.accept(String.format(Locale.ROOT, "snapshot file %s written (%s) in %.2f ms, %d bytes", file.getFileName(),
                snapshot.why(), (System.nanoTime() - start) / 1e6, snapshot.state().length));
        } catch (final UncheckedIOException e) {
            failed++;
            log.accept("snapshot file " + SnapshotFiles.name(snapshot.journalIndex()) + " NOT written (" + snapshot.why() + "): "
                + e.getMessage() + "; nothing was left in its place and the member goes on (its own recovery is the cluster's"
                + " snapshot)");
        }
    }

    /** Waits until every snapshot handed over so far is written or has failed. */
    void await() {
        try {
            writer.submit(() -> { }).get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the snapshot writer failed", e.getCause());
        }
    }

    /** Snapshot files written by this run. */
    long written() {
        return written;
    }

    /** Snapshot files this run could not write. */
    long failed() {
        return failed;
    }

    /** Finishes a write in hand (cheaper than the replay it saves), before the journal it reads is closed. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            writer.awaitTermination(1, TimeUnit.MINUTES);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
