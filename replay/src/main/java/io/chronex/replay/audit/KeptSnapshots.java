package io.chronex.replay.audit;

import io.chronex.api.EngineConfig;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.SnapshotEnvelope;
import io.chronex.queues.SnapshotFiles;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The audit tools' own engine snapshots, kept in {@code DIR/audit-index/snapshots-CONFIGHASH} as {@code book}
 * and {@code verify} replay, so that the next rebuild starts close by and the next verify can split the journal
 * between threads: the engine service keeps only its newest few. Named by the configuration's hash, so that a
 * replay under another configuration never starts from them. Written whole and renamed into place; a directory
 * that cannot be written is said once and the replay goes on without.
 */
final class KeptSnapshots {
    private final Path dir;
    /** Sealed into every snapshot kept, as the engine does, so that readers check it against their configuration. */
    private final long configHash;
    private final PrintStream out;
    private final AtomicInteger saved = new AtomicInteger();
    private volatile boolean failed;

    KeptSnapshots(final DataDirectory data, final EngineConfig config, final PrintStream out) {
        this.dir = dir(data, config);
        this.configHash = MatchingEngine.configHash(config);
        this.out = out;
    }

    /** Where the snapshots kept for a configuration live (perhaps not yet created). */
    static Path dir(final DataDirectory data, final EngineConfig config) {
        return data.root().resolve("audit-index").resolve("snapshots-" + Long.toHexString(MatchingEngine.configHash(config)));
    }

    Path dir() {
        return dir;
    }

    /**
     * Keeps the engine's state after the command at journalIndex, whose journal excerpt has the fingerprint
     * {@code commandFingerprint} ({@link SnapshotEnvelope#fingerprint}), unless a snapshot of it is there already; true
     * when it wrote one, in the engine's file format (the same checks read it back). A directory that cannot be written
     * is said once, to {@code out}. Parts of a verify call it from their own threads: each copies its own engine, and
     * only the counts are shared.
     */
    boolean save(final long journalIndex, final MatchingEngine engine, final long commandFingerprint, final PrintStream out) {
        if (failed) {
            return false;
        }
        final Path file = dir.resolve(SnapshotFiles.name(journalIndex));
        try {
            if (Files.exists(file)) {
                return false;
            }
            Files.createDirectories(dir);
            IndexFile.replace(file, SnapshotEnvelope.wrap(journalIndex, configHash, commandFingerprint, engine.snapshot()));
            saved.incrementAndGet();
            return true;
        } catch (final IOException e) {
            if (!failed) {
                failed = true;
                out.println("note: cannot keep snapshots in " + dir + " (" + e.getMessage() + "): the next run replays as far");
            }
            return false;
        }
    }

    /** Takes back a snapshot this run kept (one whose state a later check found wrong, or unchecked). */
    void withdraw(final long journalIndex) {
        try {
            if (Files.deleteIfExists(dir.resolve(SnapshotFiles.name(journalIndex)))) {
                saved.decrementAndGet();
            }
        } catch (final IOException e) {
            out.println("note: cannot delete " + dir.resolve(SnapshotFiles.name(journalIndex)) + " (" + e.getMessage() + ")");
        }
    }

    /** Snapshots written by this instance. */
    int saved() {
        return saved.get();
    }
}
